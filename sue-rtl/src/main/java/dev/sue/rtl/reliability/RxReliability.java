// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.pdu.AckReq;
import dev.sue.rtl.pdu.PeerAck;
import dev.sue.rtl.rx.RxPduBeat;
import java.util.List;

/**
 * Receive side of go-back-N (DESIGN-RELIABILITY.md "Receive side", the normative rules): per
 * source XPU an expected PSN; only the expected PSN is accepted; cumulative ACKs coalesced (every
 * K accepted PDUs or at most T cycles after the first unacknowledged one); a gap is NACKed once and
 * re-NACKed every R cycles while it persists; duplicates are dropped and ACKed. It monitors the RX
 * parser's output stream (no back-pressure) and tells the RX buffer whether to keep each PDU.
 *
 * <h2>Parameters</h2>
 * {@code numXpus} (1..1024): sources 0..numXpus-1 (one port). {@code dataWidth} (256/512/1024): the
 * parser's beat width.
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code beat} (Flow of {@link RxPduBeat}): every beat transferred on the parser's {@code m}.
 *       A PDU carries ops unless its first beat has {@code keep[0] = 0} or byte 0 = 0x00 (PAD).</li>
 *   <li>{@code fits} (in, last beat): the RX buffer has room for the whole PDU.</li>
 *   <li>{@code accept} (out, combinational, meaningful on a last beat, 0 elsewhere): the PDU carries
 *       ops, its source is known and initialised, and its PSN is the source's expected PSN (the
 *       previous PDU's update is visible at once: the state RAMs are read asynchronously and
 *       written at the end of the last beat's cycle). Independent of {@code fits} and
 *       {@code commit}. The buffer keeps the PDU iff {@code commit && accept && fits}; then (only)
 *       the expected PSN advances.</li>
 *   <li>{@code ack_req} (Flow of {@link AckReq}, registered, at most one per cycle): ACK(rpsn =
 *       expected - 1) or NACK(rpsn = expected) towards the source.</li>
 *   <li>{@code peer_ack} (Flow of {@link PeerAck}, registered: the cycle after the last beat): RH
 *       op/rpsn of every committed PDU from a known source with RH op 0 or 1.</li>
 *   <li>{@code cfg_*}: configuration writes, see {@link RxRelConfig}.</li>
 *   <li>{@code cnt_*} (32-bit saturating): {@code accepted}, {@code dup}, {@code gap}, {@code nobuf},
 *       {@code empty} (every committed PDU from a known source in exactly one of these five),
 *       {@code unknown} (committed, source >= numXpus: impossible behind the parser),
 *       {@code ack_sent}, {@code nack_sent} (ack_req by op), {@code req_deferred} (a PDU's own
 *       ACK/NACK request that lost the ack_req port to a timed ACK), {@code ack_rx}, {@code nack_rx}
 *       (peer_ack by op), {@code cfg_reject}.</li>
 * </ul>
 *
 * <h2>Timing</h2>
 * Line rate, one beat per cycle, no back-pressure. A PDU's own request (duplicate ACK, K-th ACK,
 * first NACK) leaves on {@code ack_req} the cycle after its last beat. A timed ACK leaves at most
 * {@code max(T, 2) + 1} cycles after the last beat of the first unacknowledged PDU. A re-NACK is
 * due R cycles after the previous NACK (earlier when an older retry entry of the source falls due)
 * and has the lowest priority.
 *
 * <h2>Storage (why this shape)</h2>
 * Everything that scales with sources is in RAM, each RAM with exactly one writer so that the PDU
 * path, the ack_req port and the two timers never compete for a write port: {@code exp_mem}
 * (expected PSN; the PDU path), {@code ack_mem} ({acked = expected when the last ACK was sent,
 * NACK valid, NACK PSN}; the ack_req port), and four 1-bit parity RAMs whose XOR says whether a
 * source has an entry in a timer queue (push side and pop side written by their own logic). PDUs
 * since the last ACK = expected - acked. After reset a sweep of max(2, numXpus) cycles zeroes the
 * RAMs ({@code cfg_ready} low; PDUs with ops in that time are not accepted and count as nobuf).
 * Timers: two {@link TimerQueue}s (exact deadlines, no scan).
 */
public final class RxReliability extends Component {
    /** A word of {@code ack_mem}: what the receiver last told a source. */
    static final class AckState extends Bundle {
        /** The expected PSN when the last ACK was sent: PDUs since then = expected - acked. */
        final UInt acked = uint(16);
        /** A NACK was sent for {@code nackPsn}, and is re-sent while that PSN stays the expected one. */
        final Bool nackValid = bool();
        final UInt nackPsn = uint(16);

        @Override
        public AckState copyType() {
            return new AckState();
        }
    }

    /** Width of the cycle counter used for timer deadlines. */
    public static final int TIME_BITS = 24;
    /** Counter names, in port order ({@code cnt_<name>}). */
    public static final List<String> COUNTERS = List.of("accepted", "dup", "gap", "nobuf", "empty", "unknown",
            "ack_sent", "nack_sent", "req_deferred", "ack_rx", "nack_rx", "cfg_reject");

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());

    public final Flow<RxPduBeat> beat;
    public final Bool fits = in(bool());
    public final Bool accept = out(bool());
    public final Flow<AckReq> ackReq;
    public final Flow<PeerAck> peerAck;

    public final UInt cntAccepted = out(uint(32));
    public final UInt cntDup = out(uint(32));
    public final UInt cntGap = out(uint(32));
    public final UInt cntNobuf = out(uint(32));
    public final UInt cntEmpty = out(uint(32));
    public final UInt cntUnknown = out(uint(32));
    public final UInt cntAckSent = out(uint(32));
    public final UInt cntNackSent = out(uint(32));
    public final UInt cntReqDeferred = out(uint(32));
    public final UInt cntAckRx = out(uint(32));
    public final UInt cntNackRx = out(uint(32));
    public final UInt cntCfgReject = out(uint(32));

    public RxReliability(int numXpus, int dataWidth) {
        param("numXpus", numXpus);
        param("dataWidth", dataWidth);
        require(numXpus >= 1 && numXpus <= 1024, "numXpus must be 1..1024, got " + numXpus);
        require(dataWidth == 256 || dataWidth == 512 || dataWidth == 1024,
                "dataWidth must be 256, 512 or 1024, got " + dataWidth);
        beat = slave(Flow.of(() -> new RxPduBeat(dataWidth)));
        ackReq = master(Flow.of(AckReq::new));
        peerAck = master(Flow.of(PeerAck::new));
        final int depth = Math.max(2, numXpus);
        final int aw = log2Up(depth);

        // ---------------- reset sweep, clock, configuration ----------------
        Bool initBusy = reg("init_busy", bool()).init(true);
        UInt initIdx = reg("init_idx", uint(aw)).init(0);
        when(initBusy, () -> {
            initIdx.set(initIdx.add(1));
            when(initIdx.eq(depth - 1), () -> initBusy.set(false));
        });
        UInt now = reg("now", uint(TIME_BITS)).init(0);
        now.set(now.add(1));
        RxRelConfig cfg = instance("cfg", () -> new RxRelConfig(numXpus));
        cfg.cfgValid.set(cfgValid);
        cfg.cfgAddr.set(cfgAddr);
        cfg.cfgData.set(cfgData);
        cfg.busy.set(initBusy);
        cfgReady.set(cfg.cfgReady);
        cntCfgReject.set(cfg.cntCfgReject);

        Mem<UInt> expMem = Mem.of(depth, uint(16)).named("exp_mem");
        Mem<AckState> ackMem = Mem.of(depth, new AckState()).named("ack_mem");
        Mem<Bool> apushMem = Mem.of(depth, bool()).named("apush_mem");
        Mem<Bool> apopMem = Mem.of(depth, bool()).named("apop_mem");
        Mem<Bool> npushMem = Mem.of(depth, bool()).named("npush_mem");
        Mem<Bool> npopMem = Mem.of(depth, bool()).named("npop_mem");
        TimerQueue ackQ = instance("ack_q", () -> new TimerQueue(numXpus, TIME_BITS));
        TimerQueue nackQ = instance("nack_q", () -> new TimerQueue(numXpus, TIME_BITS));
        ackQ.now.set(now);
        nackQ.now.set(now);
        ackQ.interval.set(cfg.ackDelay);
        nackQ.interval.set(cfg.nackRetry);

        // ---------------- the PDU path (last beat, combinational) ----------------
        RxPduBeat b = beat.payload;
        Bool inPdu = reg("in_pdu", bool()).init(false);
        Bool opsHeld = reg("ops_held", bool()).init(false);
        Bool opsFirst = b.keep.bit(0).and(b.data.slice(7, 0).ne(0)).named("ops_first");
        when(beat.valid, () -> inPdu.set(b.last.not()));
        when(beat.valid.andNot(inPdu), () -> opsHeld.set(opsFirst));
        Bool hasOps = mux(inPdu, opsHeld, opsFirst).named("has_ops");
        Bool lastBeat = beat.valid.and(b.last).named("last_beat");
        Bool srcOk = numXpus >= 1024 ? TRUE : b.src.lt(numXpus);
        UInt s = mux(srcOk, b.src.resize(aw), U(0, aw)).named("s_idx");
        UInt expS = expMem.readAsync(s).named("exp_s");
        AckState ackS = ackMem.readAsync(s).named("ack_s");
        UInt ackedS = ackS.acked;
        Bool nackSentS = ackS.nackValid.and(ackS.nackPsn.eq(expS)).named("nack_sent_s");
        Bool inAq = apushMem.readAsync(s).xor(apopMem.readAsync(s));
        Bool inNq = npushMem.readAsync(s).xor(npopMem.readAsync(s));
        UInt dist = b.psn.asUInt().sub(expS).named("psn_dist");
        Bool isExp = dist.eq(0);
        Bool isDup = dist.bit(15);
        Bool live = lastBeat.and(srcOk).and(hasOps).andNot(initBusy).named("live");
        accept.set(live.and(isExp));
        Bool comm = lastBeat.and(b.commit).named("committed");
        Bool withOps = comm.and(srcOk).and(hasOps);
        Bool stored = withOps.andNot(initBusy).and(isExp).and(fits).named("stored");
        Bool nobuf = withOps.and(initBusy.or(isExp.andNot(fits)));
        Bool dup = withOps.andNot(initBusy).and(isDup).named("dup");
        Bool gap = withOps.andNot(initBusy).andNot(isExp).andNot(isDup).named("gap");
        UInt expNew = expS.add(1);
        UInt sinceOld = expS.sub(ackedS).named("since_old");
        Bool kHit = stored.and(sinceOld.add(1).ge(cfg.ackEvery.resize(16))).named("k_hit");
        Bool pdCand = kHit.or(dup).or(gap.andNot(nackSentS)).named("pdu_req");
        UInt pdOp = gap.asUInt();
        UInt pdRpsn = mux(dup, expS.sub(1), expS);            // K-th: new expected - 1; NACK: expected
        UInt pdExp = mux(stored, expNew, expS);               // expected after this PDU

        // ---------------- timers: the heads' view, with this cycle's PDU forwarded ----------------
        UInt ha = ackQ.headSrc;
        UInt expHa = mux(stored.and(s.eq(ha)), expNew, expMem.readAsync(ha)).named("exp_ha");
        AckState ackHa = ackMem.readAsync(ha).named("ack_ha");
        Bool aDue = ackQ.due;
        Bool aEmit = aDue.and(expHa.ne(ackHa.acked)).named("a_emit");
        UInt hn = nackQ.headSrc;
        UInt expHn = mux(stored.and(s.eq(hn)), expNew, expMem.readAsync(hn)).named("exp_hn");
        AckState ackHn = ackMem.readAsync(hn).named("ack_hn");
        Bool persists = ackHn.nackValid.and(ackHn.nackPsn.eq(expHn)).named("gap_persists");
        Bool nDue = nackQ.due;

        // ---------------- the ack_req port: timed ACK > the PDU's own request > re-NACK ----------------
        Bool grantA = aEmit;
        Bool grantP = pdCand.andNot(aEmit).named("grant_p");
        Bool grantN = nDue.and(persists).andNot(aEmit).andNot(pdCand).named("grant_n");
        Bool grant = grantA.or(grantP).or(grantN).named("grant");
        UInt eSrc = mux(grantA, ha, mux(grantP, s, hn)).named("e_src");
        UInt eOp = mux(grantA, U(0, 1), mux(grantP, pdOp, U(1, 1))).named("e_op");
        UInt eExp = mux(grantA, expHa, mux(grantP, pdExp, expHn)).named("e_exp");
        UInt eRpsn = mux(grantA, expHa.sub(1), mux(grantP, pdRpsn, expHn)).named("e_rpsn");
        UInt oldAcked = mux(grantA, ackHa.acked, mux(grantP, ackS.acked, ackHn.acked)).named("e_old_acked");
        Bool oldNackValid = mux(grantA, ackHa.nackValid, mux(grantP, ackS.nackValid, ackHn.nackValid))
                .named("e_old_nack_valid");
        UInt oldNackPsn = mux(grantA, ackHa.nackPsn, mux(grantP, ackS.nackPsn, ackHn.nackPsn)).named("e_old_nack_psn");

        // queue pushes and pops; the head popped this cycle no longer counts as "in queue"
        Bool aPop = aDue;
        Bool inAqEff = inAq.andNot(aPop.and(ha.eq(s)));
        Bool aPush = stored.and(sinceOld.eq(0)).andNot(inAqEff).named("a_push");
        ackQ.push.set(aPush);
        ackQ.pushSrc.set(s);
        ackQ.pop.set(aPop);
        Bool nPop = nDue.and(persists.not().or(grantN)).named("n_pop");
        Bool nPopGone = nPop.andNot(grantN);                   // popped and not re-queued
        Bool inNqEff = inNq.andNot(nPopGone.and(hn.eq(s)));
        Bool nPushNew = grantP.and(pdOp.eq(1)).andNot(inNqEff).named("n_push_new");
        nackQ.push.set(nPushNew.or(grantN));
        nackQ.pushSrc.set(mux(grantN, hn, s));
        nackQ.pop.set(nPop);

        // ---------------- RAM writes (one writer each; the reset sweep and a pending config first) ----------------
        Bool cfgRetire = cfg.pend.andNot(stored).andNot(grant).andNot(initBusy).named("cfg_retire");
        cfg.retire.set(cfgRetire);
        UInt pi = cfg.pendIdx;
        expMem.write(mux(initBusy, initIdx, mux(cfgRetire, pi, s)),
                mux(initBusy, U(0, 16), mux(cfgRetire, cfg.pendVal, expNew)),
                initBusy.or(cfgRetire).or(stored));
        // The sweep zeroes; a retired configuration sets acked = expected; an ACK sets acked = expected and
        // keeps a NACK record only while its PSN is still the expected one; a NACK records its PSN.
        Bool isNack = eOp.eq(1).named("e_is_nack");
        AckState ackNext = wire("ack_next", new AckState());
        ackNext.acked.set(mux(initBusy, U(0, 16), mux(cfgRetire, cfg.pendVal, mux(isNack, oldAcked, eExp))));
        ackNext.nackValid.set(initBusy.or(cfgRetire).not().and(isNack.or(oldNackValid.and(oldNackPsn.eq(eExp)))));
        ackNext.nackPsn.set(mux(initBusy.or(cfgRetire), U(0, 16), mux(isNack, eExp, oldNackPsn)));
        ackMem.write(mux(initBusy, initIdx, mux(cfgRetire, pi, eSrc)), ackNext, initBusy.or(cfgRetire).or(grant));
        apushMem.write(mux(initBusy, initIdx, s), mux(initBusy, FALSE, apushMem.readAsync(s).not()),
                initBusy.or(aPush));
        apopMem.write(mux(initBusy, initIdx, ha), mux(initBusy, FALSE, apopMem.readAsync(ha).not()),
                initBusy.or(aPop));
        npushMem.write(mux(initBusy, initIdx, s), mux(initBusy, FALSE, npushMem.readAsync(s).not()),
                initBusy.or(nPushNew));
        npopMem.write(mux(initBusy, initIdx, hn), mux(initBusy, FALSE, npopMem.readAsync(hn).not()),
                initBusy.or(nPopGone));

        // ---------------- outputs ----------------
        Bool reqV = reg("ack_req_v", bool()).init(false);
        reqV.set(grant);
        AckReq rq = reg("ack_req_r", new AckReq());
        when(grant, () -> {
            rq.dest.set(eSrc.resize(10));
            rq.op.set(eOp);
            rq.rpsn.set(eRpsn);
        });
        ackReq.valid.set(reqV);
        assignLeaves(ackReq.payload, rq);

        Bool paFire = comm.and(srcOk).and(b.op.lt(2)).named("peer_ack_fire");
        Bool paV = reg("peer_ack_v", bool()).init(false);
        paV.set(paFire);
        PeerAck pa = reg("peer_ack_r", new PeerAck());
        when(paFire, () -> {
            pa.peer.set(b.src);
            pa.op.set(b.op.slice(0, 0));
            pa.rpsn.set(b.rpsn.asUInt());
        });
        peerAck.valid.set(paV);
        assignLeaves(peerAck.payload, pa);

        cntAccepted.set(Counter.saturating("cnt_accepted_r", StatusWord.BITS, stored));
        cntDup.set(Counter.saturating("cnt_dup_r", StatusWord.BITS, dup));
        cntGap.set(Counter.saturating("cnt_gap_r", StatusWord.BITS, gap));
        cntNobuf.set(Counter.saturating("cnt_nobuf_r", StatusWord.BITS, nobuf));
        cntEmpty.set(Counter.saturating("cnt_empty_r", StatusWord.BITS, comm.and(srcOk).andNot(hasOps)));
        cntUnknown.set(Counter.saturating("cnt_unknown_r", StatusWord.BITS, comm.andNot(srcOk)));
        cntAckSent.set(Counter.saturating("cnt_ack_sent_r", StatusWord.BITS, reqV.and(rq.op.eq(0))));
        cntNackSent.set(Counter.saturating("cnt_nack_sent_r", StatusWord.BITS, reqV.and(rq.op.eq(1))));
        // a timed ACK to the same source names the same PSN as the PDU's own ACK: nothing is lost then
        Bool sameAck = ha.eq(s).and(pdOp.eq(0));
        cntReqDeferred.set(Counter.saturating("cnt_req_deferred_r", StatusWord.BITS, pdCand.and(aEmit).andNot(sameAck)));
        cntAckRx.set(Counter.saturating("cnt_ack_rx_r", StatusWord.BITS, paV.and(pa.op.eq(0))));
        cntNackRx.set(Counter.saturating("cnt_nack_rx_r", StatusWord.BITS, paV.and(pa.op.eq(1))));
        latency(0);
    }


    /** Emitted as {@code sue_rx_reliability} (SUE modules carry the {@code sue_} prefix). */
    @Override
    public String moduleBaseName() {
        return "sue_rx_reliability";
    }

    /** The counters in status-space order (names as in the register map). */
    public List<StatusWord> statusWords() {
        return List.of(
                new StatusWord("accepted", cntAccepted),
                new StatusWord("dup", cntDup),
                new StatusWord("gap", cntGap),
                new StatusWord("nobuf", cntNobuf),
                new StatusWord("empty", cntEmpty),
                new StatusWord("unknown", cntUnknown),
                new StatusWord("ack_sent", cntAckSent),
                new StatusWord("nack_sent", cntNackSent),
                new StatusWord("req_deferred", cntReqDeferred),
                new StatusWord("ack_rx", cntAckRx),
                new StatusWord("nack_rx", cntNackRx),
                new StatusWord("cfg_reject", cntCfgReject));
    }
}
