// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.encap.RhFields;
import dev.sue.rtl.encap.SueFramer;
import dev.sue.rtl.pdu.AckReq;
import dev.sue.rtl.pdu.CellFree;
import dev.sue.rtl.pdu.PeerAck;
import dev.sue.rtl.pdu.ReplayReq;
import dev.sue.rtl.pdu.PduDesc;
import dev.sue.rtl.pdu.TxPdu;
import dev.sue.rtl.queue.TxQueueManager;

/**
 * Transmit reliability (go-back-N, DESIGN-RELIABILITY.md "Transmit side"): sits between the queue
 * manager (built with {@code replayStore}) and the framer; it assigns PSNs and carries ACK
 * information.
 * The cell buffer is the replay store: a sent PDU stays in its cells, named by its first cell,
 * until the peer acknowledges it.
 *
 * <h2>Parameters</h2>
 * {@code dataWidth} (256, 512, 1024: the data stream it gates), {@code xpus} (2..1024
 * connections, one per destination on the single port), {@code cells} (the queue manager's cell
 * count: the descriptor pool has one entry per cell, since every kept
 * PDU owns a distinct first cell), {@code windowMax} (1..16384: the largest WINDOW accepted).
 *
 * <h2>Ports</h2>
 * <ul>
 * <li>{@code s} (slave {@link TxPdu}) / {@code s_data}: the queue manager's PDU stream (new
 *     PDUs and replays); {@code hdr_req}, {@code hdr_room}, {@code rh} / {@code m_data}: to the
 *     framer ({@link SueFramer}'s ports of those names). {@code s} must come from registers (in
 *     {@code sue_tx} the queue manager's desc FIFO): the engine's issue stage takes it directly.
 *     The issue stage asks the framer for the PDU's header ({@code hdr_req}: dest, VC, length)
 *     when it takes a descriptor or sends an empty PDU, only while {@code hdr_room} is high (the
 *     framer's slots are the engine's output places); the decide stage gives the RH fields
 *     ({@code rh}: PSN, ACK information) {@link #DESC_LATENCY} = 2 cycles later, or withdraws the
 *     header ({@code cancel}: an error drop, a stale replay, an empty PDU whose information was
 *     taken by a PDU just ahead). {@code
 *     m_data} is {@code s_data} through a full register (valid, payload and ready registered),
 *     the beats of dropped PDUs swallowed (a 1-bit verdict per descriptor, 8 deep, known a cycle
 *     before the RH fields leave).</li>
 * <li>{@code replay} (master {@link ReplayReq}), {@code free} (master {@link CellFree}): to the
 *     queue manager (4- and 8-deep FIFOs).</li>
 * <li>{@code win} (master Flow {dest, open}): window state per connection to the scheduler:
 *     closed while {@code next_psn - una >= WINDOW} or rewinding; reopened at
 *     {@code next_psn - una < WINDOW - WINDOW/4} (hysteresis: fewer wake-ups); always open in
 *     error (queued PDUs drain and are dropped). Only changes are sent, three cycles after the
 *     engine's decide stage ({@link WindowFlow}).</li>
 * <li>{@code peer_ack} (slave Flow {@link PeerAck}): ACK(rpsn) / NACK(rpsn) from the receive
 *     path, registered on entry and once more in {@link PeerAckQueue} (whose per-peer bit is read
 *     between the two registers). One message per peer waits in a RAM, the peers with a message in a FIFO (each at most
 *     once): a message for a peer that already has one waiting is merged into it, keeping the
 *     newer by "acknowledged up to" (NACK(r) counts as r - 1, a NACK wins a tie; messages may
 *     arrive out of order), counted in {@code cnt_ack_merged}. ACKs are cumulative, so nothing is
 *     lost, and nothing overflows.</li>
 * <li>{@code ack_req} (slave Flow {@link AckReq}): ACK info to carry to a peer on its next PDU
 *     ({@link AckInfoTable}), registered on entry and once more in the table (as {@code peer_ack});
 *     if no PDU to the peer leaves within ACK_PIGGYBACK_WAIT cycles
 *     (and up to one more) an empty PDU (length 0, the peer's next PSN, not consumed) carries
 *     it.</li>
 * <li>{@code cfg_valid, cfg_addr, cfg_data, cfg_ready}: 0x0220 WINDOW (1..windowMax, default
 *     min(64, windowMax)), 0x0221 RTO (cycles, 1..2^23-1, default 8192), 0x0222 RETRY_LIMIT
 *     (0..255, default 7), 0x0223 ACK_PIGGYBACK_WAIT (0..32767, default 64); bad values ignored
 *     and counted in {@code cnt_bad_cfg} (a cycle after the write). Per connection d: {@code 0x4000|d<<4|3} NEXT_PSN
 *     (re-initialises an idle connection: next and oldest unacknowledged PSN), {@code
 *     0x4000|d<<4|9} CONN: re-initialises a connection in error whose PDUs are all freed
 *     (data[15:0] = new PSN), clearing the error. {@code cfg_ready} is low while a per-connection
 *     write waits for the engine (a few cycles) and during the reset sweep.</li>
 * <li>{@code conn_err} (master Flow, 10 bits): a connection entered the error state.
 *     {@code state_dest} (in) / {@code state} (out, {error, rewinding}): the sticky per-connection
 *     state, read combinationally.</li>
 * <li>Counters (32-bit saturating): {@code cnt_pdus} (new PDUs sent), {@code cnt_retx}
 *     (retransmitted PDUs sent), {@code cnt_ack_used/stale}, {@code cnt_nack_used/stale},
 *     {@code cnt_timeouts}, {@code cnt_retry_err}, {@code cnt_err_drop_ops} (ops dropped because
 *     their connection is in error), {@code cnt_empty} (empty PDUs), {@code cnt_stale_replay}
 *     (replays dropped because their PSN was acknowledged meanwhile), {@code cnt_ack_merged},
 *     {@code cnt_bad_cfg}.</li>
 * </ul>
 *
 * <h2>Structure</h2>
 * <ul>
 * <li>{@link ConnectionTable}, the PSN table: per connection one {@link ConnState} word {next
 *     PSN, una, head, tail, resend, resend PSN, rewinding, error, retries, deadline} in a RAM
 *     with a registered read, forwarding the writes in flight; {@link DescriptorPool}: {len, vc}
 *     and the next pointer per kept PDU, indexed by its first cell.</li>
 * <li>{@link TxRelEngine}, the only writer of both: one event per cycle in three stages (issue
 *     by {@link EngineIssue}, read, decide): a per-connection configuration write, an empty PDU,
 *     one descriptor popped by an ACK/NACK/drain job (its cells freed), a new PDU (PSN, append),
 *     a replay's staleness check, one replay request of a rewinding connection, or one
 *     timer-scan visit. A new PDU and a job step alternate when both want the cycle.</li>
 * <li>{@link PeerAckQueue} (peer messages waiting for the job register), {@link AckInfoTable}
 *     (ACK information for PDUs to each peer, the empty-PDU timer), {@link WindowFlow} (the
 *     scheduler's windows), {@link TxRelConfig} (configuration registers).</li>
 * </ul>
 * Every register-to-register path is within the project's 8 logic levels: no path has two RAM
 * reads in series, and each decision is computed from registers.
 *
 * <h2>Timing</h2>
 * RH fields {@link #DESC_LATENCY} cycles after the header request; one descriptor per cycle (back-to-back PDUs to one
 * destination included; a replay waits a cycle behind an event on its connection). The timer
 * scan visits one connection per free engine cycle; a connection with outstanding PDUs whose
 * deadline (set to now + RTO on every send to an empty window, ACK progress and rewind) has
 * passed rewinds (retries + 1), or enters error when retries already reached RETRY_LIMIT: its
 * descriptors are freed by a drain job, its queued PDUs drop here as they arrive (cells freed,
 * ops counted, credits returned by the queue manager as usual). Replays of PDUs acknowledged
 * while queued are dropped at the output.
 * With {@code rewind_all} (a multi-port endpoint's plane) a pulse makes the next {@code xpus} visits
 * treat every deadline as passed: each connection with outstanding PDUs rewinds, not counted as a retry.
 */
public final class TxReliability extends Component {
    public static final int ADDR_WINDOW = 0x0220;
    public static final int ADDR_RTO = 0x0221;
    public static final int ADDR_RETRY_LIMIT = 0x0222;
    public static final int ADDR_ACK_WAIT = 0x0223;
    /**
     * Word of {@code CONN_MOVE_RETRIES} (a multi-port endpoint's): in unordered mode a connection's
     * timeout once it has had this many minus one without progress moves it to the next live port;
     * 0 = never (sue-rtl/DESIGN-PORTS.md, "Failover per connection").
     */
    public static final int ADDR_CONN_MOVE_RETRIES = 0x0252;
    /** Two timeouts: one lost PDU or ACK costs one, a port that loses everything the next. */
    public static final int CONN_MOVE_DEFAULT = 2;
    public static final int T_NEXT_PSN = 0x3;
    public static final int T_CONN = 0x9;
    public static final int RTO_DEFAULT = 8192;
    public static final int RETRY_DEFAULT = 7;
    public static final int ACK_WAIT_DEFAULT = 64;
    static final int TW = 24;
    /** Cycles from a header request on {@code hdr_req} to its RH fields on {@code rh} (issue, read; decide): {@link SueFramer#RH_DELAY}. */
    public static final int DESC_LATENCY = 2;

    public final Stream<TxPdu> s;
    public final Stream<PacketBeat> sData;
    public final Flow<PduDesc> hdrReq;
    public final Bool hdrRoom = in(bool());
    public final Flow<RhFields> rh;
    public final Stream<PacketBeat> mData;
    public final Stream<ReplayReq> replay;
    public final Stream<CellFree> free;
    public final Flow<TxQueueManager.Window> win;
    public final Flow<PeerAck> peerAck;
    public final Flow<AckReq> ackReq;
    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());
    public final Flow<UInt> connErr;
    public final UInt stateDest = in(uint(10));
    public final Bits state = out(bits(2));
    public final UInt cntPdus = out(uint(32));
    public final UInt cntRetx = out(uint(32));
    public final UInt cntAckUsed = out(uint(32));
    public final UInt cntAckStale = out(uint(32));
    public final UInt cntNackUsed = out(uint(32));
    public final UInt cntNackStale = out(uint(32));
    public final UInt cntTimeouts = out(uint(32));
    public final UInt cntRetryErr = out(uint(32));
    public final UInt cntErrDropOps = out(uint(32));
    public final UInt cntEmpty = out(uint(32));
    public final UInt cntStaleReplay = out(uint(32));
    public final UInt cntAckMerged = out(uint(32));
    public final UInt cntBadCfg = out(uint(32));
    /** A multi-port plane's: connections moved to another port (else null). */
    public final UInt cntConnMoves;

    /**
     * A multi-port plane's ({@code ports} > 1): {@code rewind_all} (in, a one-cycle pulse, else
     * absent): rewind every connection with unacknowledged PDUs now, as if its deadline had passed,
     * without counting a retry (a plane whose port changed, sue-rtl/DESIGN-PORTS.md "Failover").
     */
    public final Bool rewindAll;
    /**
     * A multi-port endpoint's plane ({@code ports} > 1; else null): {@code port_live} (in, a bit per
     * port, registered: the port is up and its plane's peer reachable, {@code PortSteer.planeLive}) and
     * {@code unordered} (in, {@code PORT_MODE.unordered}): a connection's timeout moves it to the next
     * live port after its current one (its {@link ConnMove}) once it has had {@code CONN_MOVE_RETRIES}
     * - 1 timeouts without progress, in unordered mode.
     */
    public final Bits portLive;
    public final Bool unordered;
    /** A multi-port plane's (else null): the plane's frames from peers, for the follow per connection ({@link PeerRoute}). */
    public final Flow<PeerRoute> peerRoute;
    /** A multi-port plane's (else null): connections whose frames now follow the peer's move. */
    public final UInt cntConnFollows;

    public TxReliability(int dataWidth, int xpus, int cells, int windowMax) {
        this(dataWidth, xpus, cells, windowMax, 1, 0);
    }

    /**
     * The transmit reliability of plane {@code plane} of an endpoint with {@code ports} ports: with
     * more than one, {@link #rewindAll}, {@link #portLive} and {@link #unordered} are inputs and each
     * connection's word carries its port move.
     */
    public TxReliability(int dataWidth, int xpus, int cells, int windowMax, int ports, int plane) {
        param("dataWidth", dataWidth);
        param("xpus", xpus);
        param("cells", cells);
        param("windowMax", windowMax);
        boolean multiPort = ports > 1;
        if (multiPort) {
            param("ports", ports);
            param("plane", plane);
        }
        require(ports == 1 || ports == 2 || ports == 4, "ports must be 1, 2 or 4, got " + ports);
        require(plane >= 0 && plane < ports, "plane must be 0.." + (ports - 1) + ", got " + plane);
        require(dataWidth == 256 || dataWidth == 512 || dataWidth == 1024,
                "dataWidth must be 256, 512 or 1024, got " + dataWidth);
        require(xpus >= 2 && xpus <= 1024, "xpus must be 2..1024, got " + xpus);
        require(cells >= 2 && cells <= 65536, "cells must be 2..65536, got " + cells);
        require(windowMax >= 1 && windowMax <= 16384, "windowMax must be 1..16384 (half the PSN space at most), got "
                + windowMax);
        s = slave(Stream.of(TxPdu::new));
        sData = slave(Stream.of(() -> new PacketBeat(dataWidth)));
        hdrReq = master(Flow.of(PduDesc::new));
        rh = master(Flow.of(() -> new RhFields(multiPort)));
        mData = master(Stream.of(() -> new PacketBeat(dataWidth)));
        replay = master(Stream.of(ReplayReq::new));
        free = master(Stream.of(CellFree::new));
        win = master(Flow.of(TxQueueManager.Window::new));
        peerAck = slave(Flow.of(PeerAck::new));
        ackReq = slave(Flow.of(AckReq::new));
        connErr = master(Flow.of(() -> uint(10)));
        rewindAll = multiPort ? in(bool()).named("rewind_all") : null;
        portLive = multiPort ? in(bits(ports)).named("port_live") : null;
        unordered = multiPort ? in(bool()).named("unordered") : null;
        peerRoute = multiPort ? slave(Flow.of(PeerRoute::new)).named("peer_route") : null;
        latency(DESC_LATENCY);
        require(DESC_LATENCY == SueFramer.RH_DELAY, "internal: the framer expects the RH fields " + SueFramer.RH_DELAY
                + " cycles after the header request");
        final int xw = log2Up(xpus);

        Bool clearing = wire("sweeping", bool());
        TxRelConfig cfg = new TxRelConfig(xpus, windowMax, multiPort, cfgValid, cfgAddr, cfgData, clearing);
        cfgReady.set(cfg.ready);
        UInt now = reg("now", uint(TW)).init(0);
        now.set(now.add(1));

        // ---- the engine and its queues --------------------------------------------------------
        StreamFifo<CellFree> freeFifo = instance("free_fifo",
                () -> new StreamFifo<>(CellFree::new, 8, FifoStorage.REGISTERS, 8));
        StreamFifo<ReplayReq> replayFifo = instance("replay_fifo",
                () -> new StreamFifo<>(ReplayReq::new, 4, FifoStorage.REGISTERS, 4));
        StreamFifo<Bits> verdicts = instance("verdict_fifo",
                () -> new StreamFifo<>(() -> bits(1), 8, FifoStorage.REGISTERS, 8));
        free.connectFrom(freeFifo.m);
        replay.connectFrom(replayFifo.m);
        // the receive path's messages arrive from its logic, not from registers: registered here so
        // that the queues' bit-vector and FIFO updates start from flip-flops (an ACK a cycle later
        // costs nothing)
        Flow<PeerAck> peerAckQ = registered("peer_ack", peerAck);
        Flow<AckReq> ackReqQ = registered("ack_req", ackReq);
        PeerAckQueue peers = new PeerAckQueue(xpus, peerAckQ);
        UInt ackNextDest = wire("ack_next_dest", uint(xw));
        AckInfoTable acks = new AckInfoTable(xpus, ackReqQ, now.resize(16), cfg.ackWait, ackNextDest);
        // s comes straight from the queue manager's desc FIFO (register storage): its valid and
        // payload reach the issue logic from flip-flops through the FIFO's head multiplexer, so
        // the engine's issue stage is the only register stage it passes before the read
        TxRelEngine engine = new TxRelEngine(xpus, cells, dataWidth / 8, s, cfg, now, peers, acks, hdrReq, hdrRoom, rh,
                verdicts, freeFifo, replayFifo, rewindAll, multiPort ? new TxRelEngine.Moves(ports, plane, portLive,
                        unordered, peerRoute) : null);
        clearing.set(engine.table.clearing);
        ackNextDest.set(engine.at1.addr);
        new WindowFlow(xpus, win, engine.table.lastWen, engine.table.lastAddr, engine.table.lastWord, cfg.window);

        // ---- data: pass or swallow by the verdict of its descriptor, registered to the framer --
        Stream<PacketBeat> gated = sData.newWire("gated");
        Bool drop = verdicts.m.payload.bit(0);
        gated.valid.set(sData.valid.and(verdicts.m.valid).andNot(drop));
        assignLeaves(gated.payload, sData.payload);
        sData.ready.set(verdicts.m.valid.and(drop.or(gated.ready)));
        verdicts.m.ready.set(sData.fire().and(sData.payload.last));
        // every output registered, the framer's ready included: its data-ready decision (beats
        // taken against the head entry's count) does not reach the verdict FIFO's pop
        mData.connectFrom(gated.fullPipe());

        // ---- connection state readout, events, counters ---------------------------------------
        ConnState seen = engine.table.peek(stateDest.resize(xw));
        state.set(cat(seen.error, seen.rewinding));
        Bool connErrV = reg("conn_err_v_q", bool()).init(false);
        UInt connErrD = reg("conn_err_d_q", uint(10)).init(0);
        connErrV.set(engine.errEnter);
        connErrD.set(engine.at2.addr.resize(10));
        connErr.valid.set(connErrV);
        connErr.payload.set(connErrD);
        cntPdus.set(Counter.saturating("cnt_pdus_q", StatusWord.BITS, engine.pduSent));
        cntRetx.set(Counter.saturating("cnt_retx_q", StatusWord.BITS, engine.retxSent));
        cntEmpty.set(Counter.saturating("cnt_empty_q", StatusWord.BITS, engine.emptySent));
        cntStaleReplay.set(Counter.saturating("cnt_stale_replay_q", StatusWord.BITS, engine.staleReplay));
        cntErrDropOps.set(Counter.add("cnt_err_drop_ops_q", StatusWord.BITS, engine.errDrop, engine.at2.pdu.ops,
                Counter.Overflow.SATURATE));
        cntAckUsed.set(Counter.saturating("cnt_ack_used_q", StatusWord.BITS, engine.ackUsed));
        cntNackUsed.set(Counter.saturating("cnt_nack_used_q", StatusWord.BITS, engine.nackUsed));
        cntAckStale.set(Counter.saturating("cnt_ack_stale_q", StatusWord.BITS,
                engine.jobStale.andNot(engine.jobIsNack).or(peers.badAck)));
        cntNackStale.set(Counter.saturating("cnt_nack_stale_q", StatusWord.BITS,
                engine.jobStale.and(engine.jobIsNack).or(peers.badNack)));
        cntTimeouts.set(Counter.saturating("cnt_timeouts_q", StatusWord.BITS, engine.timedOut));
        cntRetryErr.set(Counter.saturating("cnt_retry_err_q", StatusWord.BITS, engine.errEnter));
        cntAckMerged.set(Counter.saturating("cnt_ack_merged_q", StatusWord.BITS, peers.merged));
        // counted a cycle late, each register's verdict registered on its own: the 32-bit range
        // compares on cfg_data, their OR and the counter's carry are then separate paths
        cntBadCfg.set(Counter.saturatingLate("cnt_bad_cfg_q", StatusWord.BITS, cfg.bad));
        cntConnMoves = multiPort ? out(uint(32)).named("cnt_conn_moves") : null;
        cntConnFollows = multiPort ? out(uint(32)).named("cnt_conn_follows") : null;
        if (cntConnMoves != null) {
            cntConnMoves.set(Counter.saturating("cnt_conn_moves_q", StatusWord.BITS, engine.connMoved));
            cntConnFollows.set(Counter.saturating("cnt_conn_follows_q", StatusWord.BITS, engine.connFollowed));
        }
        assertThat(s.fire().not().or(s.payload.length.ne(0)), "a PDU of length 0 from the queue manager");
    }

    /** {@code in} through a register (valid reset low): registers {@code <name>_q_*}, the flow {@code <name>_in}. */
    static <T extends Data> Flow<T> registered(String name, Flow<T> in) {
        Bool valid = reg(name + "_q_valid", bool()).init(false);
        valid.set(in.valid);
        T payload = reg(name + "_q", in.payloadType().get());
        assignLeaves(payload, in.payload);
        Flow<T> out = wire(name + "_in", in.copyType());
        out.valid.set(valid);
        assignLeaves(out.payload, payload);
        return out;
    }

    /** Emitted as {@code sue_tx_reliability}. */
    @Override
    public String moduleBaseName() {
        return "sue_tx_reliability";
    }


}
