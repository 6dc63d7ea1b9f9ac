// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Stream;
import java.util.ArrayList;
import java.util.List;

/**
 * The cells one allocator has handed out ahead of the packer (part of {@link CellSource}): a
 * {@value #DEPTH}-entry queue in registers, head in entry 0, popped a cycle <em>after</em> its
 * cell is taken. Whether the packer takes a cell is known late in the cycle (its fill
 * arithmetic); popped in that cycle, the take ran on through the queue's count, flags and the
 * allocator's ready (8.5 levels at 512 bits x 1024 XPUs, issue 13). Instead the take is
 * registered ({@code pop}, from registers) and, while it is pending, the queue offers its second
 * entry: the late take then feeds one register and nothing here.
 *
 * <p>Why {@value #DEPTH} entries: a cell taken in cycle t stays in the queue until the end of
 * t+1, so a take every cycle needs the taken entry, the offered one and a slot for the
 * allocator's next cell, whose ready is the queue's registered "not full".
 */
final class CellPrefetch {
    /** Entries: the one taken and not yet popped, the one offered, the allocator's next. */
    static final int DEPTH = 3;
    /** The offered cell (without its parity bit), valid with {@link #valid}. */
    final UInt cell;
    /** A cell is offered (from registers). */
    final Bool valid;
    /** Cells held and not taken (free cells, for {@code free_cells}). */
    final UInt held;

    /**
     * @param alloc the allocator's stream (its ready is driven here: the queue is not full)
     * @param pop the head was taken in the previous cycle (from registers): it leaves now, and
     *     the second entry is offered
     */
    CellPrefetch(String prefix, int width, Stream<UInt> alloc, Bool pop) {
        List<UInt> entries = new ArrayList<>();
        List<Bool> full = new ArrayList<>();
        for (int i = 0; i < DEPTH; i++) {
            entries.add(reg(prefix + "cell_" + i, uint(width)));
            // a thermometer: entry i holds a cell (entries fill from 0)
            full.add(reg(prefix + "full_" + i, bool()).init(false));
        }
        Bool notFull = full.get(DEPTH - 1).not().named(prefix + "not_full");
        alloc.ready.set(notFull);
        Bool push = alloc.valid.and(notFull).named(prefix + "push");
        // after this cycle's pop the entries move down one; the allocator's cell goes into the
        // first empty entry after the move (written into every empty one: only that one is marked)
        for (int i = 0; i < DEPTH; i++) {
            UInt above = i + 1 < DEPTH ? entries.get(i + 1) : entries.get(i);
            Bool aboveFull = i + 1 < DEPTH ? full.get(i + 1) : FALSE;
            UInt moved = mux(pop, above, entries.get(i));
            Bool movedFull = mux(pop, aboveFull, full.get(i)).named(prefix + "kept_" + i);
            Bool belowFull = i == 0 ? TRUE : mux(pop, full.get(i), full.get(i - 1));
            entries.get(i).set(mux(movedFull, moved, alloc.payload));
            full.get(i).set(movedFull.or(push.and(belowFull)));
        }
        cell = mux(pop, entries.get(1), entries.get(0)).named(prefix + "cell");
        valid = mux(pop, full.get(1), full.get(0)).named(prefix + "valid");
        int hw = bitsFor(DEPTH);
        UInt stored = full.get(0).asUInt().resize(hw);
        for (int i = 1; i < DEPTH; i++) {
            stored = stored.add(full.get(i).asUInt().resize(hw));
        }
        held = stored.sub(pop.asUInt().resize(hw)).named(prefix + "held");
        assertThat(pop.not().or(full.get(0)), "cell prefetch popped while empty");
        for (int i = 1; i < DEPTH; i++) {
            assertThat(full.get(i).not().or(full.get(i - 1)), "cell prefetch entries out of order");
        }
    }
}
