// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;

/**
 * The packer's new cells of one parity (part of {@link Packer}): the allocator of that parity's
 * cells (cell = 2 x its index + parity) through a {@link CellPrefetch} queue, and the parity's
 * {@link SpareCells} (an op that does not commit keeps its cells there; they go out first).
 * Whether the packer takes a cell is known late (its fill arithmetic): the take is registered
 * ({@code cell_took}) and acts in the next cycle, when the prefetch queue pops the taken cell
 * (offering the one behind it meanwhile) and the spare list picks its state for a take; so the
 * late take drives registers only, and the allocator's counters and free FIFO see a ready from
 * registers (timing, issue 13). The cells held in the prefetch queue count as free
 * ({@link #held}).
 */
final class CellSource {
    /** The cell the next take gets (with {@link #ok}). */
    final UInt cell;
    /** A cell is at hand (from registers). */
    final Bool ok;
    /** Allocated cells waiting in the prefetch queue and not taken (free cells, for {@code free_cells}). */
    final UInt held;
    final SpareCells spare;
    private final Bool tookQ;
    private final Bool tookSpareQ;
    private final UInt allocCell;

    CellSource(QueueGeometry g, int parity, CellAllocator alloc) {
        tookQ = reg("cell_took" + parity, bool()).init(false);
        // (whether that take came from the spare list; the prefetch queue pops it otherwise)
        tookSpareQ = reg("cell_took_spare" + parity, bool()).init(false);
        spare = new SpareCells(g, "p" + parity + "_", tookQ);
        Bool popTaken = tookQ.andNot(tookSpareQ).named("cell_prefetch" + parity + "_pop");
        CellPrefetch prefetch = new CellPrefetch("cell_prefetch" + parity + "_", g.cw() - 1, alloc.alloc, popTaken);
        held = prefetch.held;
        allocCell = cat(prefetch.cell, parity == 1 ? TRUE : FALSE).asUInt().named("fresh_cell" + parity);
        cell = mux(spare.fromSpare, spare.cell, allocCell).named("new_cell" + parity);
        ok = spare.fromSpare.or(prefetch.valid).named("cell_ok" + parity);
    }

    /**
     * This cycle's take ({@code take}, late) and the op's fate ({@code commit} / {@code
     * rollback}, see {@link SpareCells#update}).
     */
    void update(Bool take, Bool commit, Bool rollback) {
        tookQ.set(take);
        tookSpareQ.set(spare.fromSpare);
        spare.update(take, allocCell, commit, rollback);
        assertThat(take.not().or(ok), "cell taken while none is at hand");
    }
}
