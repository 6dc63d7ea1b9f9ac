// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.rtl.encap.RhFields;
import dev.sue.rtl.pdu.CellFree;
import dev.sue.rtl.pdu.PduDesc;
import dev.sue.rtl.pdu.ReplayReq;
import dev.sue.rtl.pdu.RhDesc;
import dev.sue.rtl.pdu.TxPdu;
import java.util.ArrayList;
import java.util.List;

/**
 * The event engine of {@link TxReliability}: the only writer of the PSN table
 * ({@link ConnectionTable}) and the descriptor pool, one event per cycle in three stages:
 * <ol>
 * <li><b>issue</b> ({@link EngineIssue}): picks the event from registers and the registered
 *     descriptor, and presents its connection to the table's registered read;</li>
 * <li><b>read</b>: the connection's word arrives (forwarded by {@link ConnectionTable}), the
 *     pool entry of its head or resend cell is read, the decisions of the events that the
 *     hazard rule protects (ACK/NACK job, rewind step, timer, configuration, replay) are
 *     computed and registered, and a descriptor's data verdict is pushed;</li>
 * <li><b>decide</b>: the new word is written, pool appends, free and replay requests, the output
 *     RH fields with the peer's ACK information (or the header's withdrawal).</li>
 * </ol>
 * <b>Hazards.</b> A new PDU and an empty PDU read the word at the decide stage with every
 * earlier write forwarded, so back-to-back PDUs to one destination keep one per cycle. Every
 * other event is issued only when the event one stage ahead is on another connection: its
 * decisions are then final one stage early, and its pool read (whose address is the head or
 * resend cell of the word) never misses a pointer the event ahead moved. A job or a rewind
 * walking one connection thus takes a step every other cycle unless other events fill the gaps.
 */
final class TxRelEngine {
    /**
     * A multi-port plane's connection moves and follows: plane {@code plane} of {@code ports}, the
     * ports' live bits ({@code PortSteer.planeLive}), {@code PORT_MODE.unordered} and the plane's frames
     * from peers ({@link PeerRoutes}).
     */
    record Moves(int ports, int plane, Bits portLive, Bool unordered, Flow<PeerRoute> peerRoute) {}

    final EngineIssue issue;
    final EngineStage at1;
    final EngineStage at2;
    final ConnectionTable table;
    /** Decide-stage events for the counters. */
    final Bool connMoved;
    final Bool connFollowed;
    final Bool pduSent;
    final Bool retxSent;
    final Bool emptySent;
    final Bool staleReplay;
    final Bool errDrop;
    final Bool ackUsed;
    final Bool nackUsed;
    final Bool jobStale;
    final Bool jobIsNack;
    final Bool timedOut;
    final Bool errEnter;

    // stage-1 decisions, registered for stage 2
    private final Bool jobOk;
    private final Bool jobPop;
    private final Bool jobLastPop;
    private final Bool jobRewinds;
    private final Bool popMovesResend;
    private final Bool rwVoid;
    private final Bool rwEnd;
    private final Bool tmTimeout;
    private final Bool tmToError;
    private final Bool cfgApply;
    private final Bool replayStale;
    private final Bool sendDrop;

    /** @param beatBytes bytes a beat of the queue manager's data path (the replay requests' beat flags) */
    TxRelEngine(int xpus, int cells, int beatBytes, Stream<TxPdu> s, TxRelConfig cfg, UInt now, PeerAckQueue peers,
            AckInfoTable acks, Flow<PduDesc> hdrReq, Bool hdrRoom, Flow<RhFields> rh, StreamFifo<Bits> verdicts,
            StreamFifo<CellFree> frees, StreamFifo<ReplayReq> replays, Bool rewindAll, Moves moves) {
        int xw = log2Up(xpus);
        int cw = log2Up(cells);
        int rwDepth = Math.max(4, xpus);
        StreamFifo<UInt> rwFifo = instance("rewind_fifo", () -> new StreamFifo<>(() -> uint(xw), rwDepth,
                rwDepth > 8 ? FifoStorage.RAM : FifoStorage.REGISTERS, rwDepth));
        at1 = new EngineStage("e1", xw);
        at2 = new EngineStage("e2", xw);
        issue = new EngineIssue(xpus, s, cfg, peers, acks, rwFifo, verdicts, frees, replays, at1, at2, hdrReq, hdrRoom);
        table = new ConnectionTable(xpus, cw, moves != null, issue.addr, issue.fwdMatch, at1.addr, at2.valid, at2.addr);
        issue.clearing.set(table.clearing);
        at1.follow(issue.event);
        at2.follow(at1);

        // ---- read stage ----
        ConnState st1 = table.atStage1;
        DescriptorPool pool = new DescriptorPool(cells, mux(at1.job, st1.head, st1.resend).named("pool_addr"));
        // compares as equalities of fields where they can be (no subtraction in front)
        UInt outst1 = st1.outstanding().named("st1_outstanding");
        Bool idle1 = st1.nextPsn.eq(st1.una).named("st1_idle");
        Bool oneLeft1 = st1.oneOutstanding().named("st1_one_left");
        UInt acked = issue.jobTarget.sub(st1.una).add(1).named("job_acked");
        Bool ackedNone = st1.una.eq(issue.jobTargetNext).named("job_acked_none");
        Bool ackedOne = st1.una.eq(issue.jobTarget).named("job_acked_one");
        jobOk = regNext(mux(issue.jobDrain, TRUE,
                st1.error.not().and(acked.le(outst1)).and(issue.jobNack.or(ackedNone.not()))).named("job_ok"));
        jobPop = regNext(mux(issue.jobDrain, TRUE, ackedNone.not()).andNot(idle1).named("job_pop"));
        jobLastPop = regNext(issue.jobNack.not().and(mux(issue.jobDrain, FALSE, ackedOne).or(oneLeft1))
                .named("job_last_pop"));
        jobRewinds = regNext(issue.jobNack.andNot(issue.jobDrain).andNot(idle1).named("job_rewinds"));
        popMovesResend = regNext(st1.rewinding.and(st1.resendPsn.eq(st1.una)).named("pop_moves_resend"));
        rwVoid = regNext(st1.rewinding.not().or(st1.error).named("rw_void"));
        rwEnd = regNext(st1.resendPsn.eq(st1.nextPsn).named("rw_end"));
        Bool replayOutstanding = at1.pdu.psn.sub(st1.una).lt(outst1).named("replay_outstanding");
        Bool replayStale1 = st1.error.or(at1.destOk.not()).or(replayOutstanding.not()).named("replay_stale");
        Bool sendDrop1 = st1.error.or(at1.destOk.not()).named("send_drop");
        replayStale = regNext(replayStale1);
        sendDrop = regNext(sendDrop1);
        // The data verdict leaves from here, a cycle before the descriptor, so the data can follow
        // the descriptor at once. A new PDU's verdict may miss the write of the event just ahead
        // (a timer visit that puts the connection into error, a CONN write that clears it); the
        // decide stage keeps the verdict: such a PDU is sent and then freed by the drain, or
        // dropped as if the write had come a cycle later.
        verdicts.s.valid.set(at1.desc());
        verdicts.s.payload.set(at1.send.and(sendDrop1).or(at1.replay.and(replayStale1)).asBits());
        assertThat(verdicts.s.valid.not().or(verdicts.s.ready), "verdict FIFO overflow");
        Bool expired = now.sub(st1.deadline).bit(TxReliability.TW - 1).not().named("expired");
        // rewind_all: the next xpus timer visits (one whole scan) treat every deadline as passed; such a
        // forced visit rewinds but is no retry (it neither counts towards RETRY_LIMIT nor enters error)
        Bool forced1 = null;
        Bool forced2 = null;
        if (rewindAll != null) {
            int lw = bitsFor(xpus);
            UInt left = reg("rewind_all_left", uint(lw)).init(0);
            Bool forcing = reg("rewind_all_on", bool()).init(false);
            Bool visit = issue.event.timer.and(forcing);
            when(rewindAll, () -> {
                left.set(U(xpus, lw));
                forcing.set(TRUE);
            }).elseWhen(visit, () -> {
                left.set(left.sub(1));
                when(left.eq(1), () -> forcing.set(FALSE));
            });
            Bool f1 = reg("rewind_all_e1", bool()).init(false);
            f1.set(visit);
            forced1 = f1;
            forced2 = regNext(f1).named("rewind_all_e2");
        }
        Bool atLimit = st1.retries.ge(cfg.retryLimit);
        tmTimeout = regNext(st1.error.not().andNot(idle1).and(forced1 == null ? expired : expired.or(forced1))
                .named("tm_timeout"));
        tmToError = regNext((forced1 == null ? atLimit : atLimit.andNot(forced1)).named("tm_to_error"));
        cfgApply = regNext(mux(cfg.isConn, st1.error, TRUE).and(idle1).named("cfg_apply"));
        // a timeout that moves the connection (multi-port plane, unordered mode, CONN_MOVE_RETRIES - 1
        // timeouts without progress already), and the port it moves to: the next live one after its
        // own current port (the plane's while it has not moved), or that one if none is
        Bool tmMove = null;
        UInt movePort = null;
        Bool follows2 = null;
        UInt followPort2 = null;
        if (moves != null) {
            PeerRoutes peerRoutes = new PeerRoutes(xpus, moves.peerRoute(), cfg.moveGeneration, at1.addr,
                    table.clearing, table.sweepAddr);
            connFollowed = peerRoutes.followed;
            follows2 = regNext(peerRoutes.follows.and(moves.unordered())).named("follows_e2");
            followPort2 = regNext(peerRoutes.port).named("follow_port_e2");
            tmMove = regNext(moves.unordered().and(cfg.moveOn).and(st1.retries.ge(cfg.moveFrom)).named("tm_move"));
            // from the connection's own last move, else the plane's port: not from a port it follows (the
            // peer's choice: its timeouts may predate the follow, and moving on from there could pick
            // the port the peer left)
            UInt current = mux(st1.move.movedIn(cfg.moveGeneration), st1.move.port, U(moves.plane(), ConnMove.BITS))
                    .named("move_current");
            List<UInt> nextAfter = new ArrayList<>();
            for (int c = 0; c < moves.ports(); c++) {
                UInt pick = U(c, ConnMove.BITS);
                for (int k = moves.ports() - 1; k >= 1; k--) {
                    int r = (c + k) % moves.ports();
                    pick = mux(moves.portLive().bit(r), U(r, ConnMove.BITS), pick);
                }
                nextAfter.add(pick);
            }
            movePort = regNext(Vec.of(nextAfter).get(current.resize(log2Up(moves.ports()))).named("move_port"));
        } else {
            connFollowed = null;
        }
        issue.timerWantsJob.set(at2.timer.and(tmTimeout).and(tmToError));

        // ---- decide stage ----
        ConnState st = table.atStage2;
        ConnState n = table.write;
        assignLeaves(n, st);
        Bool wen = table.writeEnable;
        wen.set(false);
        TxPdu d = at2.pdu;
        UInt cell = d.cell.resize(cw);
        UInt deadlineNew = regNext(now.add(cfg.rto).named("deadline_new"));
        Bool sendKeep = at2.send.andNot(sendDrop).named("send_keep");
        Bool wasEmpty = st.nextPsn.eq(st.una).named("send_was_empty");
        when(sendKeep, () -> {
            n.nextPsn.set(st.nextPsn.add(1));
            n.tail.set(cell);
            // a rewind that already reached the end continues with this PDU
            when(st.rewinding.and(st.resendPsn.eq(st.nextPsn)), () -> n.resend.set(cell));
            when(wasEmpty, () -> {
                n.head.set(cell);
                n.deadline.set(deadlineNew);
            });
            wen.set(true);
        });
        pool.append(sendKeep, cell, d.length, d.vc, wasEmpty.not(), st.tail);

        // ACK / NACK / drain job: one descriptor per step; a step after the job ended is void
        Bool jobLive = at2.job.andNot(issue.jobEnded).named("job_live");
        Bool freeJob = jobLive.and(issue.jobStart.not().or(jobOk)).and(jobPop).named("free_job");
        Bool rwPush = wire("rw_push", bool());
        rwPush.set(false);
        when(freeJob, () -> {
            n.head.set(pool.next);
            n.una.set(st.una.add(1));
            when(popMovesResend, () -> {
                n.resend.set(pool.next);
                n.resendPsn.set(st.resendPsn.add(1));
            });
            when(issue.jobDrain.not(), () -> {
                n.retries.set(U(0, 8));
                n.deadline.set(deadlineNew);
            });
            wen.set(true);
        });
        Bool jobFinal = jobLive.and(issue.jobStart.and(jobOk.not()).or(freeJob.not()).or(jobLastPop))
                .named("job_last_step");
        Bool jobRewind = jobLive.and(issue.jobStart.not().or(jobOk)).andNot(jobPop).and(jobRewinds)
                .named("job_rewind");
        issue.jobStep.set(jobLive);
        issue.jobFinal.set(jobFinal);

        // rewind step: one replay request
        Bool rwLive = at2.rewind.andNot(issue.rwEnded).named("rw_live");
        Bool replayPush = rwLive.andNot(rwVoid).andNot(rwEnd).named("replay_push");
        issue.rwFinal.set(rwLive.and(rwVoid.or(rwEnd)));
        when(rwLive.andNot(rwVoid).and(rwEnd), () -> {
            n.rewinding.set(false);
            wen.set(true);
        });
        when(replayPush, () -> {
            n.resend.set(pool.next);
            n.resendPsn.set(st.resendPsn.add(1));
            wen.set(true);
        });

        // timer visit
        Bool tmRetry = at2.timer.and(tmTimeout).andNot(tmToError).named("tm_retry");
        errEnter = at2.timer.and(tmTimeout).and(tmToError).and(issue.drainLoad).named("err_enter");
        when(tmRetry.or(jobRewind), () -> {
            n.rewinding.set(true);
            n.resend.set(st.head);
            n.resendPsn.set(st.una);
            n.deadline.set(deadlineNew);
            rwPush.set(true);
            wen.set(true);
        });
        Bool realRetry = forced2 == null ? tmRetry : tmRetry.andNot(forced2);
        when(realRetry, () -> n.retries.set(st.retries.add(1)));
        if (moves != null) {
            Bool moveNow = realRetry.and(tmMove).named("conn_move_now");
            UInt to = movePort;
            when(moveNow, () -> {
                n.move.moved.set(true);
                n.move.port.set(to);
                n.move.count.set(st.move.count.asUInt().add(1).resize(ConnMove.BITS).asBits());
                n.move.generation.set(cfg.moveGeneration);
            });
            connMoved = moveNow;
        } else {
            connMoved = null;
        }
        when(errEnter, () -> {
            n.error.set(true);
            n.rewinding.set(false);
            wen.set(true);
        });

        // configuration: re-initialise a connection
        when(at2.cfg.and(cfgApply), () -> {
            n.nextPsn.set(cfg.value);
            n.una.set(cfg.value);
            n.rewinding.set(false);
            n.error.set(false);
            n.retries.set(U(0, 8));
            if (moves != null) {
                n.move.moved.set(false);
            }
            wen.set(true);
        });
        cfg.done.set(at2.cfg);

        // rewind queue: each connection at most once; a rewind of the connection being walked
        // resumes the walk instead. The queued bit of the decide stage's connection is read a
        // stage early (this cycle's push and release applied), so no wide bit select sits in
        // front of the FIFO's push.
        Bits rwq = reg("rewind_queued", bits(xpus)).init(0);
        Bool queuedAt2 = reg("rewind_queued_e2", bool()).init(false);
        Bool rwPushNow = rwPush.andNot(queuedAt2).named("rw_push_now");
        queuedAt2.set(rwq.bit(at1.addr).andNot(issue.rwRelease.and(issue.rwDest.eq(at1.addr)))
                .or(rwPushNow.and(at2.addr.eq(at1.addr))).named("rewind_queued_e1"));
        issue.rwResume.set(rwPush.and(queuedAt2).and(issue.rwDest.eq(at2.addr)));
        rwFifo.s.valid.set(rwPushNow);
        rwFifo.s.payload.set(at2.addr);
        Bits rwSet = mux(rwPushNow, B(1, xpus).shl(at2.addr), B(0, xpus));
        Bits rwClr = mux(issue.rwRelease, B(1, xpus).shl(issue.rwDest), B(0, xpus));
        rwq.set(rwq.and(rwClr.not()).or(rwSet));
        assertThat(rwPushNow.not().or(rwFifo.s.ready), "rewind FIFO overflow");

        // requests to the queue manager
        Bool freeSend = at2.send.and(sendDrop);
        frees.s.valid.set(freeSend.or(freeJob));
        frees.s.payload.dest.set(at2.addr.resize(10));
        frees.s.payload.cell.set(mux(freeSend, cell, st.head).resize(16));
        frees.s.payload.length.set(mux(freeSend, d.length, pool.info.length));
        assertThat(frees.s.valid.not().or(frees.s.ready), "free FIFO overflow");
        replays.s.valid.set(replayPush);
        replays.s.payload.dest.set(at2.addr.resize(10));
        replays.s.payload.vc.set(pool.info.vc);
        replays.s.payload.cell.set(st.resend.resize(16));
        replays.s.payload.setLength(pool.info.length, beatBytes);
        replays.s.payload.psn.set(st.resendPsn);
        assertThat(replays.s.valid.not().or(replays.s.ready), "replay FIFO overflow");

        // the RH fields of every event that asked the framer for a header (a descriptor or an empty
        // PDU), its ACK information; a PDU that produces nothing withdraws its header
        Bool outPush = sendKeep.or(at2.replay.andNot(replayStale)).or(at2.empty.and(acks.takeHas))
                .named("out_push");
        acks.take.set(outPush);
        acks.takeDest.set(at2.addr);
        rh.valid.set(at2.empty.or(at2.desc()));
        rh.payload.cancel.set(outPush.not());
        rh.payload.psn.set(mux(at2.replay, d.psn, st.nextPsn));
        rh.payload.op.set(mux(acks.takeHas, acks.takeInfo.op.resize(2), U(RhDesc.OP_NONE, 2)));
        rh.payload.rpsn.set(mux(acks.takeHas, acks.takeInfo.rpsn(), U(0, 16)));
        if (moves != null) {
            // the connection's own move first, else the peer's it follows
            Bool own = st.move.movedIn(cfg.moveGeneration).named("route_own");
            rh.payload.route.moved.set(own.or(follows2));
            rh.payload.route.port.set(mux(own, st.move.port, followPort2));
            rh.payload.route.count.set(st.move.count);
        }

        pduSent = sendKeep;
        retxSent = at2.replay.andNot(replayStale);
        emptySent = at2.empty.and(acks.takeHas);
        staleReplay = at2.replay.and(replayStale);
        errDrop = at2.send.and(sendDrop);
        Bool jobCounted = jobLive.and(issue.jobStart).andNot(issue.jobDrain);
        ackUsed = jobCounted.and(jobOk).andNot(issue.jobNack);
        nackUsed = jobCounted.and(jobOk).and(issue.jobNack);
        jobStale = jobCounted.andNot(jobOk);
        jobIsNack = issue.jobNack;
        timedOut = tmRetry;
    }
}
