// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;

/**
 * The PSN table of {@link TxReliability}: one {@link ConnState} word per connection in a RAM
 * with a registered read, written only by the engine's decide stage, zeroed by a sweep after
 * reset. The engine reads at stage 0 (address), sees the word at stage 1 and decides at stage 2;
 * two writes can be in flight behind a read, and each is forwarded from the registered copy of
 * the last write ({@code last_*}):
 * <ul>
 * <li>stage 1 ({@link #atStage1}) takes the write of the event two ahead (it hit the RAM on the
 *     same edge as the read, which returns the old word);</li>
 * <li>stage 2 ({@link #atStage2}) takes the write of the event just ahead.</li>
 * </ul>
 * Both selects are registered compares, so a forward costs one LUT level.
 */
final class ConnectionTable {
    final Bool clearing;
    /** The sweep's address while {@link #clearing} (other tables of the engine clear beside it). */
    final UInt sweepAddr;
    /** The word for the event at stage 1 (writes up to two events ahead included). */
    final ConnState atStage1;
    /** The word for the event at stage 2 (every earlier write included). */
    final ConnState atStage2;
    /** The last write, registered: valid, address, word (the window stage uses it too). */
    final Bool lastWen;
    final UInt lastAddr;
    final ConnState lastWord;
    /** Driven by the decide stage: the new word of the stage-2 event, and whether to write it. */
    final ConnState write;
    final Bool writeEnable;

    /**
     * @param addr0 the read address (stage 0)
     * @param match0 the event at stage 0 reads the connection the event at stage 2 writes
     * @param v2 / addr2 the event at stage 2 (registers)
     * @param addr1 the event at stage 1 (register)
     */
    ConnectionTable(int xpus, int cellBits, boolean moves, UInt addr0, Bool match0, UInt addr1, Bool v2, UInt addr2) {
        int xw = addr0.width();
        Mem<ConnState> mem = Mem.of(xpus, new ConnState(cellBits, moves)).named("conn_state");
        // the sweep's flag is a register (not a compare of the pointer): it gates every event the
        // engine issues, and the queue manager's desc ready behind them
        UInt sweep = reg("clear_ptr", uint(xw)).init(0);
        sweepAddr = sweep;
        clearing = reg("clearing", bool()).init(true);
        when(clearing, () -> {
            sweep.set(sweep.add(1));
            when(sweep.eq(xpus - 1), () -> clearing.set(false));
        });

        write = wire("st_new", new ConnState(cellBits, moves));
        writeEnable = wire("st_wen", bool());
        ConnState zero = wire("st_zero", new ConnState(cellBits, moves));
        assignFromBits(zero, B(0, zero.bitWidth()));
        ConnState written = ConnState.select("st_written", clearing, zero, write);
        mem.write(mux(clearing, sweep, addr2), written, clearing.or(writeEnable));

        lastWen = reg("st_last_wen", bool()).init(false);
        lastAddr = reg("st_last_addr", uint(xw)).init(0);
        lastWord = reg("st_last", new ConnState(cellBits, moves));
        lastWen.set(writeEnable.andNot(clearing));
        lastAddr.set(addr2);
        assignLeaves(lastWord, write);

        // each select is one register (match and write enable ANDed before the edge), so a
        // forward is one LUT per bit
        Bool wrote = writeEnable.andNot(clearing);
        ConnState read = mem.readSync(addr0);
        Bool fwd1 = reg("st_fwd1", bool()).init(false);
        fwd1.set(match0.and(wrote));
        atStage1 = ConnState.select("st1", fwd1, lastWord, read);

        ConnState held = reg("st2_read", new ConnState(cellBits, moves));
        assignLeaves(held, atStage1);
        Bool fwd2 = reg("st_fwd2", bool()).init(false);
        fwd2.set(v2.and(addr1.eq(addr2)).and(wrote));
        atStage2 = ConnState.select("st2", fwd2, lastWord, held);
        this.mem = mem;
    }

    private final Mem<ConnState> mem;

    /** The word of connection {@code dest}, read combinationally (the status port's state readout). */
    ConnState peek(UInt dest) {
        return mem.readAsync(dest);
    }
}
