// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.rtl.config.CfgBus;
import dev.sue.rtl.config.CfgFanout;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.encap.Encapsulation;
import dev.sue.rtl.mac.MacStreams;
import dev.sue.rtl.pdu.AckReq;
import dev.sue.rtl.pdu.PeerAck;
import dev.sue.rtl.reliability.RxReliability;
import dev.sue.rtl.rx.MacRxBeat;
import dev.sue.rtl.rx.RxFrameParser;
import dev.sue.rtl.rxbuf.RxDeliver;
import dev.sue.rtl.xpu.XpuRxBus;
import java.util.ArrayList;
import java.util.List;

/**
 * The SUE receive path: Ethernet frames in, XPU commands out (spec Table 2), ACK information out
 * to the transmit path.
 *
 * <pre>
 * mac_rx_0 -&gt; RxFrameParser --m--&gt; register --&gt; RxDeliver (RX buffer, op walk, XPU RX credits) -&gt; rx_*
 *               |  ctl          |                   ^ accept   | fits (a cycle after the last beat on m)
 *               v               +--&gt; RxReliability --+--&gt; ack_req (to TX: ACK/NACK to send)
 *              ctl (frames that are not SUE)         +--&gt; peer_ack (to TX: ACK/NACK received)
 * </pre>
 *
 * <h2>Parameters</h2>
 * <ul>
 * <li>{@code dataWidth}: 256, 512 or 1024 (MAC RX bus and {@code rx_data}).
 * <li>{@code xpus}: 2..1024 source XPUs (partition table, per-source PSN state).
 * <li>{@code vcs}: 1..4 VCs (RX buffer partitions).
 * <li>{@code rxBufBytes}: RX buffer bytes, {@code vcs * dataWidth/8 * 2^k}, at least 4096 per VC.
 * <li>{@code encap}, {@code vlan}: the network encapsulation of frames to this endpoint.
 * </ul>
 *
 * <h2>Ports</h2>
 * <ul>
 * <li>{@code mac_rx_0} (AXI4-Stream, {@link AxiStream}: {@code _tvalid, _tready, _tdata, _tkeep,
 *     _tlast, _tuser}): frames from the MAC, byte 0 in {@code tdata[7:0]} (keep full but on the
 *     last beat; {@code tuser} on the last beat = MAC error, ignored on other beats).
 *     {@code tready} is 1 whenever {@code ctl} is not back-pressured: the path runs at one beat
 *     per cycle.
 * <li>{@code ctl} (AXI4-Stream, the same six signals): every frame that is not a SUE frame for
 *     this endpoint, whole and byte-identical (DESIGN-RX.md "Classification"); {@code tuser} on
 *     the last beat = MAC error or, with SUE FCS checking on, bad FCS ({@link MacRxBeat}).
 * <li>XPU RX ({@link XpuRxBus}): {@code rx_valid, rx_cycle, rx_vc, rx_xpuid, rx_control,
 *     rx_data, rx_credit, rx_reset_in, rx_reset_out} (encodings there and in DESIGN-RX.md).
 * <li>{@code ack_req} (Flow {dest, op, rpsn}): ACK/NACK the transmit path must carry to a peer.
 * <li>{@code peer_ack} (Flow {peer, op, rpsn}): ACK/NACK received from a peer, for transmit
 *     reliability.
 * <li>{@code cfg_valid, cfg_addr, cfg_data, cfg_ready} ({@link CfgBus}): the configuration
 *     write bus shared by the three blocks (a write happens when valid and ready; every block
 *     sees it).
 * <li>Counters ({@code cnt_<block>_<name>}, 32-bit saturating): {@link #statusWords()}.
 * </ul>
 */
public final class SueRx extends Component {
    /** Frames from the MAC: AXI4-Stream ports {@code mac_rx_0_t*}, {@code tuser} = MAC error. */
    public final AxiStream macRx;
    /** Frames that are not SUE frames for this endpoint: ports {@code ctl_t*}, {@code tuser} = error. */
    public final AxiStream ctl;

    /** The XPU RX interface (spec Table 2): ports {@code rx_*}. */
    public final XpuRxBus xpuRx;

    public final Flow<AckReq> ackReq;
    public final Flow<PeerAck> peerAck;

    /** The configuration write bus: ports {@code cfg_*}. */
    public final CfgBus cfg = slave(new CfgBus().named("cfg"));

    private final List<StatusWord> status = new ArrayList<>();

    public SueRx(int dataWidth, int xpus, int vcs, int rxBufBytes, Encapsulation encap, boolean vlan) {
        param("dataWidth", dataWidth);
        param("xpus", xpus);
        param("vcs", vcs);
        param("rxBufBytes", rxBufBytes);
        param("encap", encap == null ? "null" : encap.name());
        param("vlan", vlan);
        require(xpus >= 2 && xpus <= 1024, "xpus must be 2..1024, got " + xpus);
        macRx = slave(MacStreams.rx(dataWidth).named("mac_rx_0"));
        ctl = master(MacStreams.rx(dataWidth));
        xpuRx = master(new XpuRxBus(dataWidth).named("rx"));
        ackReq = master(Flow.of(AckReq::new));
        peerAck = master(Flow.of(PeerAck::new));

        RxFrameParser parser = instance("parser", () -> new RxFrameParser(dataWidth, encap, vlan, xpus));
        RxReliability rel = instance("reliability", () -> new RxReliability(xpus, dataWidth));
        RxDeliver deliver = instance("deliver", () -> new RxDeliver(dataWidth, vcs, rxBufBytes));

        // one configuration bus: a write happens when every block is ready, and all see it
        CfgFanout cfgFan = CfgFanout.of(cfg, parser.cfgReady, rel.cfgReady, deliver.cfgReady);
        cfgFan.drive(parser.cfgValid, parser.cfgAddr, parser.cfgData);
        cfgFan.drive(rel.cfgValid, rel.cfgAddr, rel.cfgData);
        cfgFan.drive(deliver.cfgValid, deliver.cfgAddr, deliver.cfgData);

        // frames
        connect(parser.s, macRx);
        connect(ctl, parser.ctl);
        // The reliability registers the beat and checks the PSN from registers a cycle later
        // (RxReliability.ACCEPT_DELAY); the deliverer sees the beat in that same cycle, so accept and fits
        // pair up, and the parser's output logic does not run into the buffer's.
        deliver.in.connectFrom(parser.m.m2sPipe());
        rel.beat.valid.set(parser.m.valid.and(parser.m.ready));
        assignLeaves(rel.beat.payload, parser.m.payload);
        rel.fits.set(deliver.fits);
        deliver.accept.set(rel.accept);
        connect(ackReq, rel.ackReq);
        connect(peerAck, rel.peerAck);

        // XPU side
        connect(xpuRx, deliver.rx);

        // counters as ports cnt_<block>_<name>, in status-space order
        List<StatusWord> words = new ArrayList<>();
        words.addAll(StatusWord.prefixed("rx_parser", parser.statusWords()));
        words.addAll(StatusWord.prefixed("rx_rel", rel.statusWords()));
        words.addAll(StatusWord.prefixed("rx_deliver", deliver.statusWords()));
        status.addAll(StatusWord.exportAsPorts(words));
    }

    /** The receive counters in status-space order ({@code rx_parser.*, rx_rel.*, rx_deliver.*}). */
    public List<StatusWord> statusWords() {
        return List.copyOf(status);
    }
}
