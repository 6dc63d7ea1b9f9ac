// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;

/**
 * The descriptor pool of {@link TxReliability}: every kept PDU's {@link PduInfo} and the next
 * pointer of its connection's list, in two RAMs indexed by the PDU's first cell (every kept PDU
 * owns a distinct first cell, so the pool is exactly as large as the cell buffer and its free
 * list is the cell allocator's). One registered read (the engine's stage 1 address, the data at
 * stage 2) and the appends of the decide stage. A read never needs the write of the event just
 * ahead: that event is on another connection (the engine's hazard rule), so it wrote another
 * PDU's entries.
 */
final class DescriptorPool {
    /** The entry read at the previous edge. */
    final PduInfo info;
    final UInt next;

    DescriptorPool(int cells, UInt readAddr) {
        int cw = readAddr.width();
        Mem<PduInfo> infoMem = Mem.of(cells, new PduInfo()).named("pool_info");
        Mem<UInt> nextMem = Mem.of(cells, uint(cw)).named("pool_next");
        info = infoMem.readSync(readAddr);
        next = nextMem.readSync(readAddr).named("pool_next_rd");
        this.infoMem = infoMem;
        this.nextMem = nextMem;
    }

    private final Mem<PduInfo> infoMem;
    private final Mem<UInt> nextMem;

    /** A new PDU {@code cell}: its entry, and the link from the connection's old tail when {@code link}. */
    void append(Bool enable, UInt cell, UInt length, UInt vc, Bool link, UInt oldTail) {
        PduInfo word = wire("pool_info_in", new PduInfo());
        word.length.set(length);
        word.vc.set(vc);
        infoMem.write(cell, word, enable);
        nextMem.write(oldTail, cell, enable.and(link));
    }
}
