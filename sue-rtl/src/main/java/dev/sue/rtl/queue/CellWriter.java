// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.OneHot;
import java.util.ArrayList;
import java.util.List;

/**
 * The queue manager's cell writer (a stage of {@link TxQueueManager}): places the packer's chunks
 * in the cell buffer, one cycle after the packer decided where they go. The packer hands it, from
 * registers, one write per cycle: a chunk (its bytes, their count {@code n}, the cell and the
 * fill offset {@code f} it goes to, and whether the cell already holds the spill of the op's
 * previous chunk) or a carry write (the spill of an op's last chunk, into the op's tail cell).
 * The writer rotates the chunk to byte {@code f}, writes bytes {@code f..min(f+n, B)-1} of the
 * cell (from byte 0, with the spill, when the cell holds one) and keeps the bytes beyond the cell
 * as the spill for the next write.
 *
 * <p>Why a stage of its own: the rotation and the byte enables depend on the fill offset, which
 * the packer computes late (queue state, limit close); registered here, they start from
 * flip-flops. The cost is one cycle between the packer's decision and the cell write, which the
 * reader covers by forwarding ({@link #lastValid}...: the write of the cycle before its read
 * data) and, for an early-closed PDU, by waiting until the extra chunk has left the packer.
 */
final class CellWriter {
    /** The write of the cycle before (registered), for the reader's forwarding. */
    final Bool lastValid;
    final UInt lastAddr;
    final Bits lastData;
    final Bits lastBe;

    /**
     * @param write a chunk or carry write this cycle (registered in here)
     * @param carryWrite the write is the spill of the op's last chunk (then {@code fill} is the
     *     op's fill after that chunk: the spill occupies bytes 0..fill-1)
     * @param spillFirst the cell already holds the spill of the op's previous chunk
     */
    CellWriter(Mem<Bits> cellRam, int bytesPerBeat, Bool write, Bool carryWrite, UInt addr, UInt fill, UInt n,
            Bool spillFirst, Bits chunk) {
        int w = bytesPerBeat * 8;
        int lb = log2Up(bytesPerBeat);
        int cw = addr.width();
        Bool valid = reg("cwr_valid", bool()).init(false);
        Bool isCarry = reg("cwr_carry", bool()).init(false);
        UInt wAddr = reg("cwr_addr", uint(cw)).init(0);
        UInt f = reg("cwr_fill", uint(lb)).init(0);
        UInt wN = reg("cwr_n", uint(lb + 1)).init(0);
        Bool dirty = reg("cwr_spill_first", bool()).init(false);
        Bits data = reg("cwr_data", bits(w));
        Bits spill = reg("cwr_spill", bits(w));
        valid.set(write);
        when(write, () -> {
            isCarry.set(carryWrite);
            wAddr.set(addr);
            f.set(fill);
            wN.set(n);
            dirty.set(spillFirst);
            data.set(chunk);
        });

        Bits rot = cat(B(0, w), data).shl(f.resize(lb + 4).shl(3)).named("cwr_rot");
        Bits rotLo = rot.slice(w - 1, 0);
        UInt fPlusN = f.resize(lb + 1).add(wN).named("cwr_end");
        UInt loByte = mux(dirty, U(0, lb + 1), f.resize(lb + 1)).named("cwr_lo_byte");
        UInt hiByte = mux(fPlusN.gt(bytesPerBeat), U(bytesPerBeat, lb + 1), fPlusN).named("cwr_hi_byte");
        List<Bool> chunkBe = new ArrayList<>();
        List<Bool> carryBe = new ArrayList<>();
        for (int i = 0; i < bytesPerBeat; i++) {
            chunkBe.add(loByte.le(i).and(hiByte.gt(i)));
            carryBe.add(i == bytesPerBeat - 1 ? FALSE : f.gt(i));
        }
        Bits be = mux(isCarry, OneHot.fromBools(carryBe), OneHot.fromBools(chunkBe)).named("cwr_be");
        Bits word = mux(isCarry.or(dirty), spill, B(0, w)).or(mux(isCarry, B(0, w), rotLo)).named("cwr_word");
        cellRam.write(wAddr, word, valid, be);
        when(valid.andNot(isCarry), () -> spill.set(rot.slice(2 * w - 1, w)));

        lastValid = reg("cw_valid", bool()).init(false);
        lastAddr = reg("cw_addr", uint(cw)).init(0);
        lastData = reg("cw_data", bits(w));
        lastBe = reg("cw_be", bits(bytesPerBeat));
        lastValid.set(valid);
        lastAddr.set(wAddr);
        lastData.set(word);
        lastBe.set(be);
    }
}
