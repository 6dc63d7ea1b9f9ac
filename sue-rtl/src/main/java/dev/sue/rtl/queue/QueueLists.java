// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.Stream;

/**
 * Per-{destination, VC} linked lists of cells over the shared cell buffer, with all per-queue
 * state in RAM (no per-queue FIFOs or registers), optional per-destination occupancy counts and
 * limits, and empty/non-empty events.
 *
 * <p><b>Parameters:</b> {@code xpus} destinations 2..1024; {@code vcs} 1, 2, 4 or 8;
 * {@code cells} 2..65536 (any value); {@code destLimited}: whether the block counts each
 * destination's cells and refuses appends over {@code destLimit} (the {@link TxQueueManager}
 * does not: it enforces its destination limit before cells are taken, in
 * {@link DestOccupancy}, so its lists have neither the count RAM nor the compare, which sat on
 * stage B's longest path). Queue id = {@code dest * vcs + vc}, {@code xpus * vcs}
 * queues (up to 4096 at 1024 x 4; 8192 at 1024 x 8).
 *
 * <p><b>Storage</b> (all synchronous-read RAMs, one read and one write port each):
 * <ul>
 * <li>queue state, {@code xpus * vcs} words of {head, tail, length}
 *     ({@code 2 * log2Up(cells) + bitsFor(cells)} bits);
 * <li>destination counts ({@code destLimited} only), {@code xpus} words of {@code bitsFor(cells)} bits;
 * <li>next pointers, {@code cells} words of {@code log2Up(cells)} bits. A queue's cells are
 *     {@code head, next[head], ...}, {@code length} of them; the next pointer of a tail cell is
 *     undefined (never read while the length says it is the tail).
 * </ul>
 * After reset the block clears the state and count RAMs, one word per cycle
 * ({@code xpus * vcs} cycles, {@code cmd.ready} low meanwhile).
 *
 * <p><b>Ports:</b>
 * <ul>
 * <li>{@code cmd} (Stream of {@link QueueCmd}, input): one operation per cycle; {@code ready} is
 *     high from the end of the clear sweep on and never falls again (no stalls, whatever the
 *     sequence of queues).
 * <li>{@code rsp} (Flow of {@link QueueRsp}, output): one answer per command, in order.
 * <li>{@code destLimit} (UInt({@code bitsFor(cells)}), input, quasi-static; {@code destLimited}
 *     only, else {@code null} and {@code limitReached} is always 0): an append to a
 *     destination that already holds this many cells (over all its VCs) is refused with
 *     {@code limitReached}. {@code cells} disables the limit.
 * <li>{@code initDone} (Bool): the clear sweep has finished.
 * </ul>
 *
 * <p><b>Protocol.</b> Append links the caller's cell at the tail (the caller got it from the
 * {@link CellAllocator} and keeps it when the append is refused). Pop unlinks the head and
 * returns it with its successor; the popped cell belongs to the caller (it is not freed
 * here). Peek returns the head, its successor and the length. Destination counts
 * ({@code destLimited}) go up on an accepted append and down on a pop.
 *
 * <p><b>Pipeline and latency 2.</b> Cycle t: the command is accepted and the state and count
 * RAMs are read. Cycle t+1 (stage B): the read words are corrected by forwarding (see below),
 * the operation is decided, an append writes {@code next[tail]}, a pop/peek reads
 * {@code next[head]}. Cycle t+2 (stage C): {@code rsp} is valid (combinational from the stage-C
 * registers and the next-pointer RAM's read register) and the new state and count are written
 * at the end of the cycle.
 *
 * <p><b>Read-after-write hazards.</b> A RAM read in cycle t misses the write at the end of
 * cycle t, and the command in stage C has not written yet either; stage B therefore takes the
 * queue state (and the destination count) from the stage-C command when it is on the same
 * queue (destination), else from a register holding the write made at the end of the previous
 * cycle when that matches, else from the RAM. The two queue matches are compared a cycle
 * ahead, on the command being accepted (registers {@code b_same_as_c}, {@code b_same_as_last}). A pop right behind a pop of the same queue takes
 * its head from the next-pointer RAM's read data (RAM output register -> 2:1 mux -> RAM
 * address, no logic in between). Next pointers need no forwarding: they are written and read
 * only in stage B, by one command at a time. Hence one operation per cycle in any mix,
 * including back-to-back operations on one queue.
 */
public final class QueueLists extends Component {
    /** A queue's word of the state RAM: its first and last cell and how many cells it holds. */
    static final class ListState extends Bundle {
        final UInt head;
        final UInt tail;
        final UInt length;
        private final int cellBits;
        private final int lengthBits;

        ListState(int cellBits, int lengthBits) {
            this.cellBits = cellBits;
            this.lengthBits = lengthBits;
            head = uint(cellBits);
            tail = uint(cellBits);
            length = uint(lengthBits);
        }

        @Override
        public ListState copyType() {
            return new ListState(cellBits, lengthBits);
        }
    }

    public final Stream<QueueCmd> cmd;
    public final Flow<QueueRsp> rsp;
    public final UInt destLimit;
    public final Bool initDone;

    /** Lists without destination counts or limit (as the {@link TxQueueManager} uses them). */
    public QueueLists(int xpus, int vcs, int cells) {
        this(xpus, vcs, cells, false);
    }

    public QueueLists(int xpus, int vcs, int cells, boolean destLimited) {
        param("xpus", xpus);
        param("vcs", vcs);
        param("cells", cells);
        param("destLimited", destLimited);
        require(xpus >= 2 && xpus <= 1024, "xpus must be 2..1024, got " + xpus);
        require(vcs == 1 || vcs == 2 || vcs == 4 || vcs == 8, "vcs must be 1, 2, 4 or 8, got " + vcs);
        require(cells >= 2 && cells <= 65536, "cells must be 2..65536, got " + cells);
        int queues = xpus * vcs;
        int qw = log2Up(queues);
        int cw = log2Up(cells);
        int lw = bitsFor(cells);
        cmd = slave(Stream.of(() -> new QueueCmd(qw, cw)));
        rsp = master(Flow.of(() -> new QueueRsp(qw, cw, lw)));
        destLimit = destLimited ? in(uint(lw)) : null;
        initDone = out(bool());
        latency(2);

        Mem<ListState> state = Mem.of(queues, new ListState(cw, lw)).named("state");
        Mem<UInt> next = Mem.of(cells, uint(cw)).named("next");

        // ---- clear sweep (queues >= xpus: one index covers the state and count RAMs) -------
        ClearSweep sweeper = new ClearSweep("clear_idx", "clearing", queues);
        UInt clearIdx = sweeper.index;
        Bool clearing = sweeper.active;
        initDone.set(clearing.not());
        cmd.ready.set(clearing.not());

        // ---- stage A: accept, read state and count -----------------------------------------
        Bool accept = cmd.fire().named("accept");
        ListState stateRd = state.readSync(cmd.payload.queue).named("state_rd");

        Bool bValid = reg("b_valid", bool()).init(false);
        UInt bOp = reg("b_op", uint(2));
        UInt bQueue = reg("b_queue", uint(qw));
        UInt bCell = reg("b_cell", uint(cw));
        bValid.set(accept);
        when(accept, () -> {
            bOp.set(cmd.payload.op);
            bQueue.set(cmd.payload.queue);
            bCell.set(cmd.payload.cell);
        });

        // ---- stage C registers (declared first: stage B forwards from them) ----------------
        Bool cValid = reg("c_valid", bool()).init(false);
        UInt cOp = reg("c_op", uint(2));
        UInt cQueue = reg("c_queue", uint(qw));
        Bool cOk = reg("c_ok", bool());
        Bool cWrite = reg("c_write", bool()).init(false);
        UInt cCell = reg("c_cell", uint(cw));
        Bool cHeadFromNext = reg("c_head_from_next", bool());
        UInt cHead = reg("c_head", uint(cw));
        UInt cTail = reg("c_tail", uint(cw));
        UInt cLength = reg("c_length", uint(lw));
        Bool cBecameNonEmpty = reg("c_became_non_empty", bool());
        Bool cBecameEmpty = reg("c_became_empty", bool());

        UInt nextRdAddr = wire("next_rd_addr", uint(cw));
        UInt nextRd = next.readSync(nextRdAddr).named("next_rd");
        // The new state stage C writes at the end of this cycle: a pop's new head is the next
        // pointer read in stage B.
        ListState cNewState = wire("c_new_state", new ListState(cw, lw));
        cNewState.head.set(mux(cHeadFromNext, nextRd, cHead));
        cNewState.tail.set(cTail);
        cNewState.length.set(cLength);

        // The write made at the end of the previous cycle (missed by this cycle's read data).
        Bool lastWrite = reg("last_write", bool()).init(false);
        UInt lastQueue = reg("last_queue", uint(qw));
        ListState lastState = reg("last_state", new ListState(cw, lw));
        lastWrite.set(cWrite);
        lastQueue.set(cQueue);
        assignLeaves(lastState, cNewState);

        // ---- stage B: forward, decide ------------------------------------------------------
        // The queue compares are made a cycle ahead, on the command being accepted: next cycle
        // stage C holds today's stage B (when it was valid; else c_write is low) and last_queue
        // holds today's c_queue, so only the write enables are left after the registers.
        Bool bSameAsC = reg("b_same_as_c", bool());
        Bool bSameAsLast = reg("b_same_as_last", bool());
        bSameAsC.set(cmd.payload.queue.eq(bQueue));
        bSameAsLast.set(cmd.payload.queue.eq(cQueue));
        ListState bState = wire("b_state", new ListState(cw, lw));
        assignLeaves(bState, stateRd);
        when(lastWrite.and(bSameAsLast), () -> assignLeaves(bState, lastState));
        when(cWrite.and(bSameAsC), () -> assignLeaves(bState, cNewState));
        UInt bHead = bState.head;
        UInt bTail = bState.tail;
        UInt bLength = bState.length;
        Bool bEmpty = bLength.eq(0).named("b_empty");

        Bool isAppend = bOp.eq(QueueCmd.OP_APPEND).named("b_is_append");
        Bool isPop = bOp.eq(QueueCmd.OP_POP).named("b_is_pop");
        Bool isPeek = bOp.eq(QueueCmd.OP_PEEK).named("b_is_peek");
        DestCounts counts = destLimited
                ? new DestCounts(xpus, queues, lw, cmd.payload.queue, bQueue, cQueue, cWrite, lastQueue, lastWrite)
                : null;
        Bool atLimit = destLimited ? counts.bCount.ge(destLimit).named("b_at_limit") : FALSE;
        Bool appendOk = isAppend.andNot(atLimit).named("b_append_ok");
        Bool takeOk = isPop.or(isPeek).andNot(bEmpty).named("b_take_ok");
        Bool popOk = isPop.andNot(bEmpty).named("b_pop_ok");

        nextRdAddr.set(bHead);
        next.write(bTail, bCell, bValid.and(appendOk).andNot(bEmpty));

        cValid.set(bValid);
        cWrite.set(bValid.and(appendOk.or(popOk)));
        when(bValid, () -> {
            cOp.set(bOp);
            cQueue.set(bQueue);
            cOk.set(appendOk.or(takeOk));
            cCell.set(mux(isAppend, bCell, bHead));
            cHeadFromNext.set(popOk);
            cHead.set(mux(appendOk.and(bEmpty), bCell, bHead));
            cTail.set(mux(appendOk, bCell, bTail));
            cLength.set(mux(appendOk, bLength.add(1), mux(popOk, bLength.sub(1), bLength)));
            cBecameNonEmpty.set(appendOk.and(bEmpty));
            cBecameEmpty.set(popOk.and(bLength.eq(1)));
        });

        // ---- stage C: answer and write -----------------------------------------------------
        rsp.valid.set(cValid);
        rsp.payload.op.set(cOp);
        rsp.payload.queue.set(cQueue);
        rsp.payload.ok.set(cOk);
        rsp.payload.limitReached.set(destLimited ? counts.cLimit : FALSE);
        rsp.payload.cell.set(cCell);
        rsp.payload.next.set(nextRd);
        rsp.payload.length.set(cLength);
        rsp.payload.becameNonEmpty.set(cBecameNonEmpty);
        rsp.payload.becameEmpty.set(cBecameEmpty);

        UInt clearAddr = clearIdx.resize(qw).named("clear_addr");
        // the sweep writes every list empty
        ListState stateWritten = wire("state_written", new ListState(cw, lw));
        assignLeaves(stateWritten, cNewState);
        when(clearing, () -> {
            stateWritten.head.set(0);
            stateWritten.tail.set(0);
            stateWritten.length.set(0);
        });
        state.write(mux(clearing, clearAddr, cQueue), stateWritten, clearing.or(cWrite));
        if (destLimited) {
            counts.update(bValid, isAppend.and(atLimit), appendOk, popOk, clearing, clearIdx);
        }

        // ---- checks ------------------------------------------------------------------------
        assertThat(bValid.and(appendOk).not().or(bLength.ne(cells)), "append to a queue holding every cell");
        if (destLimited) {
            assertThat(bValid.and(popOk).not().or(counts.bCount.ne(0)), "pop from a destination whose count is 0");
            assertThat(bValid.and(isAppend).not().or(bLength.le(counts.bCount)),
                    "queue longer than its destination's count");
        }
        if (!isPowerOfTwo(queues)) {
            assertThat(accept.not().or(cmd.payload.queue.lt(queues)), "queue id >= xpus * vcs");
        }
    }

    /**
     * The per-destination cell counts ({@code destLimited} only): read in stage A on the
     * command's destination, forwarded in stage B from stage C and from the previous cycle's
     * write like the state word, written in stage C.
     */
    private static final class DestCounts {
        /** Stage B: the destination's count, forwarded. */
        final UInt bCount;
        /** Stage C: the append was refused at the limit. */
        final Bool cLimit;
        private final Mem<UInt> ram;
        private final UInt cCount;
        private final UInt cDest;
        private final Bool cWrite;
        private final int xpus;
        private final int queues;

        DestCounts(int xpus, int queues, int lw, UInt aQueue, UInt bQueue, UInt cQueue, Bool cWrite,
                UInt lastQueue, Bool lastWrite) {
            this.xpus = xpus;
            this.queues = queues;
            this.cWrite = cWrite;
            int vw = Integer.numberOfTrailingZeros(queues / xpus);
            int xw = log2Up(xpus);
            ram = Mem.of(xpus, uint(lw)).named("dest_count");
            UInt countRd = ram.readSync(destOf(aQueue, xw, vw)).named("count_rd");
            cLimit = reg("c_limit", bool());
            cCount = reg("c_count", uint(lw));
            UInt lastCount = reg("last_count", uint(lw));
            lastCount.set(cCount);
            cDest = destOf(cQueue, xw, vw).named("c_dest");
            UInt bDest = destOf(bQueue, xw, vw).named("b_dest");
            UInt lastDest = destOf(lastQueue, xw, vw).named("last_dest");
            bCount = mux(cWrite.and(cDest.eq(bDest)), cCount,
                    mux(lastWrite.and(lastDest.eq(bDest)), lastCount, countRd)).named("b_count");
        }

        /** Stage B decides (refused at the limit, appended, popped); stage C writes; the sweep clears. */
        void update(Bool bValid, Bool refused, Bool appendOk, Bool popOk, Bool clearing, UInt clearIdx) {
            when(bValid, () -> {
                cLimit.set(refused);
                cCount.set(mux(appendOk, bCount.add(1), mux(popOk, bCount.sub(1), bCount)));
            });
            int lw = cCount.width();
            ram.write(mux(clearing, clearIdx.resize(cDest.width()), cDest), mux(clearing, U(0, lw), cCount),
                    (xpus == queues ? clearing : clearing.and(clearIdx.lt(xpus))).or(cWrite));
        }
    }

    private static UInt destOf(UInt queue, int xw, int vw) {
        return queue.shr(vw).resize(xw);
    }
}
