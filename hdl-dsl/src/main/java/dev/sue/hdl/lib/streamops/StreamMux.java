// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.streamops;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.hdl.lib.util.StreamAsserts;
import java.util.function.Supplier;

/**
 * Stream multiplexer: connects the input chosen by {@code sel} to the output.
 *
 * <p>Parameters: {@code inputs} N, 1..1024; {@code payloadType}, the payload of every stream.
 *
 * <p>Ports: {@code s_0 .. s_<N-1>} (slave streams), {@code sel} (in, {@code log2Up(N)} bits),
 * {@code m} (master stream).
 *
 * <p>Protocol: {@code m} carries {@code s_<sel>}; the other inputs see {@code ready} low. A
 * {@code sel} of N or more selects nothing ({@code m_valid} low). {@code sel} must not change
 * while {@code m} is stalled, or {@code m} would break the stream rules (asserted); to switch
 * between packets, change it only after a beat with {@code last} has been taken.
 *
 * <p>Latency 0, no state (the flip-flops in the module are SVA bookkeeping only).
 *
 * @param <T> payload type
 */
public final class StreamMux<T extends Data> extends Component {
    public final Vec<Stream<T>> s;
    public final UInt sel;
    public final Stream<T> m;

    public StreamMux(int inputs, Supplier<T> payloadType) {
        param("inputs", inputs);
        require(inputs >= 1 && inputs <= 1024, "inputs must be 1..1024, got " + inputs);
        s = slave(Vec.of(inputs, i -> Stream.of(payloadType)));
        sel = in(uint(log2Up(inputs)));
        m = master(Stream.of(payloadType));
        latency(0);

        Bits selected = OneHot.decode(sel, inputs).named("selected");
        m.valid.set(selected.and(OneHot.fromBools(s.asList().stream().map(x -> x.valid).toList())).ne(0));
        assignFromBits(m.payload, OneHot.select(selected, s.asList().stream().map(x -> x.payload).toList())
                .named("selected_payload"));
        for (int i = 0; i < inputs; i++) {
            s.get(i).ready.set(m.ready.and(selected.bit(i)));
        }

        for (int i = 0; i < inputs; i++) {
            s.get(i).assertProtocol("s_" + i, false);
        }
        m.assertProtocol("m", true);
        StreamAsserts.stableWhileStalled(m, sel, "sel");
    }
}
