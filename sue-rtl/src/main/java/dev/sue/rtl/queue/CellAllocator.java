// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.Stream;

/**
 * Free list of the shared cell buffer: hands out cell indices (one per cycle) and takes them
 * back (one per cycle), with a free-cell count.
 *
 * <p><b>Structure (why a FIFO of free indices, not a linked free list).</b> Free cells are the
 * never-used cells {@code fresh..cells-1} (a counter, so no reset sweep of a RAM is needed) plus
 * a RAM FIFO ({@link StreamFifo}, {@code cells} entries of {@code log2Up(cells)} bits) of cells
 * that were freed. Allocation takes from the counter until it is exhausted, then from the FIFO.
 * A linked free list would share the next-pointer RAM of the queue lists and so allow an O(1)
 * splice of a whole chain, but it needs that RAM's read port for every allocation (a read of
 * {@code next[free_head]} with a prefetch to sustain one per cycle), which competes with the
 * queue pops and adds read-after-write hazards between allocation, append and free. The FIFO
 * keeps the allocator independent of the queue RAMs and sustains one allocation and one free
 * per cycle with no hazards at all; a chain of n cells is freed in n cycles, which matches the
 * transmit side, which reads (and later, after the ACK, releases) at most one cell per cycle.
 * Cost: {@code cells * log2Up(cells)} bits of RAM (8192 cells: 104 Kbit).
 *
 * <p><b>Parameters:</b> {@code cells}: 2..65536, any value (not only powers of two).
 *
 * <p><b>Ports:</b>
 * <ul>
 * <li>{@code alloc} (Stream of UInt({@code log2Up(cells)}), this block is the source): valid
 *     while a free cell can be handed out, payload = that cell; a transfer allocates it.
 * <li>{@code free} (Flow of the same type, input): valid = return this cell to the free list.
 *     It must be a cell that is allocated (a double free or an index >= cells is a caller error;
 *     the SVA catches a free while every cell is free, the testbench's model catches the rest).
 * <li>{@code freeCount} (UInt({@code bitsFor(cells)})): free cells, including cells freed in
 *     the last two cycles that are not allocatable yet.
 * </ul>
 *
 * <p><b>Timing.</b> {@code alloc.valid} is low during reset and may rise in the first cycle after
 * it. An allocation or a free at edge k shows in {@code freeCount} from edge k.
 * A cell freed at edge k can be allocated again from edge k+2 (the FIFO's RAM latency; declared
 * {@code latency(2)}). {@code alloc.valid} never depends combinationally on {@code alloc.ready}
 * or {@code free}. Throughput: one allocation and one free per cycle, in any mix.
 * {@code alloc.valid} is low only when {@code freeCount} is 0 or every free cell was freed in
 * the last two cycles.
 */
public final class CellAllocator extends Component {
    public final Stream<UInt> alloc;
    public final Flow<UInt> free;
    public final UInt freeCount;

    public CellAllocator(int cells) {
        param("cells", cells);
        require(cells >= 2 && cells <= 65536, "cells must be 2..65536, got " + cells);
        int cw = log2Up(cells);
        alloc = master(Stream.of(() -> uint(cw)));
        free = slave(Flow.of(() -> uint(cw)));
        freeCount = out(uint(bitsFor(cells)));
        latency(2);

        StreamFifo<UInt> freed = instance("freed", () -> new StreamFifo<>(() -> uint(cw), cells,
                FifoStorage.RAM, cells));
        UInt fresh = reg("fresh", uint(bitsFor(cells))).init(0);
        Bool freshLeft = fresh.ne(cells).named("fresh_left");

        // Low while reset is asserted (the stream rules), high from the first cycle after it.
        Bool running = reg("running", bool()).init(false);
        running.set(true);
        alloc.valid.set(running.and(freshLeft.or(freed.m.valid)));
        alloc.payload.set(mux(freshLeft, fresh.resize(cw), freed.m.payload));
        freed.m.ready.set(running.and(alloc.ready).andNot(freshLeft));
        when(alloc.fire().and(freshLeft), () -> fresh.set(fresh.add(1)));

        freed.s.valid.set(free.valid);
        freed.s.payload.set(free.payload);

        UInt count = reg("count", uint(bitsFor(cells))).init(cells);
        Bool took = alloc.fire().named("took");
        Bool gave = free.valid;
        when(took.andNot(gave), () -> count.set(count.sub(1)))
                .elseWhen(gave.andNot(took), () -> count.set(count.add(1)));
        freeCount.set(count);

        alloc.assertProtocol("alloc", true);
        assertThat(took.not().or(count.ne(0)), "allocation with no free cell");
        assertThat(gave.not().or(freed.s.ready), "free while every cell is free (double free)");
        assertThat(gave.not().or(count.ne(cells)), "free while every cell is free (double free)");
        if (!isPowerOfTwo(cells)) {
            assertThat(gave.not().or(free.payload.lt(cells)), "freed cell index >= cells");
        }
    }
}
