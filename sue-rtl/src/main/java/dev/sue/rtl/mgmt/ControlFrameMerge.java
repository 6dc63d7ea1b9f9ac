// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.mgmt;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;

/**
 * Merges control frames ({@link ControlFrameTx}) into the stream of SUE frames between frames,
 * never inside one: two packet streams in, one out.
 *
 * <p>Why not a {@link dev.sue.hdl.lib.arbiter.StreamArbiter}: its grant is combinational from the
 * inputs' valids, so the output's data would pass an arbiter before the FCS appender's CRC; here
 * the choice is a register, changed only at a frame boundary (in the cycle the chosen input's
 * last beat leaves, or while it is idle), so the data path is one 2:1 multiplexer with a
 * registered select and the output runs back to back from one frame to the next (line rate).
 *
 * <p>Ports: {@code frames} (slave Stream of PacketBeat: the SUE frames), {@code ctl} (slave: the
 * control frames), {@code m} (master). Fairness: after a frame, the other input goes next when it
 * waits, so a control frame waits at most one SUE frame and the other way round. {@code ready}
 * of an input depends only on the select and {@code m_ready}.
 */
public final class ControlFrameMerge extends Component {
    public final Stream<PacketBeat> frames;
    public final Stream<PacketBeat> ctl;
    public final Stream<PacketBeat> m;
    /**
     * With {@code source} (else null): {@code from_ctl} (out, a register), {@code m} carries the
     * control input's frame (else the SUE frames').
     */
    public final Bool fromCtl;

    public ControlFrameMerge(int dataWidth) {
        this(dataWidth, false);
    }

    public ControlFrameMerge(int dataWidth, boolean source) {
        param("dataWidth", dataWidth);
        if (source) {
            param("source", true);
        }
        fromCtl = source ? out(bool()).named("from_ctl") : null;
        frames = slave(Stream.of(() -> new PacketBeat(dataWidth)));
        ctl = slave(Stream.of(() -> new PacketBeat(dataWidth)));
        m = master(Stream.of(() -> new PacketBeat(dataWidth)));

        Bool pickCtl = reg("pick_ctl", bool()).init(false);
        if (fromCtl != null) {
            fromCtl.set(pickCtl);
        }
        Bool inFrame = reg("in_frame", bool()).init(false);
        m.valid.set(mux(pickCtl, ctl.valid, frames.valid));
        m.payload.data.set(mux(pickCtl, ctl.payload.data, frames.payload.data));
        m.payload.keep.set(mux(pickCtl, ctl.payload.keep, frames.payload.keep));
        m.payload.last.set(mux(pickCtl, ctl.payload.last, frames.payload.last));
        frames.ready.set(pickCtl.not().and(m.ready));
        ctl.ready.set(pickCtl.and(m.ready));

        Bool frameEnds = m.fire().and(m.payload.last).named("frame_ends");
        when(m.fire(), () -> inFrame.set(m.payload.last.not()));
        // A boundary: the chosen frame's last beat leaves, or the chosen input has nothing in
        // flight and offers nothing (a stalled beat on m must stay: the stream rules).
        Bool boundary = frameEnds.or(inFrame.not().and(m.valid.not())).named("boundary");
        Bool otherWaits = mux(pickCtl, frames.valid, ctl.valid).named("other_waits");
        when(boundary.and(otherWaits), () -> pickCtl.set(pickCtl.not()));
        frames.assertProtocol("frames", false);
        ctl.assertProtocol("ctl", false);
        latency(0);
    }

    /** Emitted as {@code sue_control_frame_merge}. */
    @Override
    public String moduleBaseName() {
        return "sue_control_frame_merge";
    }
}
