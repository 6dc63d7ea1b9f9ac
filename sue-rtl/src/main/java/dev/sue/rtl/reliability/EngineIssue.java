// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.rtl.pdu.CellFree;
import dev.sue.rtl.pdu.PduDesc;
import dev.sue.rtl.pdu.ReplayReq;
import dev.sue.rtl.pdu.RhDesc;
import dev.sue.rtl.pdu.TxPdu;

/**
 * Stage 0 of {@link TxRelEngine}: picks at most one event per cycle, by priority: a
 * per-connection configuration write; an empty PDU that is due; an ACK/NACK/drain job step
 * (alternating with descriptors when both want the cycle); a descriptor from the queue manager
 * (new PDU or replay); a rewind step; a timer-scan visit. Every input is a register (or the queue
 * manager's descriptor), and room for what the event may produce (a header slot in the framer,
 * which it asks for here, a verdict, free or replay request) is checked or reserved here by
 * counts, so the pipeline never stalls.
 *
 * <p>It also holds the two walkers' registers: the <b>job</b> (an ACK/NACK from
 * {@link PeerAckQueue}, or the drain of a connection entering error) and the <b>rewind</b> being
 * served (from the rewind FIFO). Each steps until the decide stage reports its last step; a step
 * issued meanwhile arrives after the end and is void. A register is reloaded only when no step of
 * it is in flight.
 */
final class EngineIssue {
    final EngineStage event;
    final UInt addr;
    final Bool clearing;
    final Bool jobValid;
    final Bool jobEnded;
    final Bool jobStart;
    final Bool jobNack;
    final Bool jobDrain;
    final UInt jobDest;
    /** The last PSN the job acknowledges (a NACK(r) acknowledges r - 1). */
    final UInt jobTarget;
    /** {@code jobTarget + 1}: una equals it when the job acknowledges nothing. */
    final UInt jobTargetNext;
    /** From the decide stage: a live job step / the job's last step. */
    final Bool jobStep;
    final Bool jobFinal;
    /** From stage 2's registers: its timer visit puts the connection into error and needs the job register. */
    final Bool timerWantsJob;
    /** The job register takes the drain of that connection. */
    final Bool drainLoad;
    final Bool rwEnded;
    final UInt rwDest;
    /** From the decide stage: the rewind's last step / a new rewind of the connection being walked. */
    final Bool rwFinal;
    final Bool rwResume;
    final Bool rwRelease;
    /** The event issued now reads the connection that the event at stage 2 writes (to forward at stage 1). */
    final Bool fwdMatch;

    EngineIssue(int xpus, Stream<TxPdu> s, TxRelConfig cfg, PeerAckQueue peers, AckInfoTable acks,
            StreamFifo<UInt> rwFifo, StreamFifo<Bits> verdicts, StreamFifo<CellFree> frees,
            StreamFifo<ReplayReq> replays, EngineStage at1, EngineStage at2, Flow<PduDesc> hdrReq, Bool hdrRoom) {
        int xw = log2Up(xpus);
        event = new EngineStage("e0", xw, false);
        addr = event.addr;
        clearing = wire("e0_clearing", bool());
        jobValid = reg("job_valid", bool()).init(false);
        jobEnded = reg("job_ended", bool()).init(false);
        jobStart = reg("job_start", bool()).init(false);
        jobNack = reg("job_nack", bool()).init(false);
        jobDrain = reg("job_drain", bool()).init(false);
        jobDest = reg("job_dest", uint(xw)).init(0);
        jobTarget = reg("job_target", uint(16)).init(0);
        jobTargetNext = reg("job_target_next", uint(16)).init(1);
        jobStep = wire("job_step", bool());
        jobFinal = wire("job_final", bool());
        timerWantsJob = wire("timer_wants_job", bool());
        Bool rwValid = reg("rw_valid", bool()).init(false);
        rwEnded = reg("rw_ended", bool()).init(false);
        rwDest = reg("rw_dest", uint(xw)).init(0);
        rwFinal = wire("rw_final", bool());
        rwResume = wire("rw_resume", bool());
        UInt scan = reg("scan_ptr", uint(xw)).init(0);
        Bool turn = reg("job_turn", bool()).init(false);

        TxPdu d = s.payload;
        // the framer has room for one more PDU's header (from its slot count register)
        Bool outRoom = hdrRoom;
        Bool freeRoom = frees.occupancy.lt(6);
        Bool run = clearing.not();
        Bool cfgGo = run.and(cfg.connPending).andNot(cfg.connIssued).andNot(hazard(at1, cfg.connDest))
                .named("go_cfg");
        Bool emptyGo = run.andNot(cfgGo).and(acks.due).and(outRoom).named("go_empty");
        Bool jobWant = run.and(jobValid).andNot(jobEnded).andNot(hazard(at1, jobDest)).and(freeRoom)
                .named("want_job");
        // a replay's verdict is decided at the read stage, so it waits like the protected events
        Bool descWant = run.and(s.valid).and(outRoom).and(verdicts.occupancy.lt(6))
                .and(mux(d.replay, hazard(at1, d.dest.resize(xw)).not(), freeRoom)).named("want_desc");
        Bool first = cfgGo.or(emptyGo);
        Bool jobGo = first.not().and(jobWant).and(turn.or(descWant.not())).named("go_job");
        Bool descGo = first.not().andNot(jobGo).and(descWant).named("go_desc");
        Bool rwWant = rwValid.andNot(rwEnded).andNot(hazard(at1, rwDest)).and(replays.occupancy.lt(3))
                .named("want_rewind");
        Bool rwGo = run.andNot(first).andNot(jobGo).andNot(descGo).and(rwWant).named("go_rewind");
        Bool timerGo = run.andNot(first).andNot(jobGo).andNot(descGo).andNot(rwGo).andNot(hazard(at1, scan))
                .named("go_timer");
        // a descriptor wins the first conflict (latency), then they alternate while both want
        turn.set(jobWant.and(descWant).andNot(turn));
        when(timerGo, () -> scan.set(mux(scan.eq(xpus - 1), U(0, xw), scan.add(1))));
        s.ready.set(descGo);
        acks.duePop.set(emptyGo);
        cfg.issue.set(cfgGo);

        event.valid.set(cfgGo.or(emptyGo).or(jobGo).or(descGo).or(rwGo).or(timerGo));
        event.cfg.set(cfgGo);
        event.send.set(descGo.andNot(d.replay));
        event.replay.set(descGo.and(d.replay));
        event.empty.set(emptyGo);
        event.job.set(jobGo);
        event.rewind.set(rwGo);
        event.timer.set(timerGo);
        // the address and its forwarding match: the descriptor's last, so that the queue manager's
        // valid passes one multiplexer only
        UInt other = mux(cfgGo, cfg.connDest, mux(emptyGo, acks.dueDest, mux(jobWant, jobDest,
                mux(rwWant, rwDest, scan)))).named("e0_addr_other");
        UInt descAddr = d.dest.resize(xw);
        event.addr.set(mux(descGo, descAddr, other));
        fwdMatch = at2.valid.and(mux(descGo, descAddr.eq(at2.addr), other.eq(at2.addr))).named("e0_fwd_match");
        event.destOk.set(AckInfo.inRange(d.dest, xpus));
        assignLeaves(event.pdu, d);

        // the framer's header request: the PDU's fields reach it here, two cycles ahead of the RH
        // fields (SueFramer.RH_DELAY), so the header is built while the PSN is assigned. When the
        // piggyback head is due no descriptor can go (an empty PDU or nothing), so the fields are
        // chosen by that register, not by the issue decision.
        hdrReq.valid.set(emptyGo.or(descGo));
        hdrReq.payload.dest.set(mux(acks.due, acks.dueDest.resize(10), d.dest));
        hdrReq.payload.vc.set(mux(acks.due, U(0, 2), d.vc));
        hdrReq.payload.length.set(mux(acks.due, U(0, 13), d.length));

        // the job register
        Bool jobFree = jobValid.not().or(jobEnded.andNot(at1.job).andNot(at2.job)).named("job_free");
        drainLoad = timerWantsJob.and(jobFree).named("drain_load");
        Bool loadAck = jobFree.and(peers.valid).andNot(timerWantsJob).named("job_load");
        peers.pop.set(loadAck);
        when(drainLoad, () -> {
            jobValid.set(true);
            jobDest.set(at2.addr);
            jobDrain.set(true);
            jobNack.set(false);
            jobStart.set(true);
            jobEnded.set(false);
        }).elseWhen(loadAck, () -> {
            jobValid.set(true);
            jobDest.set(peers.peer);
            jobTarget.set(peers.msg.upTo);
            jobTargetNext.set(peers.msg.upTo.add(1));
            jobNack.set(peers.msg.op.eq(RhDesc.OP_NACK));
            jobDrain.set(false);
            jobStart.set(true);
            jobEnded.set(false);
        }).elseWhen(jobFree, () -> jobValid.set(false)).otherwise(() -> {
            when(jobStep, () -> jobStart.set(false));
            when(jobFinal, () -> jobEnded.set(true));
        });

        // the rewind register; not released while the decide stage may queue its connection again
        Bool rwPushMaybe = at2.job.or(at2.timer).and(at2.addr.eq(rwDest));
        rwRelease = rwValid.and(rwEnded).andNot(at1.rewind).andNot(at2.rewind).andNot(rwPushMaybe)
                .named("rw_release");
        Bool rwLoad = rwValid.not().or(rwRelease).and(rwFifo.m.valid).named("rw_load");
        rwFifo.m.ready.set(rwLoad);
        when(rwLoad, () -> {
            rwValid.set(true);
            rwDest.set(rwFifo.m.payload);
            rwEnded.set(false);
        }).elseWhen(rwRelease, () -> rwValid.set(false)).otherwise(() -> {
            when(rwResume, () -> rwEnded.set(false)).elseWhen(rwFinal, () -> rwEnded.set(true));
        });
    }

    /** The event at stage 1 is on connection {@code a}. */
    private static Bool hazard(EngineStage at1, UInt a) {
        return at1.valid.and(at1.addr.eq(a));
    }
}
