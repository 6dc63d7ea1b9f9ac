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
 * Stream demultiplexer: routes each beat of the input to the output named by {@code sel}.
 *
 * <p>Parameters: {@code outputs} N, 1..1024; {@code payloadType}, the payload of every stream.
 *
 * <p>Ports: {@code s} (slave stream), {@code sel} (in, {@code log2Up(N)} bits), {@code m_0 ..
 * m_<N-1>} (master streams).
 *
 * <p>Protocol: {@code sel} is the routing field of the beat on {@code s}: connect it to a payload
 * field (a destination, a queue number) or to anything else that is stable while {@code s} is
 * valid and stalled (asserted). For packets, keep {@code sel} the same on every beat of a packet.
 * A {@code sel} of N or more routes nowhere: the beat waits (asserted as an error).
 *
 * <p>Latency 0, no state (the flip-flops in the module are SVA bookkeeping only).
 *
 * @param <T> payload type
 */
public final class StreamDemux<T extends Data> extends Component {
    public final Stream<T> s;
    public final UInt sel;
    public final Vec<Stream<T>> m;

    public StreamDemux(int outputs, Supplier<T> payloadType) {
        param("outputs", outputs);
        require(outputs >= 1 && outputs <= 1024, "outputs must be 1..1024, got " + outputs);
        s = slave(Stream.of(payloadType));
        sel = in(uint(log2Up(outputs)));
        m = master(Vec.of(outputs, i -> Stream.of(payloadType)));
        latency(0);

        Bits selected = OneHot.decode(sel, outputs).named("selected");
        for (int i = 0; i < outputs; i++) {
            Stream<T> out = m.get(i);
            out.valid.set(s.valid.and(selected.bit(i)));
            assignLeaves(out.payload, s.payload);
        }
        s.ready.set(selected.and(OneHot.fromBools(m.asList().stream().map(x -> x.ready).toList())).ne(0));

        s.assertProtocol("s", false);
        for (int i = 0; i < outputs; i++) {
            m.get(i).assertProtocol("m_" + i, true);
        }
        StreamAsserts.stableWhileStalled(s, sel, "sel");
        if (outputs < 1 << sel.width()) {
            assertThat(s.valid.not().or(sel.lt(outputs)), "sel names no output");
        }
    }
}
