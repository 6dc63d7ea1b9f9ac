// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Stream;

/**
 * The queue manager's packer (a stage of {@link TxQueueManager}): takes R's chunk or flush
 * ({@link PackerInput}) and the queue's state word (one sync RAM {@code q_state}, one-deep
 * forwarding), decides the chunk's fill offset and cell (a new cell from {@link SpareCells} or
 * the allocator, linked in {@code cell_next}), hands it to the {@link CellBuffer}, commits or
 * rolls back the op at its last chunk (refused by {@link DestOccupancy} or the range check,
 * aborted), and closes PDUs (op end with nothing waiting, early close, pack limit, flush): a
 * closed PDU's info goes to {@code pdu_info}, the PDU to the close FIFO or, through the idle
 * bypass registers, straight to the reader.
 */
final class Packer {
    /** Closed PDUs for the list engine. */
    final StreamFifo<ClosedPdu> closeFifo;
    final CellBuffer cellBuf;
    final SpareCells spare;
    final DestOccupancy occupancy;
    /** R's chunk is taken this cycle. */
    final Bool chunkTaken;
    /** Allocated cells waiting for the packer (free cells, for {@code free_cells}). */
    final UInt heldCells;
    /** The cell a chunk that needs one takes this cycle. */
    final UInt newCell;
    /** The open op's tail cell. */
    final UInt oTail;
    /** The op in progress closed its PDU early (its extra chunk is still to come), first cell {@link #oEarlyFirst}. */
    final Bool oEarly;
    final UInt oEarlyFirst;
    /** The link written to {@code cell_next} in the cycle before (for the reader's forwarding). */
    final Bool nwValid;
    final UInt nwAddr;
    final UInt nwData;
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

    Packer(QueueGeometry g, PackerInput r, CellAllocator alloc, Mem<Bits> cellNext,
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
        oTail = reg("o_tail", uint(cw)).init(0);
        UInt oFill = reg("o_fill", uint(lb)).init(0);
        Bool oHas = reg("o_has", bool()).init(false);
        Bool oRefused = reg("o_refused", bool()).init(false);
        spare = new SpareCells(g);

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
        UInt fPlusN = f.resize(lb + 1).add(r.rN).named("fill_plus_n");
        // overflow = f != 0 and f + n > B, from the state word and from the op registers in parallel
        Bool ovState = mux(stateFwd, wrWord.crosses(r.rNMinus1, bpb), stateRd.crosses(r.rNMinus1, bpb))
                .named("overflow_state");
        Bool ovOpen = TxQueueManager.QueueState.crossing(oFill, r.rNMinus1).named("overflow_open");
        Bool overflow = mux(isFirst, limitClose.not().and(ovState), ovOpen).named("overflow");
        Bool active = chunkIn.andNot(refusedEarly).andNot(r.rAbort).named("chunk_active");
        // a new cell at fill 0 or when the chunk crosses one; for a first chunk from each state
        // word's own compares (a limit close starts at fill 0), the forwarding choice after them,
        // not through the fill mux (timing)
        Bool stateNeedsCell = mux(stateFwd, wrWord.needsCell(r.rRoom, r.rNMinus1, bpb),
                stateRd.needsCell(r.rRoom, r.rNMinus1, bpb))
                .named("state_needs_cell");
        Bool needNew = active.and(mux(isFirst, stateNeedsCell, oFill.eq(0).or(ovOpen))).named("need_new");
        // Two allocated cells wait in registers: whether the packer takes one is known late (fill
        // arithmetic), and it then only moves this small queue; the allocator's counters and free
        // FIFO see a ready from registers (timing, issue 13). The cells held here count as free
        // in free_cells (heldCells).
        StreamFifo<UInt> cellQueue = instance("cell_prefetch",
                () -> new StreamFifo<>(() -> uint(cw), 2, FifoStorage.REGISTERS, 2));
        cellQueue.s.connectFrom(alloc.alloc);
        heldCells = cellQueue.occupancy;
        limitClear.set(occupancy.allClear(alloc.freeCount, heldCells));
        Stream<UInt> fresh = cellQueue.m;
        newCell = mux(spare.fromSpare, spare.cell, fresh.payload).named("new_cell");
        Bool newOk = spare.fromSpare.or(fresh.valid);
        Bool pTake = r.pTake;
        fresh.ready.set(needNew.andNot(spare.fromSpare).and(pTake));

        closeFifo = instance("close_fifo",
                () -> new StreamFifo<>(() -> new ClosedPdu(qw, cw), 4, FifoStorage.REGISTERS, 4));
        Bool closeRoom = closeFifo.s.ready;
        // A chunk waits while no new cell is at hand even if it needs none: the stall then
        // depends on registers only, not on the fill arithmetic (timing). Flushes never wait
        // (they close PDUs, which is how cells come back).
        pTake.set(r.rValid.and(closeRoom).andNot(clearing).and(r.rFlush.or(newOk)).andNot(needVerdict));
        when(pTake, () -> verdictDone.set(false)).elseWhen(needVerdict, () -> verdictDone.set(true));
        chunkTaken = chunkIn.and(pTake);

        // the cell buffer writes the chunk a cycle later, from registers
        UInt chunkAddr = mux(f.eq(0), newCell, tail).named("chunk_addr");
        Bool chunkWrite = active.and(pTake).named("chunk_write");
        cellBuf = new CellBuffer(g.cells(), bpb, chunkWrite, chunkAddr, newCell, f, fPlusN, r.rData);
        Bool nextWrEn = needNew.and(has).and(pTake).named("next_wr_en");
        cellNext.write(tail, newCell.asBits(), nextWrEn);
        nwValid = reg("nw_valid", bool()).init(false);
        nwAddr = reg("nw_addr", uint(cw)).init(0);
        nwData = reg("nw_data", uint(cw)).init(0);
        nwValid.set(nextWrEn);
        nwAddr.set(tail);
        nwData.set(newCell);

        // ---- the op's end: commit or roll back ---------------------------------------------
        UInt newFirst = mux(has.not().and(needNew), newCell, baseFirst).named("new_first");
        UInt newTail = mux(needNew, newCell, tail).named("new_tail");
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
            oHas.set(has.or(needNew));
            oRefused.set(refused);
        });
        kQ = r.rQ;
        UInt kFirst = newFirst;
        // Early close: an op whose control bytes push its tail one chunk past its data beats
        // closes its PDU (when nothing waits in its queue) at its last data beat, one cycle
        // before that extra chunk is written, so it leaves as early as any other op. Its length
        // is known (the op's total length), the PDU started at fill 0 (a queue with nothing
        // waiting has no open PDU), so the extra chunk fills a cell of its own, written and
        // linked in the next chunk cycle (written by the cell writer one cycle later); the reader
        // does not read that last cell before then (see reader_hold). The commit (state, cell accounting) stays at the extra chunk.
        // The reader may then wait for that extra cell, so an early close needs the cell to be
        // certain: with the buffer full (cells held for replay until the peer's ACK) the reader
        // would stop in the middle of a frame, the framer with it, and with it every ACK this
        // side owes its peer, whose own buffer may wait on those ACKs: a possible deadlock (not
        // seen in simulation; the guard costs a cycle only with under four free cells). Four free
        // cells leave two allocatable this cycle and the next (at most one free per cycle is
        // still in the allocator's two-cycle reuse delay; only the packer allocates).
        // (the allocator's count a cycle ago, a register: at most one cell left since)
        Bool extraCellSure = reg("extra_cell_sure", bool()).init(false);
        extraCellSure.set(alloc.freeCount.ge(TxQueueManager.EARLY_CLOSE_FREE_CELLS));
        Bool earlyClose = chunkIn.and(pTake).and(r.rEarly).andNot(refused).andNot(r.rAbort).andNot(baseWaiting)
                .and(extraCellSure).named("early_close");
        oEarly = reg("o_early", bool()).init(false);
        Bool oEarlyBypass = reg("o_early_bypass", bool()).init(false);
        oEarlyFirst = reg("o_early_first", uint(cw)).init(0);
        Bool closingCommit = commit.andNot(baseWaiting).named("closing_commit");
        Bool kClose = closingCommit.andNot(oEarly).or(earlyClose).named("commit_close");
        assertThat(oEarly.not().or(chunkIn.and(pTake).not()).or(r.rLast.and(needNew).andNot(overflow)),
                "early-closed op: the next chunk is not its one-cell tail");

        // ---- idle bypass: the closed PDU goes straight to the reader (bypass_ok from the reader)
        bypass = wire("bypass", bool());
        bypassOk = wire("bypass_ok", bool());
        bpValid = reg("bypass_valid", bool()).init(false);
        bpQ = reg("bypass_q", uint(qw)).init(0);
        bpFirst = reg("bypass_first", uint(cw)).init(0);
        bpLen = reg("bypass_len", uint(13)).init(0);
        bpOps = reg("bypass_ops", uint(12)).init(0);
        bpBeats = reg("bypass_beats", uint(12)).init(0);
        when(earlyClose, () -> {
            oEarly.set(true);
            oEarlyBypass.set(bypass);
            oEarlyFirst.set(newFirst);
        }).elseWhen(commit, () -> oEarly.set(false));
        // (used only by a closing commit, where bypass = bypass_ok unless the PDU closed early)
        Bool closedBypass = mux(oEarly, oEarlyBypass, bypassOk).named("closed_bypass");
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
        when(clearing.or(commit.and(closingCommit).and(closedBypass)), () -> stWord.setNoPdu(false))
                .elseWhen(commit.andNot(closingCommit), () -> stWord.set(TRUE, kFirst, newTail, kLen, kOps, kBeats))
                .elseWhen(commit.or(flushClose).or(limitClose), () -> stWord.setNoPdu(true))
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

        Bool take = needNew.and(pTake).named("cell_take");
        spare.update(take, fresh.payload, commit, rollback);
        occupancy.commit(commit, r.rDest, isFirst, chunkIn.and(pTake).and(isFirst), spare, take);
    }

    /** base + add, base = the first chunk's state word (forwarded or read; 0 after a limit close) or the op's register. */
    private static UInt opTotal(Bool isFirst, Bool limitClose, Bool stateFwd, UInt fwd, UInt read, UInt opReg, UInt add) {
        UInt fromState = mux(stateFwd, fwd.add(add), read.add(add));
        return mux(isFirst, mux(limitClose, add, fromState), opReg.add(add));
    }
}
