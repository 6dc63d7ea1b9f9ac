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
 * PDU stream with the RH fields already assigned (in {@code sue_tx} by
 * {@link dev.sue.rtl.reliability.TxReliability}).
 *
 * <h2>Parameters</h2>
 * {@code dataWidth} (256, 512, 1024; any power of two 64..1024), {@code encap} and {@code vlan}
 * (as {@link SueHeaderBuilder}), {@code numXpus} (1..1024), {@code ports} (1).
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code desc} (slave {@code Stream<RhDesc>}), {@code data} (slave
 *       {@code Stream<PacketBeat>}): the PDU stream of DESIGN-TX.md's contract, each descriptor
 *       with its PSN and ACK information ({@link RhDesc}).</li>
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

        framer.desc.connectFrom(desc);
        framer.data.connectFrom(data);
        ps.s.connectFrom(framer.m);
        for (int p = 0; p < ports; p++) {
            macTx.get(p).connectFrom(ps.m.get(p));
        }
        frames.set(framer.frames);
        drops.set(framer.drops);
        latency(SueHeaderBuilder.LATENCY + 2);
    }
}
