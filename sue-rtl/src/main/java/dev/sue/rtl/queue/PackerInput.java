// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.rtl.xpu.XpuTxOp;

/**
 * The packer's input register R (a stage of {@link TxQueueManager}): holds one formatted chunk
 * of an op ({@link OpFormatter}) or one flush from the reader for the {@link Packer}, and chooses
 * the queue whose state word and the destination whose counts are read in the same cycle (so
 * the packer finds them in the RAMs' read registers).
 */
final class PackerInput {
    /** Set by the packer: it takes R's content this cycle. */
    final Bool pTake;
    final Bool rValid;
    /** R holds a flush of queue {@link #rQ} (else a chunk). */
    final Bool rFlush;
    /** R holds an op's first chunk with a flush of its own queue merged into it (closes the open PDU first). */
    final Bool rMerge;
    final UInt rQ;
    final UInt rDest;
    final UInt rVc;
    /** R's destination was loaded in the cycle before (from {@link #inDest}); else it was held. */
    final Bool rDestFresh;
    /** The destination of the op beat offered on the input (meaningful on its first chunk). */
    final UInt inDest;
    /** The op's destination is out of range. */
    final Bool rBad;
    final Bits rData;
    /** The chunk's bytes. */
    final UInt rN;
    /** {@link #rN} - 1 ({@code log2(B) + 1} bits): the cell-crossing carries use it. */
    final UInt rNMinus1;
    /** The chunk has more than B bytes (it fills a new cell and spills into the next). */
    final Bool rWide;
    final Bool rFirst;
    final Bool rLast;
    final Bool rAbort;
    final UInt rTotal;
    /** The open PDU's length above which this op does not fit: effective limit - op length (0: a flush is merged). */
    final UInt rRoom;
    /** The op's {@code tx_data} beats. */
    final UInt rBeats;
    /** The queue whose state word is read this cycle. */
    final UInt stateReadQ;
    /** The destination whose occupancy counts are read this cycle. */
    final UInt destReadD;

    /**
     * @param mergeRoom a flush may wait for a merge: the buffer has room (a register; near full,
     *     flushes go at once, as the cells of the open PDUs come back only once they are read)
     */
    PackerInput(QueueGeometry g, Stream<XpuTxOp> s, OpFormatter fmt, StreamFifo<UInt> flushFifo, UInt effLimit,
            Bool mergeRoom) {
        final int xw = g.xw();
        final int qw = g.qw();
        final int lb = g.lb();
        XpuTxOp in = s.payload;
        Bool fInOp = fmt.inOp;
        Bool fFirst = fmt.first;
        Bool fValid = fmt.valid;
        Bool inBad = g.xpus() == 1024 ? FALSE : in.dest.ge(g.xpus());
        inDest = in.dest.resize(xw);
        UInt inQ = g.queueOf(inDest, in.vc);
        UInt dataBeats = in.dataLen.add(g.bytes() - 1).shr(lb).resize(4).named("data_beats");

        rValid = reg("r_valid", bool()).init(false);
        rFlush = reg("r_flush", bool()).init(false);
        rMerge = reg("r_merge", bool()).init(false);
        rQ = reg("r_q", uint(qw)).init(0);
        rDest = reg("r_dest", uint(xw)).init(0);
        rVc = reg("r_vc", uint(2)).init(0);
        rBad = reg("r_bad", bool()).init(false);
        rData = reg("r_data", bits(fmt.chunk.width()));
        rN = reg("r_n", uint(lb + 1)).init(0);
        rNMinus1 = reg("r_n_minus_1", uint(lb + 1)).init(0);
        rWide = reg("r_wide", bool()).init(false);
        rFirst = reg("r_first", bool()).init(false);
        rLast = reg("r_last", bool()).init(false);
        rAbort = reg("r_abort", bool()).init(false);
        rTotal = reg("r_total", uint(9)).init(0);
        rRoom = reg("r_room", uint(13)).init(0);
        rBeats = reg("r_beats", uint(4)).init(0);
        pTake = wire("p_take", bool());
        Bool rFree = rValid.not().or(pTake).named("r_free");
        // A flush is taken between ops, or between two beats of an op of another queue (the op in
        // progress keeps its state in the packer's op registers; its beats carry dest/vc again). A flush of the op's own queue
        // moves aside into `flush_held` (one entry: only one op is in progress; two flushes of
        // one queue merge, the merged one still closes the open PDU and the PDU it closes brings
        // the next flush) and is taken first at the op's end. So an XPU pausing in the middle of
        // an op delays only its own queue.
        UInt fOpQ = reg("f_op_q", uint(qw)).init(0);
        Bool heldValid = reg("flush_held", bool()).init(false);
        UInt heldQ = reg("flush_held_q", uint(qw)).init(0);
        Bool atBoundary = fInOp.not().named("at_boundary");
        Bool midOp = fInOp;
        Bool headOwn = flushFifo.m.payload.eq(fOpQ).named("flush_head_own");
        Bool takeHeld = heldValid.and(atBoundary).named("flush_take_held");
        Bool setAside = flushFifo.m.valid.and(midOp).and(headOwn).named("flush_set_aside");
        assertThat(heldValid.not().or(heldQ.eq(fOpQ)).or(atBoundary), "held flush of another queue");
        // A flush costs R a cycle of its own, and one comes per PDU: with small PDUs (a fast MAC)
        // that capped the op rate (0.78 ops per cycle at 1024 bits). So a flush of the FIFO rides
        // on the first chunk of the next op of its queue when one comes (r_merge: the packer
        // closes the open PDU before the op, as for the pack limit), and takes R on its own only
        // when no chunk is offered, after FLUSH_MERGE_WAIT cycles at the FIFO head, or at once
        // when more flushes queue behind it than FLUSH_MERGE_BEHIND allows at this width (so waits
        // add up to a bound) or under a quarter of the buffer is free (merge_room: a filling buffer
        // means the reader, not the input, is the bottleneck, and a stalled chunk would hold the
        // flush in the FIFO).
        int mergeBehind = g.bytes() >= 64 ? TxQueueManager.FLUSH_MERGE_BEHIND : 0;
        Bool fifoFlushOk = atBoundary.andNot(heldValid).or(midOp.andNot(headOwn)).named("flush_ok");
        UInt flushAge = reg("flush_age", uint(log2Up(TxQueueManager.FLUSH_MERGE_WAIT + 1))).init(0);
        Bool flushDue = fValid.not().or(flushAge.eq(TxQueueManager.FLUSH_MERGE_WAIT)).or(mergeRoom.not())
                .or(flushFifo.occupancy.gt(mergeBehind + 1)).named("flush_due");
        // (a due flush loads on its own even when it could merge: the queue compare then stays off
        // the load decision, which addresses the state and destination RAMs)
        Bool merge = rFree.and(fValid).and(atBoundary).andNot(heldValid).and(flushFifo.m.valid).andNot(flushDue)
                .and(flushFifo.m.payload.eq(inQ)).andNot(inBad).named("flush_merge");
        Bool loadFifoFlush = rFree.and(fifoFlushOk).and(flushFifo.m.valid).and(flushDue).named("load_fifo_flush");
        Bool loadFlush = rFree.and(takeHeld).or(loadFifoFlush).named("load_flush");
        UInt flushQ = mux(takeHeld, heldQ, flushFifo.m.payload).named("flush_q");
        Bool loadChunk = rFree.and(fValid).andNot(loadFlush).named("load_chunk");
        flushFifo.m.ready.set(loadFifoFlush.or(setAside).or(merge));
        when(flushFifo.m.ready.or(flushFifo.m.valid.not()), () -> flushAge.set(0))
                .elseWhen(flushAge.ne(TxQueueManager.FLUSH_MERGE_WAIT), () -> flushAge.set(flushAge.add(1)));
        when(setAside, () -> {
            heldValid.set(true);
            heldQ.set(flushFifo.m.payload);
        }).elseWhen(rFree.and(takeHeld), () -> heldValid.set(false));
        s.ready.set(rFree.andNot(loadFlush));
        fmt.advance(loadChunk);
        when(loadChunk.and(fFirst), () -> fOpQ.set(inQ));
        when(rFree, () -> rValid.set(loadChunk.or(loadFlush)));
        when(loadFlush, () -> {
            rFlush.set(true);
            rMerge.set(false);
            rQ.set(flushQ);
            rBad.set(false);
            rFirst.set(false);
            rLast.set(false);
            rAbort.set(false);
        });
        when(loadChunk, () -> {
            rFlush.set(false);
            rMerge.set(merge);
            rQ.set(inQ);
            rDest.set(inDest);
            rVc.set(in.vc);
            rBad.set(inBad);
            rTotal.set(in.totalLen);
            // (0 with a merged flush: any open PDU closes before the op)
            rRoom.set(mux(merge, U(0, 13), effLimit.sub(in.totalLen.resize(13))));
            rBeats.set(dataBeats);
            rData.set(fmt.chunk);
            rN.set(fmt.n);
            rNMinus1.set(fmt.nMinus1);
            rWide.set(fmt.wide);
            rFirst.set(fFirst);
            rLast.set(fmt.last);
            rAbort.set(fmt.abort);
        });
        stateReadQ = mux(loadFlush, flushQ, mux(loadChunk, inQ, rQ)).named("state_rd_q");
        destReadD = mux(loadChunk, inDest, rDest).named("dest_rd_d");
        rDestFresh = reg("r_dest_fresh", bool()).init(false);
        rDestFresh.set(loadChunk);
    }
}
