// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.rtl.config.CfgBus;
import dev.sue.rtl.config.CfgFanout;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.encap.Encapsulation;
import dev.sue.rtl.encap.FramePort;
import dev.sue.rtl.reliability.PeerRoute;
import dev.sue.rtl.encap.SueFramer;
import dev.sue.rtl.mac.MacStreams;
import dev.sue.rtl.mac.PortSelect;
import dev.sue.rtl.reliability.TxReliability;
import dev.sue.rtl.pdu.PeerAck;
import dev.sue.rtl.pdu.AckReq;
import dev.sue.rtl.queue.TxQueueManager;
import dev.sue.rtl.xpu.XpuTxBus;
import dev.sue.rtl.xpu.XpuTxInterface;
import java.util.ArrayList;
import java.util.List;

/**
 * The SUE transmit path: XPU commands in (spec Table 1), Ethernet frames out, one MAC stream
 * per port.
 *
 * <pre>
 * tx_* -&gt; XpuTxInterface -&gt; TxQueueManager -&gt; TxReliability -&gt; SueFramer -&gt; PortSelect -&gt; mac_tx_&lt;p&gt;
 *           credits &lt;- release --+   ^  replay / free / win  |  (PSN, window, ACK/NACK, RTO, empty PDUs)
 *                                      +----------------------+
 * </pre>
 * The cell buffer is the replay store: the queue manager is built with {@code replayStore}, so a
 * PDU's cells stay allocated until the peer acknowledges it (TxReliability then returns them
 * through the queue manager's free port); credits still return to the XPU when a PDU is first
 * read, so the cells beyond the credits ({@link #creditsPerVc}) are the replay store.
 *
 * <h2>Parameters</h2>
 * <ul>
 * <li>{@code dataWidth}: 256, 512 or 1024 ({@code tx_data} and MAC bus width).
 * <li>{@code xpus}: 2..1024 destinations (per-destination queues, tables and PSNs).
 * <li>{@code vcs}: 1, 2 or 4 virtual channels; ops on {@code tx_vc >= vcs} get no credits.
 * <li>{@code cells}: cells of {@code dataWidth} bits in the shared op buffer. The XPU's credits
 *     are derived from it ({@link #creditsPerVc}): per VC, {@code cmd} command credits and as
 *     many data credits, so every op the XPU may have outstanding fits in the buffer.
 * <li>{@code encap}, {@code vlan}: the network encapsulation (ARCHITECTURE.md §5).
 * <li>{@code ports}: MAC ports (1 today).
 * <li>{@code windowMax}: largest per-connection WINDOW the configuration accepts (default 1024).
 * </ul>
 *
 * <h2>Ports</h2>
 * <ul>
 * <li>XPU side ({@link XpuTxBus}): {@code tx_cycle, tx_valid, tx_vc, tx_xpuid, tx_control,
 *     tx_data, tx_err, tx_credit, tx_reset_in, tx_reset_out}, encodings there.
 * <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready} ({@link CfgBus}): the
 *     configuration bus; a
 *     write happens when {@code cfg_valid && cfg_ready}. Address map: README.md ("SUE TX
 *     configuration"): encapsulation registers and tables, {@code 0x0100 + type} command table,
 *     {@code 0x0200} PACK_LIMIT, {@code 0x0201} DEST_LIMIT, {@code 0x0210} MIN_FRAME,
 *     {@code 0x0211} FCS_BY_SUE, {@code 0x4000 | d << 4 | 3} NEXT_PSN.
 * <li>{@code vc_pause[vcs-1:0]}: link flow control per VC (level). (The former {@code win} input
 *     is internal now: TxReliability drives the scheduler's windows.)
 * <li>{@code ack_req} (Flow {dest, op, rpsn}): ACK information to carry to a destination (an
 *     empty PDU carries it when no PDU to it leaves within ACK_PIGGYBACK_WAIT cycles).
 * <li>{@code peer_ack} (Flow {peer, op, rpsn}): ACK/NACK received from a peer (the receive path).
 * <li>{@code conn_err} (Flow, 10 bits): a connection entered the error state (retry limit);
 *     {@code conn_state_dest[9:0]} / {@code conn_state[1:0]} ({error, rewinding}): the sticky
 *     state of one connection. {@code free_cells}: free cells of the buffer.
 * <li>{@code mac_tx_<p>} (AXI4-Stream, {@link AxiStream}: {@code _tvalid, _tready, _tdata, _tkeep,
 *     _tlast, _tuser}): frames for MAC port p, byte 0 of the frame in {@code tdata[7:0]};
 *     {@code tuser} (1 bit, "abort") is held 0 ({@link MacStreams}).
 * <li>Counters (32-bit, saturating), one port {@code cnt_<block>_<name>} per status word
 *     ({@link #statusWords()}): the interface's {@code cnt_tx_xpu_*} (ok, err, no_credit,
 *     reserved, bad_cycle, long, short, bad_type, pad, mismatch, overflow, cfg_reject), the
 *     queue manager's {@code cnt_tx_qm_*} (pdus, ops, aborts, bad_dest, dest_limit, bad_cfg), the
 *     reliability's {@code cnt_tx_rel_*} (see {@link TxReliability}), the framer's
 *     {@code cnt_tx_framer_frames} and {@code cnt_tx_framer_drops}.
 * <li>{@code ctl_tx} (slave Stream of PacketBeat, only with {@code controlFrames}, as in
 *     {@code sue_endpoint}): whole control frames, merged between SUE frames before the FCS
 *     ({@link SueFramer#ctl}; one MAC port today).
 * </ul>
 */
public final class SueTx extends Component {
    /** Configuration address of command type t's table entry: {@code CMD_TYPE_BASE + t}. */
    public static final int CMD_TYPE_BASE = 0x0100;
    /**
     * Most credits of each kind per VC. The interface's output FIFO holds every beat the XPU
     * may send with its credits (so it never overflows, whatever the buffer behind does), which
     * bounds the credits; cells beyond them are headroom for packing and, with the reliability
     * issue, the replay store.
     */
    public static final int MAX_CREDITS = 64;

    /** The XPU TX interface (spec Table 1): ports {@code tx_*}. */
    public final XpuTxBus xpuTx;
    /** The configuration write bus: ports {@code cfg_*}. */
    public final CfgBus cfg = slave(new CfgBus().named("cfg"));

    public final Flow<PeerAck> peerAck;
    public final Flow<UInt> connErr;
    public final UInt connStateDest = in(uint(10));
    public final Bits connState = out(bits(2));
    public final UInt freeCells;
    public final Bits vcPause;
    /**
     * A plane of a multi-port endpoint ({@code poolPorts} &gt; 1): {@code rewind_all} (in, a pulse) rewinds
     * every connection with unacknowledged PDUs now ({@link TxReliability#rewindAll}); else null.
     */
    public final Bool rewindAll;
    /**
     * A plane of a multi-port endpoint: {@code move_epoch} (in, 2 bits), the plane's move count for
     * its frames' RH {@code move} field ({@link SueFramer#moveEpoch}); else null.
     */
    public final Bits moveEpoch;
    /**
     * A plane of a multi-port endpoint (else null): {@code port_live} (in, a bit per port) and
     * {@code unordered} (in) let a connection move to another port ({@link TxReliability#portLive});
     * {@code frame_route} (out, beside {@link #macTx}'s beats, constant through a frame) is the port
     * the frame's connection asks for ({@link SueFramer#frameRoute}).
     */
    public final Bits portLive;
    public final Bool unordered;
    public final FramePort frameRoute;
    /** A plane of a multi-port endpoint (else null): its frames from peers, for the follow per connection. */
    public final Flow<PeerRoute> peerRoute;
    public final Flow<AckReq> ackReq;
    /** Frames for MAC port p: AXI4-Stream ports {@code mac_tx_<p>_t*} ({@link MacStreams}). */
    public final Vec<AxiStream> macTx;
    /** Control frames to merge between SUE frames before the FCS (with {@code controlFrames}; else null). */
    public final Stream<PacketBeat> ctlTx;

    private final List<StatusWord> status = new ArrayList<>();

    /**
     * Command (and data) credits per VC for a buffer of {@code cells} cells: an op holding c
     * command and d data credits takes at most c + d new cells (its control bytes spill into at
     * most one cell beyond its data beats), so {@code vcs * 2 * credits} cells cover every op
     * the XPU may have outstanding; {@code reserve} cells stay for the packer's open PDUs' first
     * cells, the aborted-op spare list and the allocator's reuse delay.
     */
    public static int creditsPerVc(int dataWidth, int vcs, int cells) {
        return creditsPerVc(dataWidth, vcs, cells, 1);
    }

    /**
     * The credits per VC of a plane of an endpoint with {@code ports} ports (sue-rtl/DESIGN-PORTS.md,
     * "Credits"): the XPU's pool is one plane's, so a plane's pool is {@code ports} times the
     * one-port cap (the XPU may keep every port as busy as one port, and in strict mode may spend
     * the whole pool on one plane), within what the plane's {@code cells} hold and what the XPU
     * interface's output FIFO can hold ({@link #maxXpuFifo} beats: 2 x vcs x credits).
     */
    public static int creditsPerVc(int dataWidth, int vcs, int cells, int ports) {
        int reserve = 2 * (ceilDiv(XpuTxBus.MAX_OP_BYTES, dataWidth / 8) + 1) + 8;
        int cap = Math.min(ports * MAX_CREDITS, maxXpuFifo(dataWidth) / (2 * vcs));
        return Math.max(0, Math.min(cap, (cells - reserve) / (2 * vcs)));
    }

    /**
     * Most {@code tx_data} bytes a plane's XPU interface output FIFO holds (1024 beats at 1024 bits).
     * A bound in bytes, not beats: at 4 ports x 4 VCs a plane's pool of four one-port pools is a
     * FIFO of 2048 beats, 0.6 or 1.2 Mbit at 256 or 512 bits, where it lifts 256-byte writes from
     * 0.946 to 0.975 of 4 x one port; at 1024 bits it would be 2.4 Mbit per plane, more than the
     * cell buffer of a {@code sue_4x100g} plane, so there the pool stays two one-port pools
     * (sue-rtl/DESIGN-PORTS.md, "Credits" and "4 ports x 4 VCs").
     */
    public static final int MAX_XPU_FIFO_BYTES = 128 * 1024;

    /** The deepest XPU interface output FIFO at {@code dataWidth}, in beats ({@link #MAX_XPU_FIFO_BYTES}). */
    public static int maxXpuFifo(int dataWidth) {
        return MAX_XPU_FIFO_BYTES / (dataWidth / 8);
    }

    /** The XPU interface's output FIFO: every beat the XPU's credits allow, rounded up to 2^n. */
    public static int xpuFifoDepth(int vcs, int credits) {
        return Integer.highestOneBit(Math.max(2, 2 * vcs * credits - 1)) << 1;
    }

    public SueTx(int dataWidth, int xpus, int vcs, int cells, Encapsulation encap, boolean vlan, int ports) {
        this(dataWidth, xpus, vcs, cells, encap, vlan, ports, 1024);
    }

    public SueTx(int dataWidth, int xpus, int vcs, int cells, Encapsulation encap, boolean vlan, int ports,
            int windowMax) {
        this(dataWidth, xpus, vcs, cells, encap, vlan, ports, windowMax, false);
    }

    /** With {@code controlFrames}: an input {@code ctl_tx} of whole control frames ({@link SueFramer#ctl}). */
    public SueTx(int dataWidth, int xpus, int vcs, int cells, Encapsulation encap, boolean vlan, int ports,
            int windowMax, boolean controlFrames) {
        this(dataWidth, xpus, vcs, cells, encap, vlan, ports, windowMax, controlFrames, 0);
    }

    /** The transmit path of plane {@code plane} of a multi-port endpoint: its frames' RH plane field ({@link SueFramer}). */
    public SueTx(int dataWidth, int xpus, int vcs, int cells, Encapsulation encap, boolean vlan, int ports,
            int windowMax, boolean controlFrames, int plane) {
        this(dataWidth, xpus, vcs, cells, encap, vlan, ports, windowMax, controlFrames, plane, 1);
    }

    /**
     * Plane {@code plane} of an endpoint with {@code poolPorts} ports: its XPU interface takes the
     * credits of {@link #creditsPerVc(int, int, int, int)} at {@code poolPorts} (1: the one-port pool).
     */
    public SueTx(int dataWidth, int xpus, int vcs, int cells, Encapsulation encap, boolean vlan, int ports,
            int windowMax, boolean controlFrames, int plane, int poolPorts) {
        param("dataWidth", dataWidth);
        if (plane != 0) {
            param("plane", plane);
        }
        if (poolPorts != 1) {
            param("poolPorts", poolPorts);
        }
        param("xpus", xpus);
        param("vcs", vcs);
        param("cells", cells);
        param("encap", encap == null ? "null" : encap.name());
        param("vlan", vlan);
        param("ports", ports);
        param("windowMax", windowMax);
        param("controlFrames", controlFrames);
        require(dataWidth == 256 || dataWidth == 512 || dataWidth == 1024,
                "dataWidth must be 256, 512 or 1024, got " + dataWidth);
        require(vcs == 1 || vcs == 2 || vcs == 4, "vcs must be 1, 2 or 4, got " + vcs);
        int credits = creditsPerVc(dataWidth, vcs, cells, poolPorts);
        int minCredits = ceilDiv(256, dataWidth / 8);
        require(credits >= minCredits, "cells = " + cells + " leaves " + credits + " data credits per VC at "
                + vcs + " VCs; one 256-byte op needs " + minCredits + ": use at least "
                + (2 * vcs * minCredits + 2 * (ceilDiv(XpuTxBus.MAX_OP_BYTES, dataWidth / 8) + 1) + 8) + " cells");
        xpuTx = slave(new XpuTxBus(dataWidth).named("tx"));
        peerAck = slave(Flow.of(PeerAck::new));
        connErr = master(Flow.of(() -> uint(10)));
        freeCells = out(uint(bitsFor(cells)));
        vcPause = in(bits(vcs));
        rewindAll = poolPorts > 1 ? in(bool()).named("rewind_all") : null;
        ackReq = slave(Flow.of(AckReq::new));
        macTx = master(Vec.of(ports, i -> MacStreams.tx(dataWidth)));

        XpuTxInterface xpu = instance("xpu", () -> new XpuTxInterface(dataWidth, vcs, credits, credits,
                xpuFifoDepth(vcs, credits)));
        TxQueueManager qm = instance("qm", () -> new TxQueueManager(dataWidth, xpus, vcs, cells, true));
        TxReliability rel = instance("rel", () -> new TxReliability(dataWidth, xpus, cells, windowMax, poolPorts,
                plane));
        SueFramer framer = instance("framer", () -> new SueFramer(dataWidth, encap, vlan, xpus, controlFrames, plane,
                poolPorts));
        moveEpoch = poolPorts > 1 ? in(bits(SueFramer.RH_MOVE_BITS)).named("move_epoch") : null;
        if (moveEpoch != null) {
            framer.moveEpoch.set(moveEpoch);
        }
        PortSelect ps = instance("port_select", () -> new PortSelect(dataWidth, ports));

        connect(xpu.tx, xpuTx);

        // one configuration bus: every block sees every accepted write
        CfgFanout cfgFan = CfgFanout.of(cfg, rel.cfgReady, framer.cfgReady, xpu.cfg.ready);
        cfgFan.driveWindow(xpu.cfg, CMD_TYPE_BASE, "cfg_cmd_type_write");
        cfgFan.drive(qm.cfgValid, qm.cfgAddr, qm.cfgData);
        cfgFan.drive(rel.cfgValid, rel.cfgAddr, rel.cfgData);
        cfgFan.drive(framer.cfgValid, framer.cfgAddr, framer.cfgData);

        // datapath
        qm.s.connectFrom(xpu.m);
        // A release never carries more credits than the VC has outstanding (<= credits), so the
        // interface's narrower count holds it.
        xpu.release.valid.set(qm.release.valid);
        xpu.release.payload.vc.set(qm.release.payload.vc);
        xpu.release.payload.kind.set(qm.release.payload.kind);
        xpu.release.payload.count.set(qm.release.payload.count.resize(xpu.release.payload.count.width()));
        qm.vcPause.set(vcPause);
        rel.s.connectFrom(qm.desc);
        rel.sData.connectFrom(qm.data);
        qm.replay.connectFrom(rel.replay);
        qm.free.connectFrom(rel.free);
        connect(qm.win, rel.win);
        connect(rel.peerAck, peerAck);
        connect(rel.ackReq, ackReq);
        portLive = poolPorts > 1 ? in(bits(poolPorts)).named("port_live") : null;
        unordered = poolPorts > 1 ? in(bool()).named("unordered") : null;
        peerRoute = poolPorts > 1 ? slave(Flow.of(PeerRoute::new)).named("peer_route") : null;
        if (rewindAll != null) {
            rel.rewindAll.set(rewindAll);
            rel.portLive.set(portLive);
            framer.portLive.set(portLive);
            connect(rel.peerRoute, peerRoute);
            rel.unordered.set(unordered);
        }
        connect(connErr, rel.connErr);
        rel.stateDest.set(connStateDest);
        connState.set(rel.state);
        freeCells.set(qm.freeCells);
        connect(framer.hdrReq, rel.hdrReq);
        rel.hdrRoom.set(framer.hdrRoom);
        connect(framer.rh, rel.rh);
        framer.data.connectFrom(rel.mData);
        ps.s.connectFrom(framer.m);
        ctlTx = controlFrames ? slave(Stream.of(() -> new PacketBeat(dataWidth))).named("ctl_tx") : null;
        if (controlFrames) {
            framer.ctl.connectFrom(ctlTx);
        }
        for (int p = 0; p < ports; p++) {
            macTx.get(p).connectFrom(ps.m.get(p));
        }
        frameRoute = poolPorts > 1 ? out(new FramePort(poolPorts)).named("frame_route") : null;
        if (frameRoute != null) {
            assignLeaves(frameRoute, framer.frameRoute);
        }

        // counters as ports cnt_<block>_<name>, in status-space order; then the free cells
        List<StatusWord> words = new ArrayList<>();
        words.addAll(StatusWord.prefixed("tx_xpu", xpu.statusWords()));
        words.addAll(StatusWord.prefixed("tx_qm", List.of(new StatusWord("pdus", qm.cntPdus),
                new StatusWord("ops", qm.cntOps), new StatusWord("aborts", qm.cntAborts),
                new StatusWord("bad_dest", qm.cntBadDest), new StatusWord("dest_limit", qm.cntDestLimit),
                new StatusWord("bad_cfg", qm.cntBadCfg))));
        words.addAll(StatusWord.prefixed("tx_rel", List.of(new StatusWord("pdus", rel.cntPdus),
                new StatusWord("retx", rel.cntRetx), new StatusWord("ack_used", rel.cntAckUsed),
                new StatusWord("ack_stale", rel.cntAckStale), new StatusWord("nack_used", rel.cntNackUsed),
                new StatusWord("nack_stale", rel.cntNackStale), new StatusWord("timeouts", rel.cntTimeouts),
                new StatusWord("retry_err", rel.cntRetryErr), new StatusWord("err_drop_ops", rel.cntErrDropOps),
                new StatusWord("empty", rel.cntEmpty), new StatusWord("stale_replay", rel.cntStaleReplay),
                new StatusWord("ack_merged", rel.cntAckMerged), new StatusWord("bad_cfg", rel.cntBadCfg))));
        if (rel.cntConnMoves != null) {
            words.addAll(StatusWord.prefixed("tx_rel", List.of(new StatusWord("conn_moves", rel.cntConnMoves),
                    new StatusWord("conn_follows", rel.cntConnFollows))));
        }
        words.addAll(StatusWord.prefixed("tx_framer", List.of(new StatusWord("frames", framer.frames),
                new StatusWord("drops", framer.drops))));
        status.addAll(StatusWord.exportAsPorts(words));
        status.add(new StatusWord("tx_qm.free_cells", freeCells));
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }

    /**
     * The transmit counters in status-space order: interface ({@code tx_xpu.*}), queue manager
     * ({@code tx_qm.*}), reliability ({@code tx_rel.*}), framer ({@code tx_framer.*}), free cells.
     */
    public List<StatusWord> statusWords() {
        return List.copyOf(status);
    }
}
