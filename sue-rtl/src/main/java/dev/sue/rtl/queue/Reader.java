// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.ByteMask;
import dev.sue.rtl.pdu.PduBeats;
import dev.sue.rtl.pdu.ReplayReq;
import dev.sue.rtl.pdu.TxPdu;

/**
 * The queue manager's reader (a stage of {@link TxQueueManager}): starts a PDU from a replay
 * request, the idle bypass or the prefetch FIFO (in that priority), then reads one cell per cycle
 * following the cell next-pointer RAM (no bubble between PDUs), masks the last beat and pushes
 * the beats and the PDU's desc into the data and desc FIFOs that drive the outputs. It also
 * sends the packer its flushes (when the last waiting PDU of a queue starts, or at its pop with
 * little work ahead) and decides the idle bypass.
 */
final class Reader {
    /** A cell is read this cycle (address {@link #rdAddr}). */
    final Bool issue;
    final UInt rdAddr;
    /** This cycle's read is a PDU's last cell. */
    final Bool issueLast;
    /** A PDU starts this cycle (its first cell is read). */
    final Bool startIssue;
    /** The destination of the PDU read this cycle. */
    final UInt readDest;
    /** The PDU read this cycle: VC, ops and data beats (its credits). */
    final UInt pduVc;
    final UInt pduOps;
    final UInt pduBeats;
    /** The ops of the PDU starting this cycle. */
    final UInt startOps;
    final UInt startLen;

    Reader(QueueGeometry g, PackerInput in, Packer p, ListEngine le, StreamFifo<ClosedPdu> closeFifo, StreamFifo<UInt> flushFifo,
            CellLinks cellNext, CellBuffer cellBuf, Stream<ReplayReq> replay, boolean replayStore,
            Stream<TxPdu> desc, Stream<PacketBeat> data, Bits vcPause, Bool initDone) {
        final int bpb = g.bytes();
        final int lb = g.lb();
        final int cw = g.cw();
        final int vw = g.vw();
        final int xw = g.xw();
        StreamFifo<PacketBeat> dataFifo = instance("data_fifo",
                () -> new StreamFifo<>(() -> new PacketBeat(g.dataWidth()), 4, FifoStorage.LUT_RAM, 4));
        StreamFifo<TxPdu> descFifo = instance("desc_fifo",
                () -> new StreamFifo<>(TxPdu::new, 4, FifoStorage.REGISTERS, 4));
        StreamFifo<TxQueueManager.PrefetchEntry> pf = le.prefetch;
        TxQueueManager.PrefetchEntry pfHead = pf.m.payload;
        UInt pfLen = pfHead.info.len;
        UInt eLeft = reg("e_left", uint(13 - lb + 1)).init(0);
        // e_left == 0 and == 1 as flags of their own: they start the issue decision (a compare of
        // the count there cost sue_tx 9 levels at 512 bits, e_left -> start -> x_len -> e_left)
        Bool eLeftZero = reg("e_left_zero", bool()).init(true);
        Bool eLeftOne = reg("e_left_one", bool()).init(false);
        UInt eLast = reg("e_last_bytes", uint(lb)).init(0);
        UInt eVc = reg("e_vc", uint(2)).init(0);
        UInt eOps = reg("e_ops", uint(12)).init(0);
        UInt eBeats = reg("e_beats", uint(12)).init(0);
        Bool rdValid = reg("rd_valid", bool()).init(false);
        Bool rdLast = reg("rd_last", bool()).init(false);
        UInt rdBytes = reg("rd_last_bytes", uint(lb)).init(0);
        // room for a beat read now once this cycle's beat (rd_valid) is in: occupancy + rd_valid <= 3,
        // as a 4-input function instead of an adder and a compare (it starts the issue decision)
        Bool canRead = mux(rdValid, dataFifo.occupancy.le(2), dataFifo.occupancy.le(3)).named("can_read");
        Bool contIssue = canRead.andNot(eLeftZero).named("cont_issue");
        // replay requests (replay store only) go before new PDUs
        Bool rpValid = replayStore ? replay.valid : FALSE;
        ReplayReq rp = replay.payload;
        Bool startRp = canRead.and(eLeftZero).and(rpValid).and(descFifo.s.ready).andNot(p.bpValid)
                .named("start_replay");
        replay.ready.set(startRp);
        Bool startPf = canRead.and(eLeftZero).and(pf.m.valid).and(descFifo.s.ready).andNot(rpValid).andNot(p.bpValid)
                .named("start_pf");
        // Idle bypass: a PDU closed at an op's end (its queue had nothing waiting) while the reader
        // and the lists are empty starts here in the close cycle, without append / grant / pop.
        // The queue's state is left empty and not waiting (no flush will come for it).
        // The window of R's destination, from registers: the wide bit select is made a cycle
        // ahead, on the destination offered at the input and on R's (timing, issue 13); a chunk
        // that can close a PDU is in R, so its destination is r_dest.
        Bool winOfInput = reg("bypass_win_in", bool()).init(false);
        Bool winOfR = reg("bypass_win_r", bool()).init(false);
        winOfInput.set(le.openNext(in.inDest));
        winOfR.set(le.openNext(in.rDest));
        Bool kWinOpen = mux(in.rDestFresh, winOfInput, winOfR).named("bypass_win");
        Bool kVcFree = vw == 0 ? vcPause.bit(0).not() : vcPause.bit(p.kQ.resize(vw)).not();
        Bool readerIdle = eLeftZero.and(pf.occupancy.eq(0)).and(le.inflight.eq(0)).andNot(le.infoValid)
                .and(closeFifo.occupancy.eq(0)).and(le.listPdus.eq(0)).and(canRead).and(descFifo.s.ready)
                .and(initDone).andNot(rpValid).andNot(p.bpValid).named("reader_idle");
        p.bypassOk.set(readerIdle.and(kWinOpen).and(kVcFree));
        startIssue = startPf.or(p.bpValid).or(startRp).named("start_issue");
        // The source of a new PDU's fields: a pending replay request goes first whenever one waits
        // (start_pf needs none), so its valid picks, not start_replay (which comes after the FIFO
        // levels: yosys shares the per-source adders after such a mux, data_fifo.count ->
        // start_replay -> x_len -> x_more_beats -> e_left mapped in 9 levels)
        UInt rpQ = g.queueOf(rp.dest.resize(xw), rp.vc);
        UInt xCell = mux(p.bpValid, p.bpFirst, mux(rpValid, rp.cell.resize(cw), pfHead.cell)).named("x_cell");
        UInt xLen = mux(p.bpValid, p.bpLen, mux(rpValid, rp.length, pfLen)).named("x_len");
        UInt xOps = mux(p.bpValid, p.bpOps, mux(rpValid, U(0, 12), pfHead.info.ops)).named("x_ops");
        UInt xBeats = mux(p.bpValid, p.bpBeats, mux(rpValid, U(0, 12), pfHead.info.beats)).named("x_beats");
        UInt xQ = mux(p.bpValid, p.bpQ, mux(rpValid, rpQ, pfHead.queue)).named("x_q");
        issue = contIssue.or(startIssue).named("issue");
        UInt nextRd = wire("next_rd", uint(cw));
        rdAddr = mux(contIssue, nextRd, xCell).named("rd_addr");
        UInt nextRdRam = cellNext.read("next_rd_ram", rdAddr, issue);
        UInt rdAddrQ = reg("rd_addr_q", uint(cw)).init(0);
        when(issue, () -> rdAddrQ.set(rdAddr));
        Bits cellRd = cellBuf.read(rdAddr, issue, rdAddrQ);
        // a link written in the cycle of the read (the packer writes up to two): the RAM read
        // missed it. The RAM's read register holds the stale pointer while the reader waits:
        // hold the hit too.
        Bool nwHit0 = rdValid.and(cellNext.lastValid[0]).and(cellNext.lastFrom[0].eq(rdAddrQ)).named("nw_hit_a");
        Bool nwHit1 = rdValid.and(cellNext.lastValid[1]).and(cellNext.lastFrom[1].eq(rdAddrQ)).named("nw_hit_b");
        Bool nwHit = nwHit0.or(nwHit1).named("nw_hit");
        UInt nwData = mux(nwHit1, cellNext.lastTo[1], cellNext.lastTo[0]).named("nw_data");
        Bool nwHeld = reg("nw_held", bool()).init(false);
        UInt nwHeldVal = reg("nw_held_val", uint(cw)).init(0);
        when(rdValid, () -> {
            nwHeld.set(nwHit);
            nwHeldVal.set(nwData);
        });
        nextRd.set(mux(nwHit, nwData, mux(rdValid.not().and(nwHeld), nwHeldVal, nextRdRam)));
        // beats after the first, and whether there are none, per source before the source mux
        // (the choice of the source comes late: reader state, FIFO levels)
        int lw = 13 - lb + 1;
        UInt xMoreBeats = mux(p.bpValid, moreBeats(p.bpLen, bpb, lw), mux(rpValid, moreBeats(rp.length, bpb, lw),
                moreBeats(pfLen, bpb, lw))).named("x_more_beats");
        // (the replay request and the prefetch entry carry their flags, tested as they were queued;
        // the bypass compares its register here: flags set at the close would follow the close's
        // length sum, op_len, already the deeper side of bypass_len)
        Bool xOneBeat = mux(p.bpValid, PduBeats.one(p.bpLen, bpb), mux(rpValid, rp.oneBeat, pfHead.oneBeat))
                .named("x_one_beat");
        Bool xTwoBeats = mux(p.bpValid, PduBeats.two(p.bpLen, bpb), mux(rpValid, rp.twoBeats, pfHead.twoBeats))
                .named("x_two_beats");
        pf.m.ready.set(startPf);
        // The queue's open PDU is flushed (closed) when the last waiting PDU of that queue starts
        // to be read, not when it is popped: it keeps packing ops while its predecessor waits in
        // the prefetch FIFO (wire efficiency under load). When the reader has less than
        // FLUSH_AHEAD_BEATS beats ahead of that PDU, the flush goes at the pop instead: the
        // flush -> close -> append -> grant -> pop loop would otherwise outlast the work ahead.
        int bw = 13 - lb + 1 + 3;
        UInt pfBeats = reg("pf_beats", uint(bw)).init(0);
        UInt infoBeats = le.infoRd.len.add(bpb - 1).shr(lb).resize(bw).named("info_beats");
        UInt pfHeadBeats = pfLen.add(bpb - 1).shr(lb).resize(bw).named("pf_head_beats");
        // a PDU started is taken off a cycle later (start_pf comes late, after the FIFO levels, and
        // yosys moves a choice between sums before a shared adder: 8.5 levels to pf_beats): the
        // count is then one PDU high for a cycle, which may only flush at a pop that could have
        // flushed at the start
        UInt pfStarted = reg("pf_started_beats", uint(bw)).init(0);
        pfStarted.set(mux(startPf, pfHeadBeats, U(0, bw)));
        pfBeats.set(pfBeats.add(mux(le.infoValid, infoBeats, U(0, bw))).sub(pfStarted));
        Bool flushAtStart = startPf.and(pfHead.lastOfQueue).named("flush_at_start");
        le.flushAtPop.set(le.infoValid.and(le.infoLastOfQueue).andNot(flushAtStart)
                .and(eLeft.resize(bw).add(pfBeats).lt(TxQueueManager.FLUSH_AHEAD_BEATS)));
        flushFifo.s.valid.set(flushAtStart.or(le.flushAtPop));
        flushFifo.s.payload.set(mux(flushAtStart, pfHead.queue, le.infoQ));
        assertThat(flushFifo.s.valid.not().or(flushFifo.s.ready), "flush FIFO overflow");
        TxPdu live = wire("desc_live", new TxPdu());
        live.dest.set(xQ.shr(vw).resize(10));
        live.vc.set(g.vcOf(xQ));
        live.length.set(xLen);
        live.cell.set(xCell.resize(16));
        live.ops.set(xOps);
        live.replay.set(startRp);
        live.psn.set(mux(startRp, rp.psn, U(0, 16)));
        assignLeaves(descFifo.s.payload, live);
        issueLast = mux(startIssue, xOneBeat, eLeftOne).named("issue_last");
        when(startIssue, () -> {
            eLeft.set(xMoreBeats);
            eLeftZero.set(xOneBeat);
            eLeftOne.set(xTwoBeats);
            eLast.set(xLen.resize(lb));
            eVc.set(g.vcOf(xQ));
            eOps.set(xOps);
            eBeats.set(xBeats);
        }).elseWhen(contIssue, () -> {
            eLeft.set(eLeft.sub(1));
            eLeftZero.set(eLeftOne);
            eLeftOne.set(eLeft.eq(2));
        });
        assertThat(eLeftZero.eq(eLeft.eq(0)).and(eLeftOne.eq(eLeft.eq(1))), "internal: e_left flags out of step");
        rdValid.set(issue);
        rdLast.set(issueLast);
        rdBytes.set(mux(startIssue, xLen.resize(lb), eLast));
        Bits lastKeep = ByteMask.lastBeat(rdBytes, bpb).named("last_keep");
        Bits keepNow = mux(rdLast, lastKeep, B(0, bpb).not()).named("keep_now");
        // The data and desc outputs come from the FIFOs' registers (never from the RAM read data
        // and the forwarding of the same cycle): a beat read in cycle x is offered at x+1.
        Bits rdData = cellRd.and(ByteMask.expand(keepNow)).named("rd_data");
        dataFifo.s.valid.set(rdValid);
        dataFifo.s.payload.data.set(rdData);
        dataFifo.s.payload.keep.set(keepNow);
        dataFifo.s.payload.last.set(rdLast);
        assertThat(dataFifo.s.valid.not().or(dataFifo.s.ready), "data FIFO overflow");
        data.connectFrom(dataFifo.m);
        descFifo.s.valid.set(startIssue);
        desc.connectFrom(descFifo.m);
        UInt eDest = reg("e_dest2", uint(xw)).init(0);
        when(startIssue, () -> eDest.set(g.destOf(xQ)));
        readDest = mux(startIssue, g.destOf(xQ), eDest);
        pduVc = mux(startIssue, g.vcOf(xQ), eVc);
        pduOps = mux(startIssue, xOps, eOps);
        pduBeats = mux(startIssue, xBeats, eBeats);
        startOps = xOps;
        startLen = xLen;
    }

    /** ceil(len / bytes) - 1 (len >= 1), {@code width} bits. */
    private static UInt moreBeats(UInt len, int bytes, int width) {
        return len.sub(1).shr(log2Up(bytes)).resize(width);
    }
}
