// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;

/**
 * The packer's new cells of one parity (part of {@link Packer}): the allocator of that parity's
 * cells (cell = 2 x its index + parity) through a 2-entry register FIFO ({@code cell_prefetch}),
 * and the parity's {@link SpareCells} (an op that does not commit keeps its cells there; they
 * go out first). Whether the packer takes a cell is known late (its fill arithmetic): it then only
 * moves the small FIFO and the spare ring, while the allocator's counters and free FIFO see a
 * ready from registers (timing, issue 13). The cells held in the FIFO count as free
 * ({@link #held}).
 */
final class CellSource {
    /** The cell the next take gets (with {@link #ok}). */
    final UInt cell;
    /** A cell is at hand (from registers). */
    final Bool ok;
    /** Allocated cells waiting in the FIFO (free cells, for {@code free_cells}). */
    final UInt held;
    final SpareCells spare;
    private final StreamFifo<UInt> fifo;
    private final UInt allocCell;

    CellSource(QueueGeometry g, int parity, CellAllocator alloc) {
        final int cw = g.cw();
        spare = new SpareCells(g, "p" + parity + "_");
        fifo = instance("cell_prefetch" + parity,
                () -> new StreamFifo<>(() -> uint(cw - 1), 2, FifoStorage.REGISTERS, 2));
        fifo.s.connectFrom(alloc.alloc);
        held = fifo.occupancy;
        allocCell = cat(fifo.m.payload, parity == 1 ? TRUE : FALSE).asUInt().named("fresh_cell" + parity);
        cell = mux(spare.fromSpare, spare.cell, allocCell).named("new_cell" + parity);
        ok = spare.fromSpare.or(fifo.m.valid).named("cell_ok" + parity);
    }

    /**
     * This cycle's take ({@code take}, late) and the op's fate ({@code commit} / {@code
     * rollback}, see {@link SpareCells#update}).
     */
    void update(Bool take, Bool commit, Bool rollback) {
        fifo.m.ready.set(take.andNot(spare.fromSpare));
        spare.update(take, allocCell, commit, rollback);
    }
}
