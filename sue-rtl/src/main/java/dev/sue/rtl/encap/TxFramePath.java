// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.rtl.mac.MacStreams;
import dev.sue.rtl.mac.PortSelect;
import dev.sue.rtl.pdu.RhDesc;

/**
 * The transmit path behind transmit reliability: {@link SueFramer} (header, RH, padding, R-CRC,
 * FCS) -> {@link PortSelect} (MAC port). The test top of the framing path: its input is the
 * PDU stream with the RH fields already assigned. A descriptor is the framer's header request in
 * the cycle it is taken, its RH fields follow through a delay line of {@link SueFramer#RH_DELAY}
 * registers (in {@code sue_tx} transmit reliability drives the framer's two inputs itself, the
 * header request when it picks the PDU and the RH fields when it has assigned the PSN).
 *
 * <h2>Parameters</h2>
 * {@code dataWidth} (256, 512, 1024; any power of two 64..1024), {@code encap} and {@code vlan}
 * (as {@link SueHeaderBuilder}), {@code numXpus} (1..1024), {@code ports} (1).
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code desc} (slave {@code Stream<RhDesc>}), {@code data} (slave
 *       {@code Stream<PacketBeat>}): the PDU stream of DESIGN-TX.md's contract, each descriptor
 *       with its PSN and ACK information ({@link RhDesc}); taken while the framer has a header
 *       slot ({@link SueFramer#HEADER_SLOTS}).</li>
 *   <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready}: the framer's configuration
 *       bus (always ready).</li>
 *   <li>{@code mac_tx_0 .. mac_tx_<ports-1>} (AXI4-Stream {@link MacStreams#tx}): frames per
 *       MAC port ({@code _tvalid, _tready, _tdata, _tkeep, _tlast, _tuser}).</li>
 *   <li>{@code frames}, {@code drops}: the framer's counters.</li>
 * </ul>
 *
 * <h2>Timing</h2>
 * Port select is combinational, so the framer's timing holds end to end: descriptor valid in
 * cycle t (first data beat by t + 3) -> first MAC beat in cycle t + 5 on an idle system, for
 * every frame length with FCS_BY_SUE = 0 (one-beat frames through the framer's R-CRC fast path);
 * 100 % MAC bus occupancy with a backlog.
 */
public final class TxFramePath extends Component {
    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());

    public final Stream<RhDesc> desc;
    public final Stream<PacketBeat> data;
    public final Vec<AxiStream> macTx;
    public final UInt frames = out(uint(32));
    public final UInt drops = out(uint(32));

    public TxFramePath(int dataWidth, Encapsulation encap, boolean vlan, int numXpus, int ports) {
        param("dataWidth", dataWidth);
        param("encap", encap == null ? "null" : encap.name());
        param("vlan", vlan);
        param("numXpus", numXpus);
        param("ports", ports);
        desc = slave(Stream.of(RhDesc::new));
        data = slave(Stream.of(() -> new PacketBeat(dataWidth)));
        macTx = master(Vec.of(ports, i -> MacStreams.tx(dataWidth)));

        SueFramer framer = instance(() -> new SueFramer(dataWidth, encap, vlan, numXpus));
        PortSelect ps = instance(() -> new PortSelect(dataWidth, ports));

        cfgReady.set(framer.cfgReady);
        framer.cfgValid.set(cfgValid);
        framer.cfgAddr.set(cfgAddr);
        framer.cfgData.set(cfgData);

        // the descriptor asks for its header at once; its RH fields follow RH_DELAY cycles later
        // through a delay line with a reset (no SRL16E in front of the framer's RH register)
        desc.ready.set(framer.hdrRoom);
        Bool took = desc.fire().named("desc_take");
        framer.hdrReq.valid.set(took);
        framer.hdrReq.payload.dest.set(desc.payload.dest);
        framer.hdrReq.payload.vc.set(desc.payload.vc);
        framer.hdrReq.payload.length.set(desc.payload.length);
        Bool rhValid = took;
        RhFields rhNow = wire("rh0", new RhFields());
        rhNow.cancel.set(false);
        rhNow.op.set(desc.payload.op);
        rhNow.psn.set(desc.payload.psn);
        rhNow.rpsn.set(desc.payload.rpsn);
        for (int k = 1; k <= SueFramer.RH_DELAY; k++) {
            Bool v = reg("rh_valid" + k, bool()).init(false);
            v.set(rhValid);
            RhFields f = reg("rh" + k, new RhFields());
            f.cancel.init(false);
            f.op.init(0);
            f.psn.init(0);
            f.rpsn.init(0);
            assignLeaves(f, rhNow);
            rhValid = v;
            rhNow = f;
        }
        framer.rh.valid.set(rhValid);
        assignLeaves(framer.rh.payload, rhNow);
        framer.data.connectFrom(data);
        desc.assertProtocol("desc", false);
        ps.s.connectFrom(framer.m);
        for (int p = 0; p < ports; p++) {
            macTx.get(p).connectFrom(ps.m.get(p));
        }
        frames.set(framer.frames);
        drops.set(framer.drops);
        latency(SueHeaderBuilder.LATENCY + 2);
    }
}
