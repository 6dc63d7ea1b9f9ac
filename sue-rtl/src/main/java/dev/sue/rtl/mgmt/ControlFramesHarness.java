// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.mgmt;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.regif.AxiLite;
import dev.sue.hdl.lib.regif.AxiLiteTarget;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.regmap.RegisterMap;
import dev.sue.rtl.mac.MacStreams;
import java.util.List;

/**
 * {@link ControlFrames} behind an AXI4-Lite target, as the generator top {@code sue_ctl_frames}:
 * what its cocotb test drives with cocotbext-axi, and a block an integrator can use alone.
 * Ports: {@code s_axil_*}, {@code tx_t*} (AXI4-Stream frames out, no FCS, {@code tuser} 0), {@code rx_t*} (frames in),
 * {@code frame_waiting}, {@code slverr_count}, {@code decerr_count}.
 */
public final class ControlFramesHarness extends Component {
    public final AxiLite axil;
    public final AxiStream tx;
    public final AxiStream rx;
    public final Bool frameWaiting = out(bool());
    public final UInt slverrCount = out(uint(32));
    public final UInt decerrCount = out(uint(32));

    public ControlFramesHarness(int dataWidth, int maxFrameBytes, int txSlots, int rxSlots) {
        int wordBits = ControlFrames.windowBits(maxFrameBytes);
        axil = slave(new AxiLite(wordBits + 2)).named("s_axil");
        tx = master(MacStreams.tx(dataWidth)).named("tx");
        rx = slave(MacStreams.rx(dataWidth)).named("rx");
        AxiLiteTarget target = instance("target", () -> new AxiLiteTarget(wordBits + 2));
        ControlFrames frames = instance("frames", () -> new ControlFrames(dataWidth, maxFrameBytes, txSlots, rxSlots));
        connect(target.s, axil);
        connect(frames.regs, target.m);
        tx.connectFrom(frames.tx);
        connect(frames.rx, rx);
        frameWaiting.set(frames.frameWaiting);
        slverrCount.set(target.slverrCount);
        decerrCount.set(target.decerrCount);
        exportRegisterMap(new RegisterMap("sue_ctl_frames", "Control frames through AXI4-Lite", wordBits,
                List.of(new RegisterMap.Placement(0, frames.spec))));
    }

    /** Emitted as {@code sue_ctl_frames}. */
    @Override
    public String moduleBaseName() {
        return "sue_ctl_frames";
    }
}
