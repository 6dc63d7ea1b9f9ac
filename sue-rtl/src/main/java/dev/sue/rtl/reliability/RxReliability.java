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
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

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
 *   <li>{@code fits} (in, the cycle after a last beat on {@code beat}): the RX buffer has room for
 *       the whole PDU.</li>
 *   <li>{@code accept} (out, the cycle after a last beat on {@code beat}, {@link #ACCEPT_DELAY}; 0
 *       in every other cycle): the PDU carries ops, its source is known and initialised, and its
 *       PSN is the source's expected PSN (the previous PDU's update is visible at once: the
 *       expected-PSN read, started a cycle early, forwards the writes it missed). Independent of
 *       {@code fits} and {@code commit}. The buffer keeps the PDU iff {@code commit && accept &&
 *       fits}; then (only) the expected PSN advances.</li>
 *   <li>{@code ack_req} (Flow of {@link AckReq}, registered, at most one per cycle): ACK(rpsn =
 *       expected - 1) or NACK(rpsn = expected) towards the source.</li>
 *   <li>{@code peer_ack} (Flow of {@link PeerAck}, registered: {@link #REQUEST_DELAY} cycles after
 *       the last beat): RH op/rpsn of every committed PDU from a known source with RH op 0 or 1.</li>
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
 * Line rate, one beat per cycle, no back-pressure. Three stages per PDU, each a class of its own:
 * {@link LastBeat} registers the last beat (cycle c), {@link PsnCheck} compares the PSN with the
 * expected one in c + 1 ({@code accept}, {@code fits}, the expected-PSN write) and {@link AckPort}
 * decides the ACK/NACK in c + 2. A PDU's own request (duplicate ACK, K-th ACK, first NACK) leaves
 * on {@code ack_req} in c + 3 ({@link #REQUEST_DELAY}). A timed ACK leaves at most
 * {@code max(T, 2) + 1} cycles after the ACK port took the first unacknowledged PDU ({@code
 * max(T, 2) + 3} after its last beat). A re-NACK is due R cycles after the previous NACK (at least
 * 3; earlier when an older retry entry of the source falls due) and has the lowest priority.
 * Counters count a cycle after the ACK port's decision.
 *
 * <h2>Storage (why this shape)</h2>
 * Everything that scales with sources is in RAM, each RAM with exactly one writer so that the PDU
 * path, the ack_req port and the two timers never compete for a write port: {@code exp_mem}
 * (expected PSN; the PDU path), {@code ack_mem} ({acked = expected when the last ACK was sent,
 * NACK valid, NACK PSN}; the ack_req port), and four 1-bit parity RAMs whose XOR says whether a
 * source has an entry in a timer queue (push side and pop side written by their own logic). PDUs
 * since the last ACK = expected - acked. After reset a sweep of max(2, numXpus) cycles zeroes the
 * RAMs ({@code cfg_ready} low; PDUs with ops in that time are not accepted and count as nobuf).
 * {@code exp_mem}'s write is registered and forwarded to every read ({@link ExpTable}), so the
 * write enables of a deep table's RAM64 banks decode a register, not the PSN compare.
 * Timers: two {@link TimerQueue}s (exact deadlines, no scan). Their heads' state is read a cycle
 * ahead ({@link HeadLookup}: {@code exp_mem} and {@code ack_mem} read for the head and the entry
 * behind it into registers, the writes those reads missed forwarded, so no RAM read follows a head
 * register); a due re-NACK that loses the port waits in {@link NackRetry}, so the NACK queue pops
 * without waiting for the gap test. Every {@code ack_mem} read is started a cycle early the same way
 * (the PSN check's and the ACK port's too). The PSN check reads {@code ack_mem}
 * for the ACK port a cycle ahead; the port's own write of that cycle to the same source is applied
 * as a correction (an ACK leaves nothing unacknowledged, a NACK opens the gap), which is exact
 * because both read {@code exp_mem} in the same cycle (DESIGN-RELIABILITY.md "Implementation").
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
    /** Last beat on {@code beat} in cycle c: {@code accept} (and the {@code fits} it pairs with) in c + ACCEPT_DELAY. */
    public static final int ACCEPT_DELAY = 1;
    /** Last beat on {@code beat} in cycle c: the PDU's own ACK/NACK request and its peer_ack leave in c + REQUEST_DELAY. */
    public static final int REQUEST_DELAY = 3;
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

        ExpTable expMem = new ExpTable(depth, aw);
        AckTable ackTable = new AckTable(depth);
        Mem<AckState> ackMem = ackTable.mem;
        Mem<Bool> apushMem = Mem.of(depth, bool()).named("apush_mem");
        Mem<Bool> apopMem = Mem.of(depth, bool()).named("apop_mem");
        Mem<Bool> npushMem = Mem.of(depth, bool()).named("npush_mem");
        Mem<Bool> npopMem = Mem.of(depth, bool()).named("npop_mem");
        TimerQueue ackQ = instance("ack_q", () -> new TimerQueue(numXpus, TIME_BITS, false));
        TimerQueue nackQ = instance("nack_q", () -> new TimerQueue(numXpus, TIME_BITS, true));
        ackQ.now.set(now);
        nackQ.now.set(now);
        ackQ.interval.set(cfg.ackDelay);
        nackQ.interval.set(cfg.nackRetry);

        // ---------------- the three PDU stages ----------------
        LastBeat in = new LastBeat(beat, numXpus, aw);
        ExpTable.Prefetch expEarly = expMem.prefetchExact(in.sNext, "exp_early");
        // ack_mem for the PSN check and the ACK port, read a cycle early like the heads' (a register as the address of
        // an asynchronous read makes synthesis move it into a block RAM and emulate the write-through with a compare
        // of the late write address; a prefetch's forward compares the candidate sources instead)
        AckPrefetch ackEarly = ackTable.prefetch(in.sNext, "ack_early");
        AckPrefetch ackAtS = ackTable.prefetch(in.s, "ack_port_early");
        PsnCheck p = new PsnCheck(in, expEarly, ackEarly, initBusy, fits, cfg.ackEveryLess1);
        accept.set(p.accept);
        HeadLookup ackHead = new HeadLookup(ackQ, expMem, ackTable, "ack_q_head");
        HeadLookup nackHead = new HeadLookup(nackQ, expMem, ackTable, "nack_q_head");
        NackRetry nr = new NackRetry(nackQ, nackHead, expMem, ackTable, aw);
        AckPort q = new AckPort(p, in.s, ackAtS, ackQ, ackHead, nr, cfg.ackEveryLess1);
        nr.hold(q.persists.andNot(q.grantN));

        // ---------------- queue pushes and pops; the head popped this cycle no longer counts as "in queue" ----------------
        Bool inAq = apushMem.readAsync(q.s).xor(apopMem.readAsync(q.s));
        Bool inNq = npushMem.readAsync(q.s).xor(npopMem.readAsync(q.s));
        Bool aPop = ackQ.due;
        Bool inAqEff = inAq.andNot(aPop.and(ackHead.srcIsRegNext(in.s, "ha_is_s")));
        Bool aPush = q.stored.and(q.sinceZero).andNot(inAqEff).named("a_push");
        ackQ.push.set(aPush);
        ackQ.pushSrc.set(q.s);
        ackQ.pop.set(aPop);
        Bool nPopGone = nr.due.andNot(q.persists).named("n_pop_gone");   // popped and not re-queued
        Bool inNqEff = inNq.andNot(nPopGone.and(q.hn.eq(q.s)));
        Bool nPushNew = q.grantP.and(q.pdNack).andNot(inNqEff).named("n_push_new");
        nackQ.push.set(nPushNew.or(q.grantN));
        nackQ.pushSrc.set(mux(q.grantN, q.hn, q.s));
        nackQ.pop.set(nr.valid.not());

        // ---------------- RAM writes (one writer each; the reset sweep and a pending config first) ----------------
        // A configuration write waits for a cycle in which neither RAM can be written otherwise (no last beat in
        // the PSN check or the ACK port, no timer due), so it never meets a PDU in flight in the pipeline.
        Bool cfgRetire = cfg.pend.andNot(initBusy).andNot(in.last).andNot(p.lastQ).andNot(ackQ.due)
                .andNot(nr.due).named("cfg_retire");
        cfg.retire.set(cfgRetire);
        UInt pi = cfg.pendIdx;
        // the three writers exclude each other (a sweep stops every other write, a configuration write waits for a
        // cycle without a last beat in the PSN check, where stored comes from)
        expMem.write(new ExpTable.Write(initBusy, initIdx, U(0, 16)), new ExpTable.Write(cfgRetire, pi, cfg.pendVal),
                new ExpTable.Write(p.stored, in.s, p.expNew));
        AckState swept = wire("ack_swept", new AckState());
        swept.acked.set(mux(initBusy, U(0, 16), cfg.pendVal));
        swept.nackValid.set(FALSE);
        swept.nackPsn.set(U(0, 16));
        Bool sweepOrCfg = initBusy.or(cfgRetire);
        AckState ackNext = mux("ack_next", sweepOrCfg, swept, q.word);
        UInt sweepAddr = mux(initBusy, initIdx, pi);
        ackMem.write(mux(sweepOrCfg, sweepAddr, q.eSrc), ackNext, sweepOrCfg.or(q.grant));
        // the same write, seen by the prefetches: one compare per candidate source, chosen by its grant (a sweep or
        // configuration write never meets a grant: no PDU in the ports, no timer due); the timed ACK's and the
        // re-NACK's tests (a_emit, gap_persists) are the deepest inputs, so they come last
        ackTable.forwardWrites(ackNext, a -> sweepOrCfg.and(sweepAddr.eq(a)).or(mux(q.aEmit, q.ha.eq(a),
                q.pdCand.and(q.s.eq(a)).or(q.pdCand.not().and(nr.due).and(q.hn.eq(a)).and(q.persists)))));
        apushMem.write(mux(initBusy, initIdx, q.s), mux(initBusy, FALSE, apushMem.readAsync(q.s).not()),
                initBusy.or(aPush));
        apopMem.write(mux(initBusy, initIdx, q.ha), mux(initBusy, FALSE, apopMem.readAsync(q.ha).not()),
                initBusy.or(aPop));
        npushMem.write(mux(initBusy, initIdx, q.s), mux(initBusy, FALSE, npushMem.readAsync(q.s).not()),
                initBusy.or(nPushNew));
        npopMem.write(mux(initBusy, initIdx, q.hn), mux(initBusy, FALSE, npopMem.readAsync(q.hn).not()),
                initBusy.or(nPopGone));

        // ---------------- outputs ----------------
        Bool reqV = reg("ack_req_v", bool()).init(false);
        reqV.set(q.grant);
        AckReq rq = reg("ack_req_r", new AckReq());
        when(q.grant, () -> {
            rq.dest.set(q.eSrc.resize(10));
            rq.op.set(q.eNack.asUInt());
            rq.rpsn.set(q.eRpsn);
        });
        ackReq.valid.set(reqV);
        assignLeaves(ackReq.payload, rq);

        Bool paV = reg("peer_ack_v", bool()).init(false);
        paV.set(p.peerAckQ);
        PeerAck pa = reg("peer_ack_r", new PeerAck());
        when(p.peerAckQ, () -> {
            pa.peer.set(p.srcQ);
            pa.op.set(p.opQ.slice(0, 0));
            pa.rpsn.set(p.rpsnQ.asUInt());
        });
        peerAck.valid.set(paV);
        assignLeaves(peerAck.payload, pa);

        cntAccepted.set(Counter.saturating("cnt_accepted_r", StatusWord.BITS, q.stored));
        cntDup.set(Counter.saturating("cnt_dup_r", StatusWord.BITS, p.dupQ));
        cntGap.set(Counter.saturating("cnt_gap_r", StatusWord.BITS, p.gapQ));
        cntNobuf.set(Counter.saturating("cnt_nobuf_r", StatusWord.BITS, p.nobufQ));
        cntEmpty.set(Counter.saturating("cnt_empty_r", StatusWord.BITS, p.emptyQ));
        cntUnknown.set(Counter.saturating("cnt_unknown_r", StatusWord.BITS, p.unknownQ));
        cntAckSent.set(Counter.saturating("cnt_ack_sent_r", StatusWord.BITS, reqV.and(rq.op.eq(0))));
        cntNackSent.set(Counter.saturating("cnt_nack_sent_r", StatusWord.BITS, reqV.and(rq.op.eq(1))));
        // a timed ACK to the same source names the same PSN as the PDU's own ACK: nothing is lost then
        Bool deferred = reg("req_deferred_q", bool()).init(false);
        deferred.set(q.pdCand.and(q.aEmit).andNot(q.ha.eq(q.s).andNot(q.pdNack)));
        cntReqDeferred.set(Counter.saturating("cnt_req_deferred_r", StatusWord.BITS, deferred));
        cntAckRx.set(Counter.saturating("cnt_ack_rx_r", StatusWord.BITS, paV.and(pa.op.eq(0))));
        cntNackRx.set(Counter.saturating("cnt_nack_rx_r", StatusWord.BITS, paV.and(pa.op.eq(1))));
        latency(REQUEST_DELAY);
    }

    /**
     * Stage 1 (the input register): the descriptor of every last beat on {@code beat}, and whether
     * its PDU carries ops (decided at its first beat), so the PSN check starts from registers.
     */
    static final class LastBeat {
        /** A last beat was on {@code beat} in the previous cycle. */
        final Bool last = reg("p_last", bool()).init(false);
        final Bool commit = reg("p_commit", bool());
        final Bool hasOps = reg("p_has_ops", bool());
        /** The source is below numXpus; {@code s} is its state index (0 for an unknown source). */
        final Bool srcOk = reg("p_src_ok", bool());
        final UInt s;
        /** What {@code s} becomes at a last beat: the expected-PSN read starts from it a cycle early. */
        final UInt sNext;
        final UInt src = reg("p_src", uint(10));
        final UInt psn = reg("p_psn", uint(16));
        final UInt op = reg("p_op", uint(2));
        final Bits rpsn = reg("p_rpsn", bits(16));

        LastBeat(Flow<RxPduBeat> beat, int numXpus, int aw) {
            RxPduBeat b = beat.payload;
            Bool inPdu = reg("in_pdu", bool()).init(false);
            Bool opsHeld = reg("ops_held", bool()).init(false);
            Bool opsFirst = b.keep.bit(0).and(b.data.slice(7, 0).ne(0)).named("ops_first");
            when(beat.valid, () -> inPdu.set(b.last.not()));
            when(beat.valid.andNot(inPdu), () -> opsHeld.set(opsFirst));
            Bool ok = numXpus >= 1024 ? TRUE : b.src.lt(numXpus);
            Bool lastIn = beat.valid.and(b.last).named("last_in");
            s = reg("p_s", uint(aw));
            sNext = mux(ok, b.src.resize(aw), U(0, aw)).named("p_s_next");
            last.set(lastIn);
            when(lastIn, () -> {
                commit.set(b.commit);
                hasOps.set(mux(inPdu, opsHeld, opsFirst));
                srcOk.set(ok);
                s.set(sNext);
                src.set(b.src);
                psn.set(b.psn.asUInt());
                op.set(b.op);
                rpsn.set(b.rpsn);
            });
        }
    }

    /**
     * Stage 2 (the PSN check, one cycle after the last beat): the source's expected PSN (read a cycle
     * early from the last beat's source, the writes that read missed forwarded: back-to-back PDUs of
     * one source see each other's update), {@code accept}, the PDU's class and the
     * expected-PSN update; and, for the ACK port a cycle later, what the source's ACK state says
     * about this PDU (read here, corrected there for the port's write of this very cycle).
     */
    static final class PsnCheck {
        final Bool accept;
        /** Accepted and stored now: the expected PSN advances to {@code expNew}. */
        final Bool stored;
        final UInt expNew;
        // registered for the ACK port (suffix Q)
        final Bool lastQ = reg("q_last", bool()).init(false);
        final Bool storedQ = reg("q_stored", bool()).init(false);
        final Bool dupQ = reg("q_dup", bool()).init(false);
        final Bool gapQ = reg("q_gap", bool()).init(false);
        final Bool nobufQ = reg("q_nobuf", bool()).init(false);
        final Bool emptyQ = reg("q_empty", bool()).init(false);
        final Bool unknownQ = reg("q_unknown", bool()).init(false);
        final Bool peerAckQ = reg("q_peer_ack", bool()).init(false);
        /** Expected PSN after the PDU, and the rpsn of its own request (expected - 1 for ACKs, expected for a NACK). */
        final UInt pdExpQ = reg("q_pd_exp", uint(16));
        final UInt pdRpsnQ = reg("q_pd_rpsn", uint(16));
        /** PDUs since the last ACK (as read here) reach K - 1 / are none; a NACK for this expected PSN was sent. */
        final Bool kReachQ = reg("q_k_reach", bool());
        final Bool sinceZeroQ = reg("q_since_zero", bool());
        final Bool nackSentQ = reg("q_nack_sent", bool());
        final UInt sQ;
        final UInt srcQ = reg("q_src", uint(10));
        final UInt opQ = reg("q_op", uint(2));
        final Bits rpsnQ = reg("q_rpsn", bits(16));

        PsnCheck(LastBeat in, ExpTable.Prefetch expEarly, AckPrefetch ackEarly, Bool initBusy, Bool fits, UInt kLess1) {
            UInt expS = expEarly.value(in.s, "exp_s");
            UInt dist = expEarly.distance(in.s, in.psn, "psn_dist");
            Bool isExp = expEarly.eq(in.s, in.psn).named("is_exp");   // not dist == 0: no carry chain before stored
            Bool isDup = dist.bit(15);
            Bool live = in.last.and(in.srcOk).and(in.hasOps).andNot(initBusy).named("live");
            accept = live.and(isExp);
            Bool comm = in.last.and(in.commit).named("committed");
            Bool withOps = comm.and(in.srcOk).and(in.hasOps);
            stored = withOps.andNot(initBusy).and(isExp).and(fits).named("stored");
            Bool dup = withOps.andNot(initBusy).and(isDup).named("dup");
            Bool gap = withOps.andNot(initBusy).andNot(isExp).andNot(isDup).named("gap");
            expNew = expS.add(1).named("exp_new");
            AckState ackS = ackEarly.value("ack_s");
            UInt since = expEarly.minus(in.s, ackS.acked, "since_old");

            lastQ.set(in.last);
            storedQ.set(stored);
            dupQ.set(dup);
            gapQ.set(gap);
            nobufQ.set(withOps.and(initBusy.or(isExp.andNot(fits))));
            emptyQ.set(comm.and(in.srcOk).andNot(in.hasOps));
            unknownQ.set(comm.andNot(in.srcOk));
            peerAckQ.set(comm.and(in.srcOk).and(in.op.lt(2)));
            sQ = regNext(in.s).named("q_s");
            srcQ.set(in.src);
            opQ.set(in.op);
            rpsnQ.set(in.rpsn);
            pdExpQ.set(mux(isExp, expNew, expS));         // with isExp only an accepted PDU makes a request
            pdRpsnQ.set(mux(isDup, expS.sub(1), expS));   // duplicate: expected - 1; K-th: new expected - 1; NACK: expected
            kReachQ.set(since.ge(kLess1.resize(16)));
            sinceZeroQ.set(since.eq(0));
            nackSentQ.set(ackS.nackValid.and(expEarly.eq(in.s, ackS.nackPsn)));
        }
    }

    /**
     * Stage 3 (the ACK port, two cycles after the last beat): one request per cycle, timed ACK > the
     * PDU's own request > re-NACK, and the new {@code ack_mem} word of the winner (each candidate's
     * word built in parallel, chosen last).
     */
    static final class AckPort {
        final UInt s;
        final Bool stored;
        /** PDUs since the last ACK are none (this PDU is the first unacknowledged one when stored). */
        final Bool sinceZero;
        final Bool pdCand;
        final Bool pdNack;
        final UInt ha;
        final UInt hn;
        final Bool aEmit;
        final Bool persists;
        final Bool grantP;
        final Bool grantN;
        final Bool grant;
        final UInt eSrc;
        final Bool eNack;
        final UInt eRpsn;
        final AckState word;

        AckPort(PsnCheck p, UInt sNext, AckPrefetch ackAtS, TimerQueue ackQ, HeadLookup ackHead, NackRetry nackCand,
                UInt kLess1) {
            s = p.sQ;
            stored = p.storedQ;
            pdNack = p.gapQ;
            // The PSN check read ack_mem a cycle ago, before this port's write of that cycle; when that write was
            // for the same source it named exactly the expected PSN the check saw (both read exp_mem in the same
            // cycle), so an ACK leaves no PDUs unacknowledged and a NACK opens the gap at that PSN.
            Bool hitAck = reg("q_hit_ack", bool()).init(false);
            Bool hitNack = reg("q_hit_nack", bool()).init(false);
            sinceZero = p.sinceZeroQ.or(hitAck).named("since_zero");
            Bool kHit = stored.and(mux(hitAck, kLess1.eq(0), p.kReachQ)).named("k_hit");
            Bool nackSent = p.nackSentQ.or(hitNack).named("nack_sent_s");
            pdCand = kHit.or(p.dupQ).or(p.gapQ.andNot(nackSent)).named("pdu_req");

            // the timers' heads: their state as the RAMs hold it now (this cycle's PSN check not forwarded), read a
            // cycle ahead
            ha = ackHead.src;
            UInt expHa = ackHead.exp("exp_ha");
            AckState ackHa = ackHead.ack("ack_ha");
            aEmit = ackQ.due.andNot(ackHead.expEqAck(w -> w.acked)).named("a_emit");
            hn = nackCand.src;
            UInt expHn = nackCand.exp;
            AckState ackHn = nackCand.ack;
            persists = nackCand.persists;

            grantP = pdCand.andNot(aEmit).named("grant_p");
            grantN = nackCand.due.and(persists).andNot(aEmit).andNot(pdCand).named("grant_n");
            // the winner's fields are chosen by aEmit, then pdCand (= grantP when not aEmit), a level less than
            // waiting for the grants
            grant = aEmit.or(pdCand).or(nackCand.due.and(persists)).named("grant");
            eSrc = mux(aEmit, ha, mux(pdCand, s, hn)).named("e_src");
            eNack = aEmit.not().and(pdCand.not().or(pdNack)).named("e_is_nack");
            eRpsn = mux(aEmit, ackHead.expMinusOne("exp_ha_less_1"), mux(pdCand, p.pdRpsnQ, expHn)).named("e_rpsn");

            // An ACK sets acked = expected and keeps a NACK record only while its PSN is still the expected one;
            // a NACK records its PSN.
            AckState ackS = ackAtS.value("ack_s_port");
            AckState wordA = ackWord("ack_word_timed", expHa, ackHa);
            AckState wordP = mux("ack_word_pdu", pdNack, nackWord("ack_word_pdu_nack", p.pdExpQ, ackS),
                    ackWord("ack_word_pdu_ack", p.pdExpQ, ackS));
            AckState wordN = nackWord("ack_word_renack", expHn, ackHn);
            word = mux("ack_word", aEmit, wordA, mux("ack_word_not_timed", pdCand, wordP, wordN));

            Bool sameA = ha.eq(sNext);
            Bool sameP = s.eq(sNext);
            Bool sameN = hn.eq(sNext);
            hitAck.set(aEmit.and(sameA).or(grantP.andNot(pdNack).and(sameP)));
            hitNack.set(grantP.and(pdNack).and(sameP).or(grantN.and(sameN)));
        }

        private static AckState ackWord(String name, UInt exp, AckState old) {
            AckState w = wire(name, new AckState());
            w.acked.set(exp);
            w.nackValid.set(old.nackValid.and(old.nackPsn.eq(exp)));
            w.nackPsn.set(old.nackPsn);
            return w;
        }

        private static AckState nackWord(String name, UInt exp, AckState old) {
            AckState w = wire(name, new AckState());
            w.acked.set(old.acked);
            w.nackValid.set(TRUE);
            w.nackPsn.set(exp);
            return w;
        }
    }

    /**
     * {@code exp_mem} (the expected PSN per source) with its one write registered: the write lands a
     * cycle after the PSN check decided it, so the write enables of the RAM64 banks of a deep table
     * decode a register instead of the check's compare. Every read of the entry being written returns
     * the registered data, so all readers still see the table as if the write had landed at the end of
     * the check's cycle (the PSN check of the next PDU of that source, the timer heads).
     */
    static final class ExpTable {
        private final Mem<UInt> mem;
        private final Bool wValid = reg("exp_w_valid", bool()).init(false);
        private final UInt wAddr;
        private final UInt wData = reg("exp_w_data", uint(16));
        /** Prefetch addresses whose flag registers whether the next cycle's registered write is at that address. */
        private final List<ExactHit> exact = new ArrayList<>();

        private record ExactHit(UInt addr, Bool hitNext) {
        }

        ExpTable(int depth, int aw) {
            mem = Mem.of(depth, uint(16)).named("exp_mem");
            wAddr = reg("exp_w_addr", uint(aw));
            mem.write(wAddr, wData, wValid);
        }

        /** One writer of the table: {@code data} at {@code addr} when {@code enable}. */
        record Write(Bool enable, UInt addr, UInt data) {
        }

        /**
         * The table's writers, whose enables exclude each other (visible to every read from the next cycle). Each
         * exact prefetch's hit flag is the OR of enable-and-address-match per writer, so a late enable (the PSN
         * check's stored, after the RX buffer's fits) is one gate from the register, not a priority mux and a
         * compare of the chosen address.
         */
        void write(Write... writers) {
            Bool enable = FALSE;
            UInt addr = writers[writers.length - 1].addr();
            UInt data = writers[writers.length - 1].data();
            for (int i = writers.length - 2; i >= 0; i--) {
                addr = mux(writers[i].enable(), writers[i].addr(), addr);
                data = mux(writers[i].enable(), writers[i].data(), data);
            }
            for (Write w : writers) {
                enable = enable.or(w.enable());
            }
            wValid.set(enable);
            wAddr.set(addr);
            wData.set(data);
            for (ExactHit e : exact) {
                Bool hit = FALSE;
                for (Write w : writers) {
                    hit = hit.or(w.enable().and(w.addr().eq(e.addr())));
                }
                e.hitNext().set(hit);
            }
        }

        /**
         * Starts a read a cycle early: the entry at {@code addr} is registered, with the write landing at the end of
         * this cycle, so that {@link Prefetch#value} in the next cycle, for a register loaded from {@code addr}, is
         * the entry as {@link #read} would return it then (the write registered in this cycle forwarded there).
         */
        Prefetch prefetch(UInt addr, String name) {
            UInt held = regNext(mem.readAsync(addr)).named(name);
            Bool missedHit = regNext(wValid.and(wAddr.eq(addr))).named(name + "_fwd");
            UInt missed = regNext(wData).named(name + "_fwd_data");
            return new Prefetch(this, held, missedHit, missed, null);
        }

        /**
         * {@link #prefetch} for a reader whose address next cycle is exactly {@code addr} (a timer head): whether
         * the write registered next cycle is at that address is registered too, so no address compare follows
         * the head register.
         */
        Prefetch prefetchExact(UInt addr, String name) {
            Prefetch p = prefetch(addr, name);
            Prefetch r = new Prefetch(this, p.held, p.missedHit, p.missed, reg(name + "_now", bool()).init(false));
            exact.add(new ExactHit(addr, r.hitNext));
            return r;
        }

        /**
         * A read started a cycle early: {@code held} (the RAM's entry then) unless {@code missedHit}, when the write
         * landing at the end of that cycle ({@code missed}) replaces it.
         */
        record Prefetch(ExpTable table, UInt held, Bool missedHit, UInt missed, Bool hitNext) {
            /** {@code c ? a : b}, both started for different addresses in the same cycle. */
            static Prefetch pick(Bool c, Prefetch a, Prefetch b) {
                return new Prefetch(a.table, mux(c, a.held, b.held), mux(c, a.missedHit, b.missedHit), a.missed,
                        mux(c, a.hitNext, b.hitNext));
            }

            /** The entry at {@code addr} (the register loaded from the prefetch's address), as of now. */
            UInt value(UInt addr, String name) {
                return mux(hitNow(addr), table.wData, mux(missedHit, missed, held)).named(name);
            }

            /** {@code value(addr) == other}, every candidate compared from its register and chosen last. */
            Bool eq(UInt addr, UInt other) {
                return mux(hitNow(addr), table.wData.eq(other), mux(missedHit, missed.eq(other), held.eq(other)));
            }

            /**
             * {@code other - value(addr)}, every candidate subtracted from its register and chosen last (no
             * subtractor after the forward, which synthesis would also share with {@link #eq}).
             */
            UInt distance(UInt addr, UInt other, String name) {
                return mux(hitNow(addr), other.sub(table.wData), mux(missedHit, other.sub(missed), other.sub(held)))
                        .named(name);
            }

            /** {@code value(addr) - other}, like {@link #distance}. */
            UInt minus(UInt addr, UInt other, String name) {
                return mux(hitNow(addr), table.wData.sub(other), mux(missedHit, missed.sub(other), held.sub(other)))
                        .named(name);
            }

            private Bool hitNow(UInt addr) {
                return hitNext != null ? hitNext : table.wValid.and(table.wAddr.eq(addr));
            }
        }
    }

    /**
     * {@code ack_mem}, read only by readers that start a read a cycle early (the timer heads, the PSN check and the
     * ACK port): each such read registers
     * the entry and whether the write of that cycle (the one it missed) hit it, with the written word, so
     * the next cycle sees the entry as the RAM holds it then.
     */
    static final class AckTable {
        final Mem<AckState> mem;
        private final AckState written = reg("ack_w_data", new AckState());
        private final List<AckPrefetch> prefetches = new ArrayList<>();

        AckTable(int depth) {
            mem = Mem.of(depth, new AckState()).named("ack_mem");
        }

        /** Starts a read of {@code addr} (see {@link AckPrefetch#value}). */
        AckPrefetch prefetch(UInt addr, String name) {
            AckPrefetch r = new AckPrefetch(addr, regNext(mem.readAsync(addr)).named(name),
                    reg(name + "_fwd", bool()).init(false), written);
            prefetches.add(r);
            return r;
        }

        /** The word written this cycle and, per address, whether it is written now (false when nothing is). */
        void forwardWrites(AckState data, Function<UInt, Bool> writtenAt) {
            assignLeaves(written, data);
            for (AckPrefetch r : prefetches) {
                r.missedHit.set(writtenAt.apply(r.addr));
            }
        }
    }

    /** A read of {@code ack_mem} started a cycle early: {@code held} unless the write then hit it ({@code missed}). */
    record AckPrefetch(UInt addr, AckState held, Bool missedHit, AckState missed) {
        /** {@code c ? a : b}, both started in the same cycle (no address: a picked read gets no forward of its own). */
        static AckPrefetch pick(String name, Bool c, AckPrefetch a, AckPrefetch b) {
            return new AckPrefetch(null, mux(name, c, a.held, b.held), mux(c, a.missedHit, b.missedHit), a.missed);
        }

        /** The entry as the RAM holds it now. */
        AckState value(String name) {
            return mux(name, missedHit, missed, held);
        }
    }

    /**
     * The state of a timer queue's head without a RAM read after the head register: {@code exp_mem} and
     * {@code ack_mem} are read for both the head and the entry behind it a cycle early, and the cycle after
     * takes the one that is the head then ({@link TimerQueue#headFresh}), so a pop costs no bubble.
     */
    static final class HeadLookup {
        final UInt src;
        private final UInt nextSrc;
        private final Bool fresh;
        private final HeadRead atNext;
        private final HeadRead atCur;

        HeadLookup(TimerQueue tq, ExpTable expMem, AckTable ackTable, String name) {
            src = tq.headSrc;
            nextSrc = tq.nextSrc;
            fresh = tq.headFresh;
            atNext = new HeadRead(expMem.prefetchExact(tq.nextSrc, name + "_exp_next"),
                    ackTable.prefetch(tq.nextSrc, name + "_ack_next"));
            atCur = new HeadRead(expMem.prefetchExact(tq.headSrc, name + "_exp_cur"),
                    ackTable.prefetch(tq.headSrc, name + "_ack_cur"));
        }

        /** {@code src == regNext(x)}, compared a cycle ahead for the head and the entry behind it. */
        Bool srcIsRegNext(UInt x, String name) {
            return mux(fresh, regNext(nextSrc.eq(x)).named(name + "_next"), regNext(src.eq(x)).named(name + "_cur"));
        }

        /** {@code exp() - 1}, every candidate decremented from its register and chosen last. */
        UInt expMinusOne(String name) {
            return ExpTable.Prefetch.pick(fresh, atNext.exp, atCur.exp).minus(src, U(1, 16), name);
        }

        UInt exp(String name) {
            return ExpTable.Prefetch.pick(fresh, atNext.exp, atCur.exp).value(src, name);
        }

        AckState ack(String name) {
            return AckPrefetch.pick(name + "_held", fresh, atNext.ack, atCur.ack).value(name);
        }

        /** {@code exp() == field(ack())}, every pair of candidates compared from registers and chosen last. */
        Bool expEqAck(Function<AckState, UInt> field) {
            return mux(fresh, atNext.expEqAck(src, field), atCur.expEqAck(src, field));
        }

        /** Both reads started for one address. */
        record HeadRead(ExpTable.Prefetch exp, AckPrefetch ack) {
            Bool expEqAck(UInt src, Function<AckState, UInt> field) {
                return mux(ack.missedHit(), exp.eq(src, field.apply(ack.missed())), exp.eq(src, field.apply(ack.held())));
            }
        }
    }

    /**
     * The re-NACK candidate: the NACK queue's head, or a due head that lost {@code ack_req} to a higher
     * priority while its gap persisted, held here and retried first. The queue is popped whenever its head
     * is due and nothing waits here, so its pop (and the FIFO's pointers and count) never waits for the
     * gap test; a lost re-NACK is retried the next cycle exactly as if it had stayed the head. Its state is
     * read a cycle ahead from the candidate's source.
     */
    static final class NackRetry {
        final Bool valid = reg("nack_retry_v", bool()).init(false);
        private final UInt heldSrc;
        /** The candidate's source, whether it is due, its expected PSN and ack_mem word, and whether its gap persists. */
        final UInt src;
        final Bool due;
        final UInt exp;
        final AckState ack;
        final Bool persists;

        NackRetry(TimerQueue nackQ, HeadLookup head, ExpTable expMem, AckTable ackTable, int aw) {
            heldSrc = reg("nack_retry_src", uint(aw));
            src = mux(valid, heldSrc, head.src).named("n_cand_src");
            due = valid.or(nackQ.due).named("n_cand_due");
            HeadLookup.HeadRead held = new HeadLookup.HeadRead(expMem.prefetchExact(src, "nack_retry_exp"),
                    ackTable.prefetch(src, "nack_retry_ack"));
            exp = mux(valid, held.exp().value(heldSrc, "nack_retry_exp_val"), head.exp("exp_hn")).named("exp_n_cand");
            ack = mux("ack_n_cand", valid, held.ack().value("nack_retry_ack_now"), head.ack("ack_hn"));
            persists = ack.nackValid.and(mux(valid, held.expEqAck(heldSrc, w -> w.nackPsn),
                    head.expEqAck(w -> w.nackPsn))).named("gap_persists");
        }

        /** {@code lost}: the due candidate's gap persists and it did not get {@code ack_req} this cycle. */
        void hold(Bool lost) {
            valid.set(due.and(lost));
            heldSrc.set(src);
        }
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
