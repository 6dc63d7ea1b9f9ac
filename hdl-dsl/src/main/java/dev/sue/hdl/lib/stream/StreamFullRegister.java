// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.stream;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import java.util.function.Supplier;

/**
 * Full register slice: a {@link StreamSkidBuffer} followed by a {@link StreamForwardRegister}.
 * Every output ({@code s.ready}, {@code m.valid}, {@code m.payload}) comes straight from a
 * flip-flop, so both timing directions are cut, and throughput stays at one transfer per
 * cycle. Costs two payload registers.
 *
 * <p><b>Parameters:</b> {@code payloadType}, any payload type (leaf or bundle, at least 1 bit).
 *
 * <p><b>Ports:</b> {@code s} upstream stream (this block is its sink), {@code m} downstream
 * stream (this block is its source), both in the current clock domain.
 *
 * <p><b>Timing:</b> latency 1 cycle; throughput one transfer per cycle, with {@code s.ready}
 * high every cycle while {@code m.ready} is high. No combinational path between the sides.
 *
 * @param <T> payload type
 */
public final class StreamFullRegister<T extends Data> extends Component {
    public final Stream<T> s;
    public final Stream<T> m;

    public StreamFullRegister(Supplier<T> payloadType) {
        s = slave(Stream.of(payloadType));
        m = master(Stream.of(payloadType));
        param("payloadWidth", s.payload.bitWidth());
        latency(1);

        StreamSkidBuffer<T> backward = instance("backward", () -> new StreamSkidBuffer<>(payloadType));
        StreamForwardRegister<T> forward = instance("forward", () -> new StreamForwardRegister<>(payloadType));
        backward.s.connectFrom(s);
        forward.s.connectFrom(backward.m);
        m.connectFrom(forward.m);
        // Protocol assertions live in the children: backward checks s, forward checks m.
    }
}
