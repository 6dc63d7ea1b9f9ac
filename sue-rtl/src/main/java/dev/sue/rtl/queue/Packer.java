// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;

/**
 * The queue manager's packer (a stage of {@link TxQueueManager}): takes R's chunk or flush
 * ({@link PackerInput}) and the queue's state word (one sync RAM {@code q_state}, one-deep
 * forwarding), decides the chunk's fill offset and cells (up to two new cells, one of each
 * parity, from the {@link CellSource}s, linked in {@link CellLinks}), hands it to the
 * {@link CellBuffer}, commits or rolls back the op at its last chunk (refused by
 * {@link DestOccupancy} or the range check, aborted), and closes PDUs (op end with nothing
 * waiting, pack limit, flush): a closed PDU's info goes to {@code pdu_info}, the PDU to the close
 * FIFO or, through the idle bypass registers, straight to the reader.
 *
 * <p><b>Cell parity.</b> A chunk (up to B + 18 bytes) at fill f touches its first cell c0 (the
 * tail, or a new cell A at fill 0), c1 when f + n > B and c2 when f + n > 2B; the new ones are
 * A, then B. A's parity is the tail's opposite and B's the tail's, so a chain's cells alternate
 * parity and c0, c1, c2 fall in alternate banks of the cell buffer. A closed PDU's last cell
 * stays in the queue's state word ({@code tail}), so the queue's next PDU continues the
 * alternation and both parities are used alike (after reset a queue's tail parity is its
 * index's). A chunk waits until both sources have a cell, from registers.
 */
final class Packer {
    /** Closed PDUs for the list engine. */
    final StreamFifo<ClosedPdu> closeFifo;
    final CellBuffer cellBuf;
    /** The new cells of each parity (allocator, prefetch queue, spare list). */
    final CellSource[] cells = new CellSource[2];
    final DestOccupancy occupancy;
    /** R's chunk is taken this cycle. */
    final Bool chunkTaken;
    /**
     * Free cells (both allocators) and cells held for the packer, a cycle ago (a register): the
     * destination limit's and the merge room's measure, and {@code free_cells}.
     */
    final UInt freeOrHeldQ;
    /** The queue of the op or flush in the packer. */
    final UInt kQ;
    /** Set by the reader: it could take a PDU closed now (from registers only). */
    final Bool bypassOk;
    /** The PDU closed this cycle goes to the reader (idle bypass), not to the lists. */
    final Bool bypass;
    /** A bypassed PDU starts at the reader this cycle: its queue, first cell, length, ops, beats. */
    final Bool bpValid;
    final UInt bpQ;
    final UInt bpFirst;
    final UInt bpLen;
    final UInt bpOps;
    final UInt bpBeats;
    /** A PDU is closed this cycle. */
    final Bool closeEv;
    /** An aborted op is rolled back; a refused op ends (its credits go back). */
    final Bool abortOp;
    final Bool refuseDone;

    Packer(QueueGeometry g, PackerInput r, CellAllocator alloc0, CellAllocator alloc1, CellLinks links,
            Mem<TxQueueManager.PduInfo> pduInfo, UInt destLimit) {
        final int bpb = g.bytes();
        final int lb = g.lb();
        final int cw = g.cw();
        final int qw = g.qw();
        final int queues = g.queues();

        // ---- per-queue state RAM --------------------------------------------------------------
        Mem<TxQueueManager.QueueState> stateRam = Mem.of(queues, new TxQueueManager.QueueState(cw)).named("q_state");
        TxQueueManager.QueueState stateRd = stateRam.readSync(r.stateReadQ).named("state_rd");
        Bool wrValid = reg("wr_valid", bool()).init(false);
        TxQueueManager.QueueState wrWord = reg("wr_word", new TxQueueManager.QueueState(cw));
        // clear sweep of the state RAM (and the destination counts) after reset
        ClearSweep sweep = new ClearSweep("state_clear", "state_clearing", queues);
        UInt clr = sweep.index;
        Bool clearing = sweep.active;
        // r_q is always the queue read in the cycle before, and the queue written in that cycle is
        // known from registers (r_q / the sweep): compare them a cycle ahead
        UInt wrQNext = mux(clearing, clr.resize(qw), r.rQ).named("state_wr_q_next");
        Bool wrSameQ = reg("wr_same_q", bool()).init(false);
        wrSameQ.set(wrQNext.eq(r.stateReadQ));
        Bool stateFwd = wrValid.and(wrSameQ).named("state_fwd");
        TxQueueManager.QueueState st = wire("state_in", new TxQueueManager.QueueState(cw));
        assignLeaves(st, stateRd);
        when(stateFwd, () -> assignLeaves(st, wrWord));

        // ---- op registers (the op in progress, after its first chunk) -------------------------
        UInt bLen = reg("b_len", uint(13)).init(0);
        UInt bOps = reg("b_ops", uint(12)).init(0);
        UInt bBeats = reg("b_beats", uint(12)).init(0);
        UInt bFirst = reg("b_first", uint(cw)).init(0);
        Bool bWaiting = reg("b_waiting", bool()).init(false);
        UInt oTail = reg("o_tail", uint(cw)).init(0);
        UInt oFill = reg("o_fill", uint(lb)).init(0);
        Bool oHas = reg("o_has", bool()).init(false);
        Bool oRefused = reg("o_refused", bool()).init(false);

        Bool chunkIn = r.rValid.andNot(r.rFlush).named("chunk_in");
        Bool isFirst = r.rFirst;
        occupancy = new DestOccupancy(g, r.destReadD, r.rDest, destLimit, clearing, clr);
        // An op refused for its destination (out of range or over its limit) commits nothing.
        // An out-of-range destination is known at the load (r_bad) and the op writes nothing.
        // The limit verdict (a compare of RAM counts) never feeds the packer's decisions in the
        // cycle it is computed (timing, issue 13): while fewer cells are in use than any
        // destination may hold (dest_limit_clear, a register) every op is admitted at once;
        // otherwise an op's first chunk waits one cycle in R (need_verdict) while its verdict is
        // computed into verdict_refuse, and goes on with that register. A refused op's chunks are
        // packed as usual and rolled back at its end like an aborted one (cells kept as spares).
        Bool limitClear = wire("dest_limit_clear", bool());
        Bool verdictDone = reg("verdict_done", bool()).init(false);
        Bool verdictRefuse = reg("verdict_refuse", bool()).init(false);
        Bool needVerdict = chunkIn.and(isFirst).andNot(limitClear).andNot(verdictDone).named("need_verdict");
        when(needVerdict, () -> verdictRefuse.set(occupancy.overLimit));
        Bool refusedEarly = mux(isFirst, r.rBad, oRefused).named("refused_early");
        Bool refusedFirst = isFirst.and(verdictDone).and(verdictRefuse).named("refused_first");
        Bool refused = refusedEarly.or(refusedFirst).named("refused");

        // ---- placement: fill offset, new cell ------------------------------------------------
        // the first chunk's compares on both candidate state words (the RAM's and the forwarded
        // write) in parallel, the forwarding choice after them: off the compares' path
        // A flush merged into the op's first chunk (r_merge, see PackerInput; r_room is 0 then)
        // closes the open PDU like the pack limit; with no open PDU it clears waiting, as a flush
        // on its own would.
        Bool closeBefore = mux(stateFwd, wrWord.closesBefore(r.rRoom), stateRd.closesBefore(r.rRoom))
                .named("close_before");
        Bool limitClose = chunkIn.and(isFirst).andNot(refusedEarly).and(closeBefore).named("limit_close");
        UInt baseLen = mux(isFirst, mux(limitClose, U(0, 13), st.len), bLen).named("base_len");
        UInt baseOps = mux(isFirst, mux(limitClose, U(0, 12), st.ops), bOps).named("base_ops");
        UInt baseBeats = mux(isFirst, mux(limitClose, U(0, 12), st.beats), bBeats).named("base_beats");
        UInt baseFirst = mux(isFirst, st.first, bFirst).named("base_first");
        Bool baseWaiting = mux(isFirst, st.waiting.andNot(r.rMerge).or(limitClose), bWaiting).named("base_waiting");
        UInt f = mux(isFirst, baseLen.resize(lb), oFill).named("fill");
        Bool has = mux(isFirst, baseLen.ne(0), oHas).named("has_cell");
        UInt tail = mux(isFirst, st.tail, oTail).named("tail");
        // fill + n added for each candidate fill (the state word's length, read or forwarded; the
        // open op's fill; 0 after a limit close), the choices after the adds. Depth: added after
        // the fill mux, close_before -> limit_close -> base_len -> fill -> the adder's carry chain
        // -> o_fill / cwr_end mapped in 8.5 levels in the whole endpoint at 256 bits
        UInt fPlusN = opTotal(isFirst, limitClose, stateFwd, fillOf(wrWord.len, lb), fillOf(stateRd.len, lb),
                fillOf(oFill, lb), r.rN.resize(lb + 2)).named("fill_plus_n");
        Bool active = chunkIn.andNot(refusedEarly).andNot(r.rAbort).named("chunk_active");
        // New cells: A (parity opposite to the tail's) at fill 0 or when the chunk crosses a cell
        // boundary, B (the tail's parity) after A when the chunk also fills A (a wide chunk at
        // fill 0, or fill + n > 2B): links tail -> A (with an open cell) and A -> B, and the
        // chunk's cells alternate parity, as the cell buffer's two banks need. For a first chunk
        // from each state word's own compares (a limit close starts at fill 0), the forwarding
        // choice after them, not through the fill mux (timing)
        Bool stateNeedA = mux(stateFwd, wrWord.needsCell(r.rRoom, r.rNMinus1, bpb),
                stateRd.needsCell(r.rRoom, r.rNMinus1, bpb)).named("state_need_a");
        Bool stateNeedB = mux(stateFwd, wrWord.needsSecondCell(r.rRoom, r.rNMinus1, r.rWide, bpb),
                stateRd.needsSecondCell(r.rRoom, r.rNMinus1, r.rWide, bpb)).named("state_need_b");
        UInt openSum = TxQueueManager.QueueState.crossSum(oFill, r.rNMinus1).named("open_cross_sum");
        Bool openAtZero = oFill.eq(0);
        Bool openNeedA = openAtZero.or(openSum.bit(lb)).or(openSum.bit(lb + 1));
        Bool openNeedB = mux(openAtZero, r.rWide, openSum.bit(lb + 1));
        Bool needA = active.and(mux(isFirst, stateNeedA, openNeedA)).named("need_a");
        Bool needB = active.and(mux(isFirst, stateNeedB, openNeedB)).named("need_b");
        // the new cells come from one source per parity (the allocator of that parity's cells and
        // its spare list); a chunk waits until both have a cell (from registers, see pTake)
        CellAllocator[] allocs = {alloc0, alloc1};
        for (int p = 0; p < 2; p++) {
            cells[p] = new CellSource(g, p, allocs[p]);
        }
        UInt heldCells = cells[0].held.resize(g.dw()).add(cells[1].held.resize(g.dw())).named("held_cells");
        // (summed into a register: four counts and the compare are too deep for one cycle)
        freeOrHeldQ = reg("free_or_held_q", uint(g.dw())).init(g.cells());
        freeOrHeldQ.set(alloc0.freeCount.resize(g.dw()).add(alloc1.freeCount.resize(g.dw())).add(heldCells)
                .named("free_or_held"));
        limitClear.set(occupancy.allClear(freeOrHeldQ));
        Bool tailOdd = tail.bit(0);
        UInt cellA = mux(tailOdd, cells[0].cell, cells[1].cell).named("new_cell_a");
        UInt cellB = mux(tailOdd, cells[1].cell, cells[0].cell).named("new_cell_b");
        Bool newOk = cells[0].ok.and(cells[1].ok);
        Bool pTake = r.pTake;

        closeFifo = instance("close_fifo",
                () -> new StreamFifo<>(() -> new ClosedPdu(qw, cw), 4, FifoStorage.REGISTERS, 4));
        Bool closeRoom = closeFifo.s.ready;
        // A chunk waits while no new cell is at hand even if it needs none: the stall then
        // depends on registers only, not on the fill arithmetic (timing). Flushes never wait
        // (they close PDUs, which is how cells come back).
        pTake.set(r.rValid.and(closeRoom).andNot(clearing).and(r.rFlush.or(newOk)).andNot(needVerdict));
        when(pTake, () -> verdictDone.set(false)).elseWhen(needVerdict, () -> verdictDone.set(true));
        chunkTaken = chunkIn.and(pTake);

        // the cell buffer writes the chunk a cycle later, from registers: c0 (A at fill 0, else
        // the tail), c1, c2
        Bool atZero = f.eq(0).named("fill_zero");
        UInt c0 = mux(atZero, cellA, tail).named("chunk_c0");
        UInt c1 = mux(atZero, cellB, cellA).named("chunk_c1");
        Bool chunkWrite = active.and(pTake).named("chunk_write");
        cellBuf = new CellBuffer(g.cells(), bpb, chunkWrite, c0, c1, cellB, f, fPlusN, r.rData);
        links.write(needA.and(has).and(pTake).named("link_a"), tail, cellA, needB.and(pTake).named("link_b"), cellB);

        // ---- the op's end: commit or roll back ---------------------------------------------
        UInt newFirst = mux(has.not().and(needA), cellA, baseFirst).named("new_first");
        UInt newTail = mux(needB, cellB, mux(needA, cellA, tail)).named("new_tail");
        UInt newFill = fPlusN.resize(lb).named("new_fill");
        Bool lastChunk = chunkIn.and(pTake).and(r.rLast).named("last_chunk");
        Bool commit = lastChunk.andNot(r.rAbort).andNot(refused).named("commit_op");
        abortOp = lastChunk.and(r.rAbort).andNot(refused).named("abort_op");
        refuseDone = lastChunk.and(refused).andNot(r.rAbort).named("refuse_done");
        // an op that does not commit hands the cells it took back to the spare list
        Bool rollback = lastChunk.and(r.rAbort.or(refused)).named("rollback");
        // the op's totals summed on every candidate base in parallel (RAM word, forwarded word,
        // op registers; 0 after a limit close), the choice after the adders (timing, issue 13)
        UInt kLen = opTotal(isFirst, limitClose, stateFwd, wrWord.len, stateRd.len, bLen, r.rTotal.resize(13))
                .named("op_len");
        UInt kOps = opTotal(isFirst, limitClose, stateFwd, wrWord.ops, stateRd.ops, bOps, U(1, 12)).named("op_ops");
        UInt kBeats = opTotal(isFirst, limitClose, stateFwd, wrWord.beats, stateRd.beats, bBeats, r.rBeats.resize(12))
                .named("op_beats");
        when(chunkIn.and(pTake), () -> {
            bLen.set(baseLen);
            bOps.set(baseOps);
            bBeats.set(baseBeats);
            bFirst.set(newFirst);
            bWaiting.set(baseWaiting);
            oTail.set(newTail);
            oFill.set(newFill);
            oHas.set(has.or(needA));
            oRefused.set(refused);
        });
        kQ = r.rQ;
        UInt kFirst = newFirst;
        Bool closingCommit = commit.andNot(baseWaiting).named("closing_commit");
        Bool kClose = closingCommit.named("commit_close");

        // ---- idle bypass: the closed PDU goes straight to the reader (bypass_ok from the reader)
        bypass = wire("bypass", bool());
        bypassOk = wire("bypass_ok", bool());
        bpValid = reg("bypass_valid", bool()).init(false);
        bpQ = reg("bypass_q", uint(qw)).init(0);
        bpFirst = reg("bypass_first", uint(cw)).init(0);
        bpLen = reg("bypass_len", uint(13)).init(0);
        bpOps = reg("bypass_ops", uint(12)).init(0);
        bpBeats = reg("bypass_beats", uint(12)).init(0);
        // The bypassed PDU starts in the cycle after its close, from registers: the close logic
        // (state forwarding -> fill -> commit) and the reader (-> desc -> transmit reliability)
        // are then two register-to-register paths instead of one. Nothing else can start in
        // between: reader_idle held in the close cycle and excludes a pending bypass.
        bypass.set(kClose.and(bypassOk));
        when(bypass, () -> {
            bpQ.set(kQ);
            bpFirst.set(kFirst);
            bpLen.set(kLen);
            bpOps.set(kOps);
            bpBeats.set(kBeats);
        });
        bpValid.set(bypass);

        // ---- state write ------------------------------------------------------------------------
        Bool flushCmd = r.rValid.and(r.rFlush).and(pTake).named("flush_cmd");
        Bool flushClose = flushCmd.and(st.len.ne(0)).named("flush_close");
        // (a merged flush is written at the op's first chunk whatever becomes of the op)
        Bool firstWrite = chunkIn.and(pTake).and(isFirst).and(limitClose.or(r.rMerge)).named("first_write");
        Bool stWrite = commit.or(flushCmd).or(firstWrite.andNot(commit)).named("state_write");
        // (a flush of a queue without an open PDU only clears waiting, merged or not)
        TxQueueManager.QueueState stWord = wire("state_word", new TxQueueManager.QueueState(cw));
        UInt lastCell = mux(clearing, clr.resize(cw), mux(commit, newTail, st.tail)).named("state_last_cell");
        when(clearing.or(commit.and(closingCommit).and(bypassOk)), () -> stWord.setNoPdu(false, lastCell))
                .elseWhen(commit.andNot(closingCommit), () -> stWord.set(TRUE, kFirst, newTail, kLen, kOps, kBeats))
                .elseWhen(commit.or(flushClose).or(limitClose), () -> stWord.setNoPdu(true, lastCell))
                .otherwise(() -> stWord.set(FALSE, st.first, st.tail, st.len, st.ops, st.beats));
        stateRam.write(mux(clearing, clr.resize(qw), r.rQ), stWord, clearing.or(stWrite));
        wrValid.set(stWrite.or(clearing));
        assignLeaves(wrWord, stWord);

        // ---- close event (at most one per cycle): commit close, limit close, flush close ------
        closeEv = kClose.or(limitClose.and(pTake)).or(flushClose).named("close_ev");
        UInt evFirst = mux(kClose, kFirst, st.first).named("close_first");
        UInt evLen = mux(kClose, kLen, st.len);
        TxQueueManager.PduInfo evInfo = wire("close_info", new TxQueueManager.PduInfo());
        evInfo.len.set(evLen);
        evInfo.ops.set(mux(kClose, kOps, st.ops));
        evInfo.beats.set(mux(kClose, kBeats, st.beats));
        pduInfo.write(evFirst, evInfo, closeEv);
        closeFifo.s.valid.set(closeEv.andNot(bypass));
        closeFifo.s.payload.queue.set(kQ);
        closeFifo.s.payload.cell.set(evFirst);
        assertThat(closeEv.not().or(closeRoom), "close FIFO overflow");
        assertThat(kClose.and(limitClose.and(pTake).or(flushClose)).not(), "two PDU closes in one cycle");
        assertThat(closeEv.not().or(evLen.ne(0)), "closing an empty PDU");
        assertThat(closeEv.not().or(evLen.le(4096)), "PDU longer than 4096 bytes");

        Bool takeA = needA.and(pTake).named("cell_take_a");
        Bool takeB = needB.and(pTake).named("cell_take_b");
        cells[0].update(mux(tailOdd, takeA, takeB), commit, rollback);
        cells[1].update(mux(tailOdd, takeB, takeA), commit, rollback);
        UInt used = cells[0].spare.used.resize(g.dw()).add(cells[1].spare.used.resize(g.dw())).named("op_cells_used");
        occupancy.commit(commit, r.rDest, isFirst, chunkIn.and(pTake).and(isFirst), used, takeA, takeB);
    }

    /** base + add, base = the first chunk's state word (forwarded or read; 0 after a limit close) or the op's register. */
    private static UInt opTotal(Bool isFirst, Bool limitClose, Bool stateFwd, UInt fwd, UInt read, UInt opReg, UInt add) {
        UInt fromState = mux(stateFwd, fwd.add(add), read.add(add));
        return mux(isFirst, mux(limitClose, add, fromState), opReg.add(add));
    }

    /** A length's offset in its cell (its low {@code lb} bits), two bits wider for fill + n. */
    private static UInt fillOf(UInt len, int lb) {
        return len.resize(lb).resize(lb + 2);
    }
}
