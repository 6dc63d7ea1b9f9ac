// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

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
import dev.sue.rtl.mac.MacStreams;
import dev.sue.rtl.mac.PortSelect;
import dev.sue.rtl.pdu.AckReq;
import dev.sue.rtl.pdu.PduDesc;
import dev.sue.rtl.reliability.TxSequencer;

/**
 * The transmit path behind the queue manager: {@link TxSequencer} (PSN, ACK info) ->
 * {@link SueFramer} (header, RH, padding, R-CRC, FCS) -> {@link PortSelect} (MAC port).
 *
 * <h2>Parameters</h2>
 * {@code dataWidth} (256, 512, 1024; any power of two 64..1024), {@code encap} and {@code vlan}
 * (as {@link SueHeaderBuilder}), {@code numXpus} (1..1024), {@code ports} (1).
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code desc} (slave {@code Stream<PduDesc>}), {@code data} (slave
 *       {@code Stream<PacketBeat>}): the PDU stream of DESIGN-TX.md's contract.</li>
 *   <li>{@code ack_req} (slave {@code Flow<AckReq>}): ACK information to send.</li>
 *   <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready}: the TX configuration bus; a
 *       write happens when {@code cfg_valid && cfg_ready} and every block sees it
 *       ({@link TxSequencer} may hold {@code cfg_ready} low for a few cycles after a NEXT_PSN
 *       write).</li>
 *   <li>{@code mac_tx_0 .. mac_tx_<ports-1>} (AXI4-Stream {@link MacStreams#tx}): frames per
 *       MAC port ({@code _tvalid, _tready, _tdata, _tkeep, _tlast, _tuser}).</li>
 *   <li>{@code frames}, {@code drops}: the framer's counters.</li>
 * </ul>
 *
 * <h2>Timing</h2>
 * The sequencer and port select are combinational, so the framer's timing holds end to end:
 * descriptor valid in cycle t (first data beat by t + 3) -> first MAC beat in cycle t + 4 on an
 * idle system, for every frame length with FCS_BY_SUE = 0 (one-beat frames through the framer's
 * R-CRC fast path); 100 % MAC bus occupancy with a backlog.
 */
public final class TxFramePath extends Component {
    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());

    public final Stream<PduDesc> desc;
    public final Stream<PacketBeat> data;
    public final Flow<AckReq> ackReq;
    public final Vec<AxiStream> macTx;
    public final UInt frames = out(uint(32));
    public final UInt drops = out(uint(32));

    public TxFramePath(int dataWidth, Encapsulation encap, boolean vlan, int numXpus, int ports) {
        param("dataWidth", dataWidth);
        param("encap", encap == null ? "null" : encap.name());
        param("vlan", vlan);
        param("numXpus", numXpus);
        param("ports", ports);
        desc = slave(Stream.of(PduDesc::new));
        data = slave(Stream.of(() -> new PacketBeat(dataWidth)));
        ackReq = slave(Flow.of(AckReq::new));
        macTx = master(Vec.of(ports, i -> MacStreams.tx(dataWidth)));

        TxSequencer seq = instance(() -> new TxSequencer(numXpus));
        SueFramer framer = instance(() -> new SueFramer(dataWidth, encap, vlan, numXpus));
        PortSelect ps = instance(() -> new PortSelect(dataWidth, ports));

        Bool ready = seq.cfgReady.and(framer.cfgReady).named("cfg_ready_all");
        cfgReady.set(ready);
        Bool write = cfgValid.and(ready).named("cfg_write");
        seq.cfgValid.set(write);
        seq.cfgAddr.set(cfgAddr);
        seq.cfgData.set(cfgData);
        framer.cfgValid.set(write);
        framer.cfgAddr.set(cfgAddr);
        framer.cfgData.set(cfgData);

        seq.s.connectFrom(desc);
        connect(seq.ackReq, ackReq);
        framer.desc.connectFrom(seq.m);
        framer.data.connectFrom(data);
        ps.s.connectFrom(framer.m);
        for (int p = 0; p < ports; p++) {
            macTx.get(p).connectFrom(ps.m.get(p));
        }
        frames.set(framer.frames);
        drops.set(framer.drops);
        latency(SueHeaderBuilder.LATENCY + 1);
    }
}
