// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.regif.Axi4;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.rtl.SueEndpoint;
import dev.sue.rtl.SueTx;
import dev.sue.rtl.config.CfgBus;
import dev.sue.rtl.config.StatusReadBus;
import dev.sue.rtl.encap.Encapsulation;
import dev.sue.rtl.mac.MacStreams;

/**
 * A SUE endpoint with the AXI4 XPU interface of spec 3.2.2 ({@code sue_endpoint -p xpuIf=1}):
 * the unchanged {@link SueEndpoint} with an {@link AxiXpuBridge} on its FIFO XPU interface, so
 * {@code tx_*} and {@code rx_*} give way to {@code s_axi_*} and {@code m_axi_*}. Every other port is
 * the endpoint's, under the same name; the bridge's counters are ports {@code cnt_axi_*}. Requests
 * travel on VC 0 and responses on VC 1, so {@code vcs} must be 2 or 4; both ends' command tables
 * must hold the four AXI op types ({@link AxiOps#tableEntry}). Signals, credit loops and errors:
 * sue-rtl/DESIGN-AXI.md.
 */
public final class SueAxiEndpoint extends Component {
    public final Axi4 sAxi;
    public final Axi4 mAxi;
    public final Vec<AxiStream> macTx;
    public final AxiStream macRx;
    public final AxiStream ctl;
    public final Bits vcPause;
    public final Flow<UInt> connErr;
    public final UInt connStateDest = in(uint(10));
    public final Bits connState = out(bits(2));
    public final CfgBus cfg = slave(new CfgBus().named("cfg"));
    public final StatusReadBus rd = slave(new StatusReadBus().named("rd"));

    public final UInt cntAxiWrites = out(uint(32));
    public final UInt cntAxiReads = out(uint(32));
    public final UInt cntAxiB = out(uint(32));
    public final UInt cntAxiR = out(uint(32));
    public final UInt cntAxiUnmapped = out(uint(32));
    public final UInt cntAxiTooLong = out(uint(32));
    public final UInt cntAxiBadBurst = out(uint(32));
    public final UInt cntAxiWStall = out(uint(32));
    public final UInt cntAxiBadOp = out(uint(32));
    public final UInt cntAxiOverlong = out(uint(32));

    public SueAxiEndpoint(int dataWidth, int xpus, int vcs, int cells, int rxBufBytes, Encapsulation encap,
            boolean vlan, int addrBits, int idBits, int destLsb, int destBits) {
        param("xpuIf", "axi4");
        require(vcs >= 2, "the AXI4 XPU interface needs VC 0 for requests and VC 1 for responses: vcs must be 2 or 4, got "
                + vcs);
        sAxi = slave(new Axi4(addrBits, dataWidth, idBits).named("s_axi"));
        mAxi = master(new Axi4(addrBits, dataWidth, 1).named("m_axi"));
        macTx = master(Vec.of(1, i -> MacStreams.tx(dataWidth)));
        macRx = slave(MacStreams.rx(dataWidth).named("mac_rx_0"));
        ctl = master(MacStreams.rx(dataWidth));
        vcPause = in(bits(vcs));
        connErr = master(Flow.of(() -> uint(10)));

        SueEndpoint sue = instance("sue", () -> new SueEndpoint(dataWidth, xpus, vcs, cells, rxBufBytes, encap, vlan));
        int credits = SueTx.creditsPerVc(dataWidth, vcs, cells);
        AxiXpuBridge bridge = instance("axi", () -> new AxiXpuBridge(dataWidth, addrBits, idBits, xpus, destLsb,
                destBits, credits, credits));
        connect(sue.xpuTx, bridge.tx);
        connect(bridge.rx, sue.xpuRx);
        connect(bridge.sAxi, sAxi);
        connect(mAxi, bridge.mAxi);
        connect(macTx.get(0), sue.macTx.get(0));
        connect(sue.macRx, macRx);
        connect(ctl, sue.ctl);
        sue.vcPause.set(vcPause);
        connect(connErr, sue.connErr);
        sue.connStateDest.set(connStateDest);
        connState.set(sue.connState);
        connect(sue.cfg, cfg);
        connect(sue.rd, rd);

        cntAxiWrites.set(bridge.cntWrites);
        cntAxiReads.set(bridge.cntReads);
        cntAxiB.set(bridge.cntB);
        cntAxiR.set(bridge.cntR);
        cntAxiUnmapped.set(bridge.cntUnmapped);
        cntAxiTooLong.set(bridge.cntTooLong);
        cntAxiBadBurst.set(bridge.cntBadBurst);
        cntAxiWStall.set(bridge.cntWStall);
        cntAxiBadOp.set(bridge.cntBadOp);
        cntAxiOverlong.set(bridge.cntOverlong);
    }
}
