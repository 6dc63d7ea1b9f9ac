// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.ports;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.rtl.config.CfgBus;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.encap.Encapsulation;
import dev.sue.rtl.encap.FramePort;
import dev.sue.rtl.encap.SueFramer;
import dev.sue.rtl.mac.MacStreams;
import dev.sue.rtl.reliability.ConnMove;
import dev.sue.rtl.reliability.PeerRoute;
import dev.sue.rtl.reliability.TxReliability;
import dev.sue.rtl.rx.MacRxBeat;
import java.util.ArrayList;
import java.util.List;

/**
 * Failover between the planes and the Ethernet ports of a multi-port endpoint
 * (sue-rtl/DESIGN-PORTS.md, "Failover"): which port each plane's frames leave on, which plane each
 * received frame goes to, and which planes can take new ops.
 *
 * <ul>
 * <li><b>Reachability.</b> Plane q is <em>live</em> while port q's {@code link_up} is 1 and its peer
 *     is not unreachable: the plane holds cells ({@code free_cells} below the most it has had free)
 *     and none has been freed (acknowledged) for {@code UNREACH_TIME} cycles (word
 *     {@link #ADDR_UNREACH_TIME}, 0 = never). Unreachable is kept until port q's link changes or
 *     {@code PORT_MODE} is written.
 * <li><b>Transmit.</b> In unordered mode a plane that is not live is steered to the next live port
 *     after its own (in port order, wrapping); otherwise (and always in strict mode) to its own.
 *     A plane's port changes only between its frames; each port takes whole frames from the planes
 *     steered to it, its own plane first after reset and then round robin at frame ends.
 * <li><b>Receive.</b> Each port's frames go to the plane their RH {@code plane} field names (byte 4
 *     bits 5:4, ARCHITECTURE.md §5) when the frame's EtherType is the encapsulation's and the field
 *     names a plane; other frames (control frames, runts) to the port's own plane. A MAC cannot be
 *     held, so a frame waits in a small FIFO (the beats up to the field) until its plane is known,
 *     and a frame for a plane that is receiving another port's frame is dropped and counted
 *     ({@code steer.rx_drop<p>}): go-back-N resends it. The ports' MAC streams are always ready.
 * <li><b>Follow.</b> Each end writes its own moves of a plane, counted modulo 4, in the RH
 *     {@code move} field; a frame whose count is ahead of the last one taken (two in a row, same
 *     port) moves the plane to the port it arrived on while the plane's own port is live
 *     ({@code steer.follows}), so an end with nothing to send takes its ACKs where the peer went.
 * <li><b>Per connection.</b> A frame whose connection moved ({@link #planeRoute}, DESIGN-PORTS.md
 *     "Failover per connection") leaves on its route's port instead of the plane's; each received
 *     frame's sender, {@code conn_move} count and arrival port go to its plane ({@link #peerRoute})
 *     for the follow per connection.
 * </ul>
 */
public final class PortSteer extends Component {
    /** Word of {@code UNREACH_TIME}: cycles without acknowledgement progress before a plane's peer is unreachable. */
    public static final int ADDR_UNREACH_TIME = 0x0251;
    public static final int UNREACH_TIME_BITS = 24;
    /** Four retransmit timeouts at the default RTO: go-back-N has had several tries. */
    public static final int UNREACH_TIME_DEFAULT = 4 * TxReliability.RTO_DEFAULT;

    /** The planes' transmit streams (in: {@code plane_tx_<q>_*}). */
    public final Vec<AxiStream> planeTx;
    /** The ports' transmit streams (out: {@code port_tx_<p>_*}, to the MACs). */
    public final Vec<AxiStream> portTx;
    /** The ports' receive streams (in: {@code port_rx_<p>_*}, from the MACs; always ready). */
    public final Vec<AxiStream> portRx;
    /** The planes' receive streams (out: {@code plane_rx_<q>_*}; the planes take a beat every cycle). */
    public final Vec<AxiStream> planeRx;
    /** Bit p: port p's link is up. */
    public final Bits linkUp;
    /** Per plane: its transmit path's free cells ({@code SueTx.freeCells}). */
    public final Vec<UInt> freeCells;
    /** {@code PORT_MODE.unordered} (the dispatcher's register). */
    public final Bool unordered;
    /** Bit q: plane q is live (registered). */
    public final Bits planeLive;
    /**
     * Bit q (registered, a pulse): plane q's port moved away from a port that is not live (down or its
     * peer unreachable), or to follow the peer's move: rewind plane q's connections now, so that what
     * the old port lost is resent on the new one without waiting for the go-back-N timeout
     * ({@code SueTx.rewindAll}).
     */
    public final Bits rewind;
    /**
     * Per plane (out, registered): its move count for the RH {@code move} field of its frames
     * ({@code SueTx.moveEpoch}), advanced each time this end's own steering moves the plane's frames
     * to another port (not when it follows the peer).
     */
    public final Vec<Bits> moveEpoch;
    /**
     * Per plane (in, beside {@link #planeTx}'s beats, constant through a frame): the port the frame's
     * connection asks for ({@code SueTx.frameRoute}); taken while that port is live, else the frame
     * takes the plane's port.
     */
    public final Vec<FramePort> planeRoute;
    /**
     * Per plane (out, registered; unordered mode only): a frame of the plane ended without a MAC
     * error: its sender, the sender's move count of the connection and its arrival port, for the
     * plane's follow per connection ({@code SueTx.peerRoute}).
     */
    public final Vec<Flow<PeerRoute>> peerRoute;
    /** Configuration writes ({@code UNREACH_TIME}, {@code PORT_MODE}). */
    public final CfgBus cfg = slave(new CfgBus().named("cfg"));

    private final List<StatusWord> status = new ArrayList<>();
    private final List<StatusWord> exported;
    private final int ports;
    private final int pb;

    public PortSteer(int dataWidth, int ports, int cells, Encapsulation encap, boolean vlan) {
        param("dataWidth", dataWidth);
        param("ports", ports);
        param("cells", cells);
        param("encap", encap == null ? "null" : encap.name());
        param("vlan", vlan);
        require(ports == 2 || ports == 4, "steering serves 2 or 4 ports, got " + ports);
        require(encap != null, "steering needs the encapsulation (where the RH plane field is)");
        require(dataWidth == 256 || dataWidth == 512 || dataWidth == 1024, "dataWidth must be 256, 512 or 1024, got "
                + dataWidth);
        this.ports = ports;
        this.pb = log2Up(ports);
        planeTx = slave(Vec.of(ports, i -> MacStreams.tx(dataWidth))).named("plane_tx");
        portTx = master(Vec.of(ports, i -> MacStreams.tx(dataWidth))).named("port_tx");
        portRx = slave(Vec.of(ports, i -> MacStreams.rx(dataWidth))).named("port_rx");
        planeRx = master(Vec.of(ports, i -> MacStreams.rx(dataWidth))).named("plane_rx");
        linkUp = in(bits(ports)).named("link_up");
        freeCells = in(Vec.of(ports, i -> uint(bitsFor(cells)))).named("free_cells");
        unordered = in(bool()).named("unordered");
        planeLive = out(bits(ports)).named("plane_live");
        rewind = out(bits(ports)).named("rewind");
        moveEpoch = out(Vec.of(ports, i -> bits(SueFramer.RH_MOVE_BITS))).named("move_epoch");
        planeRoute = in(Vec.of(ports, i -> new FramePort(ports))).named("plane_route");
        peerRoute = master(Vec.of(ports, i -> Flow.of(PeerRoute::new))).named("peer_route");
        cfg.ready.set(TRUE);

        Bool modeWrite = cfg.valid.and(cfg.addr.eq(TxDispatcher.ADDR_PORT_MODE)).named("mode_write");
        List<Bool> live = reachability(modeWrite);
        PeerMoves peer = new PeerMoves();
        List<Bool> ownMoved = steerTransmit(live, peer);
        for (int p = 0; p < ports; p++) {
            portRx.get(p).tready.set(TRUE);
        }
        ReceiveDemux demux = new ReceiveDemux(dataWidth, encap, vlan);
        List<Ended> ended = new ArrayList<>();
        for (int q = 0; q < ports; q++) {
            ended.add(ended(demux.moves, q));
        }
        peer.update(ended, ownMoved, modeWrite);
        reportPeerRoutes(ended);
        exported = StatusWord.exportAsPorts(status);
    }

    /** The status words: per port the receive drops, per plane the frames sent on another port, the state. */
    public List<StatusWord> statusWords() {
        return exported;
    }

    /** Per plane, live (registered): its port up and its peer reachable. */
    private List<Bool> reachability(Bool modeWrite) {
        UInt time = reg("unreach_time", uint(UNREACH_TIME_BITS)).init(UNREACH_TIME_DEFAULT);
        when(cfg.valid.and(cfg.addr.eq(ADDR_UNREACH_TIME)), () -> time.set(cfg.data.slice(UNREACH_TIME_BITS - 1, 0)
                .asUInt()));
        Bool timeOn = reg("unreach_on", bool()).init(UNREACH_TIME_DEFAULT != 0);
        timeOn.set(time.ne(0));
        List<Bool> live = new ArrayList<>();
        List<Bool> unreachable = new ArrayList<>();
        for (int q = 0; q < ports; q++) {
            UInt free = freeCells.get(q);
            UInt freeQ = regNext(free).named("free_q_" + q);
            UInt freeMax = reg("free_max_" + q, uint(free.width())).init(0);
            when(freeQ.gt(freeMax), () -> freeMax.set(freeQ));
            Bool progress = reg("acked_" + q, bool()).init(false);
            progress.set(free.gt(freeQ));
            Bool holding = reg("holding_" + q, bool()).init(false);
            holding.set(freeQ.lt(freeMax));
            // a down-counter from UNREACH_TIME, reloaded by progress or an idle plane
            UInt left = reg("unreach_left_" + q, uint(UNREACH_TIME_BITS)).init(UNREACH_TIME_DEFAULT);
            Bool waiting = holding.andNot(progress).and(unordered).named("unreach_waiting_" + q);
            left.set(mux(waiting, mux(left.eq(0), left, left.sub(1)), time));
            Bool upQ = regNext(linkUp.bit(q)).named("link_up_q_" + q);
            Bool lost = reg("unreachable_" + q, bool()).init(false);
            when(waiting.and(left.eq(1)).and(timeOn), () -> lost.set(TRUE));
            when(upQ.ne(linkUp.bit(q)).or(modeWrite), () -> lost.set(FALSE));
            Bool l = reg("live_" + q, bool()).init(false);
            l.set(linkUp.bit(q).andNot(lost));
            live.add(l);
            unreachable.add(lost);
        }
        List<Bool> liveMsbFirst = new ArrayList<>(live);
        java.util.Collections.reverse(liveMsbFirst);
        planeLive.set(cat(liveMsbFirst));
        List<Bool> lostMsbFirst = new ArrayList<>(unreachable);
        java.util.Collections.reverse(lostMsbFirst);
        status.add(new StatusWord("steer.unreachable", cat(lostMsbFirst).asUInt()));
        return live;
    }

    /**
     * Each plane's port (changed between its frames) and each port's frame-boundary arbiter; per
     * plane, whether this end's own choice of port changed this cycle.
     */
    private List<Bool> steerTransmit(List<Bool> live, PeerMoves peer) {
        List<Bool> ownMoved = new ArrayList<>();
        List<UInt> target = new ArrayList<>();
        List<Bool> planeMid = new ArrayList<>();
        List<Bool> rewinds = new ArrayList<>();
        for (int q = 0; q < ports; q++) {
            target.add(reg("target_" + q, uint(pb)).init(q));
            planeMid.add(reg("plane_mid_" + q, bool()).init(false));
        }
        // grant[p][q]: port p takes plane q's beats (its owner, its frame for port p)
        List<UInt> owner = new ArrayList<>();
        List<List<Bool>> grant = new ArrayList<>();
        for (int p = 0; p < ports; p++) {
            UInt o = reg("owner_" + p, uint(pb)).init(p);
            owner.add(o);
            List<Bool> row = new ArrayList<>();
            for (int q = 0; q < ports; q++) {
                row.add(o.eq(q).and(forPort(q, p, target)).named("grant_" + p + "_" + q));
            }
            grant.add(row);
        }
        for (int p = 0; p < ports; p++) {
            AxiStream out = portTx.get(p);
            UInt o = owner.get(p);
            Bool valid = FALSE;
            for (int q = 0; q < ports; q++) {
                valid = valid.or(grant.get(p).get(q).and(planeTx.get(q).tvalid));
            }
            out.tvalid.set(valid.named("port_valid_" + p));
            List<Bits> data = new ArrayList<>();
            List<Bits> keep = new ArrayList<>();
            List<Bool> last = new ArrayList<>();
            List<Bits> user = new ArrayList<>();
            for (int q = 0; q < ports; q++) {
                data.add(planeTx.get(q).tdata);
                keep.add(planeTx.get(q).tkeep);
                last.add(planeTx.get(q).tlast);
                user.add(planeTx.get(q).tuser);
            }
            out.tdata.set(Vec.of(data).get(o));
            out.tkeep.set(Vec.of(keep).get(o));
            out.tlast.set(Vec.of(last).get(o));
            out.tuser.set(Vec.of(user).get(o));
            Bool fire = valid.and(out.tready);
            Bool mid = reg("port_mid_" + p, bool()).init(false);
            Bool midNext = mux(fire, out.tlast.not(), mid);
            mid.set(midNext);
            // between frames, with no beat offered and not taken: the next plane steered here that asks
            Bool free = midNext.not().and(valid.not().or(fire)).named("port_free_" + p);
            List<Bool> asks = new ArrayList<>();
            List<UInt> who = new ArrayList<>();
            for (int k = 1; k < ports; k++) {
                UInt q = o.add(k).resize(pb);
                List<Bool> req = new ArrayList<>();
                for (int r = 0; r < ports; r++) {
                    req.add(forPort(r, p, target).and(planeTx.get(r).tvalid));
                }
                asks.add(Vec.of(req).get(q));
                who.add(q);
            }
            UInt next = o;
            for (int k = ports - 2; k >= 0; k--) {
                next = mux(asks.get(k), who.get(k), next);
            }
            UInt chosen = next.named("port_next_owner_" + p);
            when(free, () -> o.set(chosen));
        }
        for (int q = 0; q < ports; q++) {
            AxiStream in = planeTx.get(q);
            Bool ready = FALSE;
            for (int p = 0; p < ports; p++) {
                ready = ready.or(grant.get(p).get(q).and(portTx.get(p).tready));
            }
            in.tready.set(ready.named("plane_ready_" + q));
            Bool fire = in.tvalid.and(ready);
            Bool mid = planeMid.get(q);
            Bool midNext = mux(fire, in.tlast.not(), mid);
            mid.set(midNext);
            // this end's own choice: the plane's port while live (or in strict mode), else the next
            // live one after it
            UInt want = U(q, pb);
            for (int k = ports - 1; k >= 1; k--) {
                int r = (q + k) % ports;
                want = mux(live.get(r), U(r, pb), want);
            }
            UInt own = mux(unordered.not().or(live.get(q)), U(q, pb), want).named("target_own_" + q);
            ownMoved.add(own.ne(regNext(own).named("target_own_prev_" + q)));
            // following the peer (DESIGN-PORTS.md, "Follow"): only while the plane's own port is live,
            // so this end's own reasons to move come first
            Bool follows = unordered.and(live.get(q)).and(peer.valid.get(q))
                    .and(Vec.of(live).get(peer.port.get(q))).named("target_follows_" + q);
            UInt wantQ = reg("target_want_" + q, uint(pb)).init(q);
            wantQ.set(mux(follows, peer.port.get(q), own));
            Bool wantOwnQ = reg("target_want_own_" + q, bool()).init(true);
            wantOwnQ.set(follows.not());
            // the plane's port moved away from a port that is not live: what that port took since the
            // last acknowledgement is lost, so the plane rewinds now (not at its next timeout). From
            // registers a cycle later: the old port's live bit is read then (a port back within that
            // cycle costs a needless rewind, which go-back-N tolerates). A follow rewinds too: the peer
            // moves when it got no ACKs over the old port (this end's frames lost there) or that port
            // went down, which this end may not have found yet (after a return home: resends only)
            UInt wantPrev = regNext(wantQ).named("target_want_prev_" + q);
            Bool rw = reg("rewind_" + q, bool()).init(false);
            rw.set(wantQ.ne(wantPrev).and(Vec.of(live).get(wantPrev).not().or(wantOwnQ.not())));
            rewinds.add(rw);
            UInt t = target.get(q);
            Bits epoch = reg("own_moves_" + q, bits(SueFramer.RH_MOVE_BITS)).init(0);
            Bool between = midNext.not().and(in.tvalid.not().or(fire)).named("plane_between_" + q);
            when(between, () -> t.set(wantQ));
            // a move of this end's own: frames whose RH is built from now on leave after it, on the new port
            Bits epochNext = epoch.asUInt().add(1).resize(SueFramer.RH_MOVE_BITS).asBits();
            when(between.and(t.ne(wantQ)).and(wantOwnQ), () -> epoch.set(epochNext));
            moveEpoch.get(q).set(epoch);
            Bool away = fire.and(in.tlast).andNot(forPort(q, q, target)).named("frame_away_" + q);
            status.add(new StatusWord("steer.tx_away" + q, Counter.saturating("cnt_tx_away_" + q,
                    StatusWord.BITS, away)));
        }
        List<Bits> targets = new ArrayList<>();
        for (int q = ports - 1; q >= 0; q--) {
            targets.add(target.get(q).asBits());
        }
        List<Bool> rewindMsbFirst = new ArrayList<>(rewinds);
        java.util.Collections.reverse(rewindMsbFirst);
        rewind.set(cat(rewindMsbFirst));
        status.add(new StatusWord("steer.targets", cat(targets).asUInt()));
        return ownMoved;
    }

    /** Per plane, the frame of it that ended this cycle, as a {@link PeerRoute}, registered. */
    private void reportPeerRoutes(List<Ended> endedPerPlane) {
        for (int q = 0; q < ports; q++) {
            Ended ended = endedPerPlane.get(q);
            Flow<PeerRoute> out = peerRoute.get(q);
            out.valid.set(regNext(ended.seen().and(unordered)).named("peer_route_valid_" + q));
            out.payload.source.set(regNext(ended.source()).named("peer_route_source_" + q));
            out.payload.count.set(regNext(ended.connCount()).named("peer_route_count_" + q));
            out.payload.port.set(regNext(ended.port().resize(ConnMove.BITS)).named("peer_route_port_" + q));
        }
    }

    /** The frame of plane q that ended this cycle on the lowest port ending one ({@code seen}), and that port. */
    private record Ended(Bool seen, Bits epoch, UInt source, Bits connCount, UInt port) {}

    private Ended ended(List<Move> moves, int q) {
        Bool seen = FALSE;
        Bits epoch = B(0, SueFramer.RH_MOVE_BITS);
        UInt source = U(0, 10);
        Bits count = B(0, ConnMove.BITS);
        UInt from = U(0, pb);
        for (int p = ports - 1; p >= 0; p--) {
            Move m = moves.get(p);
            Bool here = m.valid().and(m.plane().eq(q));
            seen = seen.or(here);
            epoch = mux(here, m.epoch(), epoch);
            source = mux(here, m.source(), source);
            count = mux(here, m.connCount(), count);
            from = mux(here, U(p, pb), from);
        }
        return new Ended(seen, epoch, source, count, from);
    }

    /**
     * Plane q's frame is for port p: its connection's route names p (a live port, from the framer's
     * register, constant through the frame), or it names none and the plane is steered to p.
     */
    private Bool forPort(int q, int p, List<UInt> target) {
        FramePort route = planeRoute.get(q);
        return mux(route.moved, route.to.bit(p), target.get(q).eq(p));
    }

    /**
     * A frame that ended without a MAC error: its RH {@code plane} and {@code move} fields, its
     * sender's xpuid and {@code conn_move} field (registered; the port it arrived on is its index in
     * the list).
     */
    private record Move(Bool valid, UInt plane, Bits epoch, UInt source, Bits connCount) {}

    /**
     * Where the peer has moved each plane (DESIGN-PORTS.md, "Follow"): a frame of plane q whose move
     * count is newer than the last one seen (one or two ahead, modulo 4; an older one is a
     * straggler from before the peer's last move) names the port the peer now uses for q. It is
     * taken when two such frames in a row agree on count and port (a count corrupted in a frame the
     * receive path will drop must not move the plane), and kept until this end's own choice of port
     * changes or {@code PORT_MODE} is written.
     */
    private final class PeerMoves {
        final List<Bool> valid = new ArrayList<>();
        final List<UInt> port = new ArrayList<>();

        PeerMoves() {
            for (int q = 0; q < ports; q++) {
                valid.add(reg("follow_valid_" + q, bool()).init(false));
                port.add(reg("follow_port_" + q, uint(pb)).init(q));
            }
        }

        /**
         * @param endedPerPlane per plane, its frame that ended this cycle (registered)
         * @param ownMoved      per plane, this end's own choice of port changed
         */
        void update(List<Ended> endedPerPlane, List<Bool> ownMoved, Bool modeWrite) {
            List<Bool> follows = new ArrayList<>();
            for (int q = 0; q < ports; q++) {
                final int plane = q;
                Bits last = reg("follow_epoch_" + q, bits(SueFramer.RH_MOVE_BITS)).init(0);
                Bool candValid = reg("follow_cand_valid_" + q, bool()).init(false);
                Bits candEpoch = reg("follow_cand_epoch_" + q, bits(SueFramer.RH_MOVE_BITS)).init(0);
                UInt candPort = reg("follow_cand_port_" + q, uint(pb)).init(0);
                Ended ended = endedPerPlane.get(plane);
                Bool seen = ended.seen();
                Bits epoch = ended.epoch();
                UInt from = ended.port();
                Bits ahead = epoch.asUInt().sub(last.asUInt()).resize(SueFramer.RH_MOVE_BITS).asBits();
                Bool newer = seen.and(ahead.bit(0).xor(ahead.bit(1))).named("follow_newer_" + q);
                Bool confirm = newer.and(candValid).and(candEpoch.eq(epoch)).and(candPort.eq(from))
                        .named("follow_confirm_" + q);
                UInt target = from;
                Bits count = epoch;
                when(newer, () -> {
                    candValid.set(confirm.not());
                    candEpoch.set(count);
                    candPort.set(target);
                });
                when(confirm, () -> {
                    last.set(count);
                    port.get(plane).set(target);
                });
                valid.get(q).set(mux(confirm, TRUE, mux(ownMoved.get(q).or(modeWrite), FALSE, valid.get(q))));
                follows.add(valid.get(q));
            }
            List<Bool> msbFirst = new ArrayList<>(follows);
            java.util.Collections.reverse(msbFirst);
            status.add(new StatusWord("steer.follows", cat(msbFirst).asUInt()));
        }
    }

    /** Each port's frames to the plane of their RH plane field, through a FIFO that holds them until it is known. */
    private final class ReceiveDemux {
        /** Per port: the RH move field of a frame that ended this cycle without a MAC error. */
        final List<Move> moves = new ArrayList<>();

        ReceiveDemux(int dataWidth, Encapsulation encap, boolean vlan) {
            int bytes = dataWidth / 8;
            int hdr = encap.headerBytes(vlan);
            int fieldAt = hdr + 4;  // RH byte 4: vc[1:0] plane[1:0] rsvd[1:0] partition[9:8]
            int fieldBeat = fieldAt / bytes;
            int fieldBit = 8 * (fieldAt % bytes) + 4;
            int typeAt = switch (encap) {
                case AFH2_NORMAL, AFH2_COMPRESSED -> hdr - 2;
                default -> vlan ? 16 : 12;
            };
            int type = switch (encap) {
                case STD_IPV4 -> 0x0800;
                case STD_IPV6 -> 0x86DD;
                case AFH1_SHIM -> 0x88B6;
                default -> 0x88B5;
            };
            int typeBeat = typeAt / bytes;
            int typeBit = 8 * (typeAt % bytes);
            int idxBits = bitsFor(fieldBeat + 1);
            int depth = fieldBeat + 2;

            List<Bool> busy = new ArrayList<>();
            for (int q = 0; q < ports; q++) {
                busy.add(reg("rx_busy_" + q, bool()).init(false));
            }
            List<List<Bool>> fwd = new ArrayList<>();
            List<MacRxBeat> heads = new ArrayList<>();
            List<Bool> lastFwd = new ArrayList<>();
            List<Bool> startsBefore = new ArrayList<>();
            List<UInt> startPlanes = new ArrayList<>();
            for (int p = 0; p < ports; p++) {
                final int port = p;
                AxiStream in = portRx.get(p);
                StreamFifo<MacRxBeat> hold = instance("rx_hold_" + p, () -> new StreamFifo<>(
                        () -> new MacRxBeat(dataWidth), depth, FifoStorage.REGISTERS, depth));
                hold.s.valid.set(in.tvalid);
                hold.s.payload.data.set(in.tdata);
                hold.s.payload.keep.set(in.tkeep);
                hold.s.payload.last.set(in.tlast);
                hold.s.payload.err.set(in.tuser.bit(0));
                assertThat(in.tvalid.not().or(hold.s.ready), "port " + p + ": a frame's hold FIFO overflowed");

                // the frame's plane, from the beats entering the FIFO
                UInt idx = reg("rx_idx_" + p, uint(idxBits)).init(0);
                when(in.tvalid, () -> idx.set(mux(in.tlast, U(0, idxBits),
                        mux(idx.eq(fieldBeat + 1), idx, idx.add(1)))));
                Bool typeHere = in.tdata.slice(typeBit + 7, typeBit).eq(type >> 8)
                        .and(in.tdata.slice(typeBit + 15, typeBit + 8).eq(type & 0xFF));
                Bool typeSeen = reg("rx_type_ok_" + p, bool()).init(false);
                when(in.tvalid.and(idx.eq(typeBeat)), () -> typeSeen.set(typeHere));
                Bool typeOk = typeBeat == fieldBeat ? typeHere : typeSeen;
                UInt field = in.tdata.slice(fieldBit + 1, fieldBit).asUInt().named("rx_field_" + p);
                Bool byField = idx.eq(fieldBeat).and(typeOk).and(ports == 4 ? TRUE : field.lt(ports));
                Bool decide = in.tvalid.and(idx.eq(fieldBeat).or(in.tlast.and(idx.lt(fieldBeat))))
                        .named("rx_decide_" + p);
                moves.add(peerMove(p, in, idx, fieldBeat, fieldBit, byField, hdr));
                UInt decided = mux(byField, field.resize(pb), U(p, pb));
                Bool pending = reg("rx_pending_" + p, bool()).init(false);
                UInt pendingPlane = reg("rx_pending_plane_" + p, uint(pb)).init(0);

                // the FIFO's head: a frame starts when its plane is known, then every beat leaves
                MacRxBeat head = hold.m.payload;
                Bool inFrame = reg("rx_in_frame_" + p, bool()).init(false);
                UInt curPlane = reg("rx_plane_" + p, uint(pb)).init(0);
                Bool curDrop = reg("rx_dropping_" + p, bool()).init(false);
                Bool pop = hold.m.valid.and(inFrame.or(pending)).named("rx_pop_" + p);
                hold.m.ready.set(pop);
                Bool start = hold.m.valid.andNot(inFrame).and(pending).named("rx_start_" + p);
                Bool conflict = Vec.of(busy).get(pendingPlane);
                for (int e = 0; e < p; e++) {
                    conflict = conflict.or(startsBefore.get(e).and(startPlanes.get(e).eq(pendingPlane)));
                }
                Bool clash = conflict.named("rx_conflict_" + p);
                startsBefore.add(start);
                conflict = clash;
                startPlanes.add(pendingPlane);
                assertThat(decide.not().or(pending.not()).or(start), "port " + port + ": two frames wait for their plane");
                pending.set(mux(decide, TRUE, mux(start, FALSE, pending)));
                when(decide, () -> pendingPlane.set(decided));
                UInt plane = mux(inFrame, curPlane, pendingPlane);
                Bool drop = mux(inFrame, curDrop, clash);
                when(start, () -> {
                    curPlane.set(pendingPlane);
                    curDrop.set(clash);
                });
                inFrame.set(mux(pop, head.last.not(), inFrame));
                List<Bool> row = new ArrayList<>();
                for (int q = 0; q < ports; q++) {
                    row.add(pop.andNot(drop).and(plane.eq(q)).named("rx_fwd_" + p + "_" + q));
                }
                fwd.add(row);
                heads.add(head);
                lastFwd.add(pop.andNot(drop).and(head.last));
                status.add(new StatusWord("steer.rx_drop" + p, Counter.saturating("cnt_rx_drop_" + p,
                        StatusWord.BITS, start.and(clash))));
            }
            demuxToPlanes(dataWidth, busy, fwd, heads, lastFwd, startsBefore);
        }

        /**
         * The frame's move field, taken at its plane field's beat, and its sender's xpuid and
         * connection move count (RH bytes 0-1), taken at their beats; reported at its last beat
         * (registered).
         */
        private Move peerMove(int p, AxiStream in, UInt idx, int fieldBeat, int fieldBit, Bool byField, int rhAt) {
            int bytes = in.tdata.width() / 8;
            Bits moveHere = in.tdata.slice(fieldBit - 1, fieldBit - SueFramer.RH_MOVE_BITS);
            UInt fieldHere = in.tdata.slice(fieldBit + 1, fieldBit).asUInt().resize(pb);
            Bool okQ = reg("rx_move_ok_" + p, bool()).init(false);
            Bits epochQ = reg("rx_move_epoch_" + p, bits(SueFramer.RH_MOVE_BITS)).init(0);
            UInt planeQ = reg("rx_move_plane_" + p, uint(pb)).init(0);
            Bool atField = idx.eq(fieldBeat);
            when(in.tvalid.and(atField), () -> {
                okQ.set(byField);
                epochQ.set(moveHere);
                planeQ.set(fieldHere);
            });
            Bool ok = mux(atField, byField, idx.gt(fieldBeat).and(okQ));
            Bool valid = reg("rx_move_valid_" + p, bool()).init(false);
            valid.set(in.tvalid.and(in.tlast).andNot(in.tuser.bit(0)).and(ok));
            Bits epoch = regNext(mux(atField, moveHere, epochQ)).named("rx_move_epoch_q_" + p);
            UInt plane = regNext(mux(atField, fieldHere, planeQ)).named("rx_move_plane_q_" + p);
            // RH byte 0: ver[1:0] op[1:0] conn_move[1:0] xpuid[9:8]; byte 1: xpuid[7:0]
            Bits byte0 = rhByte(p, in, idx, rhAt, bytes, "rx_rh0_");
            Bits byte1 = rhByte(p, in, idx, rhAt + 1, bytes, "rx_rh1_");
            UInt source = regNext(cat(byte0.slice(1, 0), byte1).asUInt()).named("rx_source_q_" + p);
            Bits connCount = regNext(byte0.slice(3, 2)).named("rx_conn_move_q_" + p);
            return new Move(valid, plane, epoch, source, connCount);
        }

        /** Byte {@code at} of the frame: from the beat holding it, or the register that kept it since. */
        private Bits rhByte(int p, AxiStream in, UInt idx, int at, int bytes, String name) {
            int beat = at / bytes;
            Bits here = in.tdata.slice(8 * (at % bytes) + 7, 8 * (at % bytes));
            Bits kept = reg(name + p, bits(8)).init(0);
            Bool atBeat = idx.eq(beat);
            when(in.tvalid.and(atBeat), () -> kept.set(here));
            return mux(atBeat, here, kept);
        }

        private void demuxToPlanes(int dataWidth, List<Bool> busy, List<List<Bool>> fwd, List<MacRxBeat> heads,
                List<Bool> lastFwd, List<Bool> startsBefore) {
            for (int q = 0; q < ports; q++) {
                Bool any = FALSE;
                Bool ends = FALSE;
                Bool starts = FALSE;
                for (int p = 0; p < ports; p++) {
                    Bool f = fwd.get(p).get(q);
                    any = any.or(f);
                    ends = ends.or(f.and(lastFwd.get(p)));
                    starts = starts.or(f.and(startsBefore.get(p)).andNot(heads.get(p).last));
                }
                Bool b = busy.get(q);
                b.set(starts.or(b.andNot(ends)));
                // registered beat to the plane: an AND-OR over the ports (one forwards to q at a time)
                Bits data = B(0, dataWidth);
                Bits keep = B(0, dataWidth / 8);
                Bool last = FALSE;
                Bool err = FALSE;
                for (int p = 0; p < ports; p++) {
                    Bool f = fwd.get(p).get(q);
                    MacRxBeat h = heads.get(p);
                    data = data.or(mux(f, h.data, B(0, dataWidth)));
                    keep = keep.or(mux(f, h.keep, B(0, dataWidth / 8)));
                    last = last.or(f.and(h.last));
                    err = err.or(f.and(h.err));
                }
                AxiStream out = planeRx.get(q);
                Bool validQ = reg("rx_out_valid_" + q, bool()).init(false);
                validQ.set(any);
                out.tvalid.set(validQ);
                assertThat(validQ.not().or(out.tready), "plane " + q + ": its receive path did not take a beat");
                out.tdata.set(regNext(data).named("rx_out_data_" + q));
                out.tkeep.set(regNext(keep).named("rx_out_keep_" + q));
                out.tlast.set(regNext(last).named("rx_out_last_" + q));
                Bits errQ = regNext(cat(err));
                out.tuser.set(errQ.named("rx_out_err_" + q));
            }
        }
    }
}
