// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.rtl.pdu.CellFree;

/**
 * The queue manager's free walker (a stage of {@link TxQueueManager} in replay-store mode):
 * takes a {@code free} request {dest, first cell, length} and returns the PDU's cells to the
 * allocator one per cycle, following the cell next-pointer RAM through its own read port; takes
 * the next request when the last cell of the current one goes.
 */
final class ReplayFreeWalker {
    /** A cell is returned this cycle ({@link #cell}, of destination {@link #dest}). */
    final Bool active;
    final UInt cell;
    final UInt dest;

    ReplayFreeWalker(Stream<CellFree> free, CellLinks cellNext, int cells, int xpus, int bytesPerBeat) {
        int cw = log2Up(cells);
        int xw = log2Up(xpus);
        int lb = log2Up(bytesPerBeat);
        int lw = 13 - lb + 1;
        UInt left = reg("fw_left", uint(lw)).init(0);
        Bool first = reg("fw_first", bool()).init(false);
        UInt start = reg("fw_start", uint(cw)).init(0);
        dest = reg("fw_dest", uint(xw)).init(0);
        active = left.ne(0).named("fw_active");
        UInt next = wire("fw_next", uint(cw));
        cell = mux(first, start, next).named("fw_cur");
        next.set(cellNext.read("fw_next_rd", cell, active));
        free.ready.set(left.le(1));
        UInt pduCells = free.payload.length.add(bytesPerBeat - 1).shr(lb).resize(lw).named("fw_cells");
        when(free.fire(), () -> {
            left.set(pduCells);
            first.set(true);
            start.set(free.payload.cell.resize(cw));
            dest.set(free.payload.dest.resize(xw));
        }).elseWhen(active, () -> {
            left.set(left.sub(1));
            first.set(false);
        });
        assertThat(free.fire().not().or(free.payload.length.ne(0)), "free request of length 0");
    }
}
