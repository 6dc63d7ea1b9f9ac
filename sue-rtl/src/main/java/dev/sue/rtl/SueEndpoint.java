// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.regif.Axi4;
import dev.sue.hdl.lib.regif.AxiLite;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.lib.stream.AxiStreamWidthAdapter;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.rtl.axi.AxiXpuBridge;
import dev.sue.rtl.axi.AxiXpuOptions;
import dev.sue.rtl.config.CfgBus;
import dev.sue.rtl.config.CfgFanout;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.encap.Encapsulation;
import dev.sue.rtl.mac.MacStreams;
import dev.sue.rtl.mgmt.EndpointRegisters;
import dev.sue.rtl.ports.PortSteer;
import dev.sue.rtl.ports.RxMerger;
import dev.sue.rtl.ports.TxDispatcher;
import dev.sue.rtl.xpu.XpuRxBus;
import dev.sue.rtl.xpu.XpuTxBus;
import java.util.ArrayList;
import java.util.List;

/**
 * A whole SUE endpoint: the transmit path ({@link SueTx}) and the receive path ({@link SueRx})
 * of one XPU (one pair per Ethernet port, see {@code ports}), joined by go-back-N (ACK/NACK the receive path must send ride on transmitted PDUs;
 * ACK/NACK received free and rewind the transmit replay store), and one AXI4-Lite target for every
 * register ({@link EndpointRegisters}).
 *
 * <pre>
 * tx_* --&gt; SueTx (queues, packer, TxReliability, framer + control frames before the FCS) --&gt; mac_tx_0
 *               ^ ack_req          ^ peer_ack                  ^ ctl tx
 *               |                  |                           |
 * rx_* &lt;-- SueRx (parser, RxReliability, RX buffer) &lt;------- mac_rx_0
 *                                              +--- ctl rx ----+--&gt; control frame buffers
 * s_axil_* --&gt; EndpointRegisters: configuration writes to both, counters of both, ID, irq
 * </pre>
 *
 * <h2>Parameters</h2>
 * <ul>
 * <li>{@code dataWidth}: 256, 512 or 1024 (XPU data and MAC buses).
 * <li>{@code xpus}: 2..1024 XPUs in the fabric (destinations and sources).
 * <li>{@code vcs}: 1, 2 or 4 virtual channels.
 * <li>{@code cells}: transmit cell buffer (queues and replay store), cells of {@code dataWidth}
 *     bits; see {@link SueTx}.
 * <li>{@code rxBufBytes}: receive buffer bytes; see {@link SueRx}.
 * <li>{@code encap}, {@code vlan}: the network encapsulation (ARCHITECTURE.md §5).
 * <li>{@code axi} ({@link AxiXpuOptions}, generator {@code xpuIf=1}): the AXI4 XPU interface, an
 *     AXI4 slave {@code s_axi_*} and master {@code m_axi_*} in place of {@code tx_*} and
 *     {@code rx_*} (sue-rtl/DESIGN-AXI.md); its counters are status words {@code axi.*}.
 * <li>{@code ports}: 1, 2 or 4 Ethernet ports (sue-rtl/DESIGN-PORTS.md): a plane per port, each a
 *     whole {@link SueTx} + {@link SueRx} with {@code cells} and {@code rxBufBytes} of its own
 *     (PSNs per {plane, peer}), a {@link TxDispatcher} (op to the plane of {@code PORT_MAP[dest]})
 *     and an {@link RxMerger} (whole ops, round robin) at the XPU side; strict mode, or unordered
 *     mode ({@code PORT_MODE.unordered}: ops to the live plane of least backlog).
 * <li>{@code portWidth}: the MAC ports' bus width, a power of two in 64..{@code dataWidth}
 *     (default {@code dataWidth}); narrower, each plane (still {@code dataWidth} wide) reaches its
 *     port through an {@link AxiStreamWidthAdapter} each way (1 cycle of latency each), so e.g. four
 *     256-bit ports carry what one 1024-bit XPU bus does (DESIGN-PORTS.md, "Widths").
 * </ul>
 *
 * <h2>Ports</h2>
 * Those of {@link SueTx} (XPU TX {@link XpuTxBus} {@code tx_*}, AXI4-Stream {@code mac_tx_<p>_t*},
 * {@code vc_pause}) and {@link SueRx} (XPU RX {@link XpuRxBus} {@code rx_*}, AXI4-Stream
 * {@code mac_rx_<p>_t*}), one MAC stream pair per port, under the same names, but for their
 * counters (read through the register map) and the frames that are not SUE (kept for software in
 * the {@code ctl} block of the map; port 0's), plus:
 * <ul>
 * <li>{@code s_axil_*} ({@link AxiLite}, {@link EndpointRegisters#AXI_ADDR_BITS} address bits):
 *     every register: the configuration space (writes reach every path; the command table at
 *     {@code 0x0100 + type} configures both directions), the status words at word
 *     {@code 0x8000 + i} = {@link #statusWords()}{@code .get(i)} (with several ports, plane p's
 *     named {@code port<p>.*}), identification and interrupt registers, the control frames sent
 *     and received (spec 3.1). The map: the generated {@code sue_endpoint_regs.md} and sue-rtl/README.md.
 * <li>{@code irq}: interrupt level ({@code IRQ_CAUSE & IRQ_ENABLE} not 0).
 * <li>{@code link_up} (in, 1 bit, or {@code ports} bits with several ports: bit p = port p): the
 *     MACs' link states (1 up), synchronous to {@code clk}; register {@code LINK_STATUS} shows
 *     them and {@code IRQ_CAUSE.link_change} is set on every change of any.
 * <li>{@code conn_err} (Flow, 10 bits): a connection entered the error state (retry limit);
 *     {@code conn_state_dest} -&gt; {@code conn_state} ({error, rewinding}): one connection's state
 *     (with several ports, the OR over the planes).
 * </ul>
 */
public final class SueEndpoint extends Component {
    /** The XPU TX interface (spec Table 1): ports {@code tx_*}; null with the AXI4 interface. */
    public final XpuTxBus xpuTx;
    /** The XPU RX interface (spec Table 2): ports {@code rx_*}; null with the AXI4 interface. */
    public final XpuRxBus xpuRx;
    /** With the AXI4 interface (spec 3.2.2): the SoC's requests, ports {@code s_axi_*}; else null. */
    public final Axi4 sAxi;
    /** With the AXI4 interface: requests from far XPUs into the SoC, ports {@code m_axi_*}; else null. */
    public final Axi4 mAxi;

    /** AXI4-Stream MAC ports, one per port: {@code mac_tx_<p>_t*}, {@code mac_rx_<p>_t*} ({@link MacStreams}). */
    public final Vec<AxiStream> macTx;
    public final Vec<AxiStream> macRx;
    public final Bits vcPause;
    public final Flow<UInt> connErr;
    public final UInt connStateDest;
    public final Bits connState;

    /** Every register: ports {@code s_axil_*}. */
    public final AxiLite axil;
    /** Interrupt level. */
    public final Bool irq;
    /** The MACs' link states (bit p: port p up), synchronous to {@code clk}: a Bool with one port. */
    public final Data linkUp;

    /** The narrowest MAC port ({@code portWidth}): a 64-bit port is a 25G/40G-class MAC's bus. */
    public static final int MIN_PORT_WIDTH = 64;

    /** The largest WINDOW the configuration accepts (transmit reliability's windowMax). */
    public static final int WINDOW_MAX = 1024;

    private final List<StatusWord> status = new ArrayList<>();

    /** An endpoint with the FIFO XPU interface ({@code tx_*}, {@code rx_*}). */
    public SueEndpoint(int dataWidth, int xpus, int vcs, int cells, int rxBufBytes, Encapsulation encap,
            boolean vlan) {
        this(dataWidth, xpus, vcs, cells, rxBufBytes, encap, vlan, null);
    }

    /** One port, the FIFO ({@code axi} null) or the AXI4 XPU interface. */
    public SueEndpoint(int dataWidth, int xpus, int vcs, int cells, int rxBufBytes, Encapsulation encap,
            boolean vlan, AxiXpuOptions axi) {
        this(dataWidth, xpus, vcs, cells, rxBufBytes, encap, vlan, axi, 1);
    }

    /**
     * An endpoint with the FIFO XPU interface ({@code axi} null) or the AXI4 one: an
     * {@link AxiXpuBridge} on the FIFO interface, requests on VC 0 and responses on VC 1 (so
     * {@code vcs} must be 2 or 4), its counters in the status block after the receive path's.
     */
    public SueEndpoint(int dataWidth, int xpus, int vcs, int cells, int rxBufBytes, Encapsulation encap,
            boolean vlan, AxiXpuOptions axi, int ports) {
        this(dataWidth, xpus, vcs, cells, rxBufBytes, encap, vlan, axi, ports, dataWidth);
    }

    /**
     * As above with MAC ports of {@code portWidth} bits (a power of two, 64..{@code dataWidth}):
     * narrower than {@code dataWidth}, each plane's MAC streams pass an
     * {@link AxiStreamWidthAdapter} each way (DESIGN-PORTS.md, "Widths").
     */
    public SueEndpoint(int dataWidth, int xpus, int vcs, int cells, int rxBufBytes, Encapsulation encap,
            boolean vlan, AxiXpuOptions axi, int ports, int portWidth) {
        require(ports == 1 || ports == 2 || ports == 4, "ports must be 1, 2 or 4, got " + ports);
        require(portWidth >= MIN_PORT_WIDTH && portWidth <= dataWidth && isPowerOfTwo(portWidth),
                "portWidth must be a power of two in " + MIN_PORT_WIDTH + ".." + dataWidth + " (dataWidth), got "
                        + portWidth);
        // ports in the order of the one-port endpoint's
        connStateDest = in(uint(10));
        connState = out(bits(2));
        axil = slave(new AxiLite(EndpointRegisters.AXI_ADDR_BITS)).named("s_axil");
        irq = out(bool());
        linkUp = ports == 1 ? in(bool()) : in(bits(ports));
        param("dataWidth", dataWidth);
        param("xpus", xpus);
        param("vcs", vcs);
        param("cells", cells);
        param("rxBufBytes", rxBufBytes);
        param("encap", encap == null ? "null" : encap.name());
        param("vlan", vlan);
        param("xpuIf", axi == null ? "fifo" : "axi4");
        if (ports != 1) {
            param("ports", ports);
        }
        if (portWidth != dataWidth) {
            param("portWidth", portWidth);
        }
        require(encap != null, "sue_endpoint needs an encapsulation (its ID registers report it)");
        require(axi == null || vcs >= 2, "the AXI4 XPU interface needs VC 0 for requests and VC 1 for responses: "
                + "vcs must be 2 or 4, got " + vcs);
        macTx = master(Vec.of(ports, i -> MacStreams.tx(portWidth)));
        macRx = slave(Vec.of(ports, i -> MacStreams.rx(portWidth))).named("mac_rx");
        vcPause = in(bits(vcs));
        connErr = master(Flow.of(() -> uint(10)));

        // one plane per port: a whole single-port transmit and receive path (DESIGN-PORTS.md)
        List<SueTx> txs = new ArrayList<>();
        List<SueRx> rxs = new ArrayList<>();
        for (int p = 0; p < ports; p++) {
            String plane = ports == 1 ? "" : "plane" + p + "_";
            boolean ctlFrames = p == 0;
            int planeId = p;
            txs.add(instance(plane + "tx", () -> new SueTx(dataWidth, xpus, vcs, cells, encap, vlan, 1, WINDOW_MAX,
                    ctlFrames, planeId, ports)));
            rxs.add(instance(plane + "rx", () -> new SueRx(dataWidth, xpus, vcs, rxBufBytes, encap, vlan)));
        }
        SueTx tx = txs.get(0);
        SueRx rx = rxs.get(0);
        XpuTxBus txSide = tx.xpuTx;
        XpuRxBus rxSide = rx.xpuRx;
        TxDispatcher dispatch = null;
        PortSteer steer = null;
        if (ports > 1) {
            int credits = SueTx.creditsPerVc(dataWidth, vcs, cells, ports);
            dispatch = instance("dispatch", () -> new TxDispatcher(dataWidth, xpus, vcs, ports, credits));
            RxMerger merge = instance("merge", () -> new RxMerger(dataWidth, vcs, ports));
            steer = instance("steer", () -> new PortSteer(dataWidth, ports, cells, encap, vlan));
            dispatch.planeLive.set(steer.planeLive);
            steer.unordered.set(dispatch.unordered);
            steer.linkUp.set((Bits) linkUp);
            for (int p = 0; p < ports; p++) {
                connect(txs.get(p).xpuTx, dispatch.planes.get(p));
                connect(merge.planes.get(p), rxs.get(p).xpuRx);
            }
            txSide = dispatch.xpu;
            rxSide = merge.xpu;
        }

        AxiXpuBridge bridge = null;
        if (axi == null) {
            xpuTx = slave(new XpuTxBus(dataWidth).named("tx"));
            xpuRx = master(new XpuRxBus(dataWidth).named("rx"));
            sAxi = null;
            mAxi = null;
            connect(txSide, xpuTx);
            connect(xpuRx, rxSide);
        } else {
            int credits = SueTx.creditsPerVc(dataWidth, vcs, cells, ports);
            AxiXpuBridge b = instance("axi", () -> new AxiXpuBridge(dataWidth, axi.addrBits(), axi.idBits(), xpus,
                    axi.destLsb(), axi.destBits(), credits, credits));
            xpuTx = null;
            xpuRx = null;
            sAxi = slave(new Axi4(axi.addrBits(), dataWidth, axi.idBits()).named("s_axi"));
            mAxi = master(new Axi4(axi.addrBits(), dataWidth, 1).named("m_axi"));
            connect(txSide, b.tx);
            connect(b.rx, rxSide);
            connect(b.sAxi, sAxi);
            connect(mAxi, b.mAxi);
            bridge = b;
        }
        Bool anyConnErr = FALSE;
        Bits anyConnState = B(0, 2);
        for (int p = 0; p < ports; p++) {
            SueTx t = txs.get(p);
            SueRx r = rxs.get(p);
            t.vcPause.set(vcPause);
            // the plane's frames at dataWidth, through the steering block with several ports
            AxiStream planeTx = t.macTx.get(0);
            AxiStream planeRx = r.macRx;
            if (steer != null) {
                // failover: planes and ports through the steering block (DESIGN-PORTS.md)
                connect(steer.planeTx.get(p), planeTx);
                connect(planeRx, steer.planeRx.get(p));
                steer.freeCells.get(p).set(t.freeCells);
                t.rewindAll.set(steer.rewind.bit(p));
                t.moveEpoch.set(steer.moveEpoch.get(p));
                t.portLive.set(steer.planeLive);
                t.unordered.set(steer.unordered);
                assignLeaves(steer.planeRoute.get(p), t.frameRoute);
                connect(t.peerRoute, steer.peerRoute.get(p));
                planeTx = steer.portTx.get(p);
                planeRx = steer.portRx.get(p);
            }
            if (portWidth == dataWidth) {
                connect(macTx.get(p), planeTx);
                connect(planeRx, macRx.get(p));
            } else {
                // the plane stays at dataWidth; its port is narrower (a downsizer out, an upsizer in)
                String plane = ports == 1 ? "" : "plane" + p + "_";
                AxiStreamWidthAdapter down = instance(plane + "mac_tx_down", () -> new AxiStreamWidthAdapter(dataWidth,
                        portWidth, MacStreams.TX_USER_BITS));
                AxiStreamWidthAdapter up = instance(plane + "mac_rx_up", () -> new AxiStreamWidthAdapter(portWidth,
                        dataWidth, MacStreams.RX_USER_BITS));
                connect(down.s, planeTx);
                connect(macTx.get(p), down.m);
                connect(up.s, macRx.get(p));
                connect(planeRx, up.m);
            }
            t.connStateDest.set(connStateDest);
            anyConnErr = anyConnErr.or(t.connErr.valid);
            anyConnState = anyConnState.or(t.connState);
            // go-back-N between the plane's two paths: PSNs per {plane, peer}
            connect(t.ackReq, r.ackReq);
            connect(t.peerAck, r.peerAck);
        }
        if (ports == 1) {
            connect(connErr, tx.connErr);
            connState.set(tx.connState);
        } else {
            // a connection is the same peer on every plane: report the first plane's error of a cycle
            // (the others' are counted in their tx_rel.retry_err) and the OR of the planes' states
            connErr.valid.set(anyConnErr);
            UInt dest = txs.get(ports - 1).connErr.payload;
            for (int p = ports - 2; p >= 0; p--) {
                dest = mux(txs.get(p).connErr.valid, txs.get(p).connErr.payload, dest);
            }
            connErr.payload.set(dest);
            connState.set(anyConnState);
        }

        // the register map: per plane its transmit counters, then its receive counters, in the status block
        for (int p = 0; p < ports; p++) {
            List<StatusWord> plane = new ArrayList<>(txs.get(p).statusWords());
            plane.addAll(rxs.get(p).statusWords());
            status.addAll(ports == 1 ? plane : StatusWord.prefixed("port" + p, plane));
        }
        if (steer != null) {
            status.addAll(steer.statusWords());
        }
        if (bridge != null) {
            status.addAll(bridge.statusWords());
        }
        EndpointRegisters regs = new EndpointRegisters(new EndpointRegisters.Identity(dataWidth, xpus, vcs, cells,
                rxBufBytes, encap.code(), vlan, WINDOW_MAX, axi, ports), axil, status, linkUp, List.of(
                new EndpointRegisters.IrqSource("conn_error", ports == 1 ? tx.connErr.valid : anyConnErr,
                        "A connection entered the error state")));
        List<CfgBus> cfgs = new ArrayList<>();
        for (int p = 0; p < ports; p++) {
            cfgs.add(txs.get(p).cfg);
            cfgs.add(rxs.get(p).cfg);
        }
        if (bridge != null) {
            cfgs.add(bridge.cfg);
        }
        if (dispatch != null) {
            cfgs.add(dispatch.cfg);
            cfgs.add(steer.cfg);
        }
        CfgFanout.connect(regs.cfg, cfgs.toArray(CfgBus[]::new));
        irq.set(regs.irq);
        // control frames: sent between SUE frames before the FCS, received without back-pressure;
        // on port 0 (the other planes' non-SUE frames are dropped, DESIGN-PORTS.md)
        tx.ctlTx.connectFrom(regs.ctlTx);
        connect(regs.ctlRx, rx.ctl);
        for (int p = 1; p < ports; p++) {
            rxs.get(p).ctl.tready.set(TRUE);
        }
    }

    /** The status words in address order: word {@code 0x8000 + i} is element i. */
    public List<StatusWord> statusWords() {
        return List.copyOf(status);
    }
}
