// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.stream;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import java.util.function.Supplier;

/**
 * Forward register slice ("m2s pipe"): registers {@code valid} and the payload, so the
 * downstream side sees only flip-flop outputs. {@code ready} stays combinational
 * ({@code s.ready = !m.valid || m.ready}), which keeps full throughput with a single payload
 * register but does not cut the backward timing path; use {@link StreamSkidBuffer} for that,
 * or {@link StreamFullRegister} for both.
 *
 * <p><b>Parameters:</b> {@code payloadType}, any payload type (leaf or bundle, at least 1 bit).
 *
 * <p><b>Ports:</b> {@code s} upstream stream (this block is its sink), {@code m} downstream
 * stream (this block is its source), both in the current clock domain.
 *
 * <p><b>Timing:</b> latency 1 cycle (a transfer on {@code s} at edge k is offered on {@code m}
 * from edge k); throughput one transfer per cycle. Paths: {@code m.ready -> s.ready} is
 * combinational; {@code m.valid} and {@code m.payload} come straight from registers.
 *
 * @param <T> payload type
 */
public final class StreamForwardRegister<T extends Data> extends Component {
    public final Stream<T> s;
    public final Stream<T> m;

    public StreamForwardRegister(Supplier<T> payloadType) {
        s = slave(Stream.of(payloadType));
        m = master(Stream.of(payloadType));
        param("payloadWidth", s.payload.bitWidth());
        latency(1);

        Bool validQ = reg("valid_q", bool()).init(false);
        // The payload register has no reset: it is only read while valid_q is set.
        T payloadQ = reg(s.newPayload()).named("payload_q");
        // The slot frees up when it is empty or being emptied this cycle.
        s.ready.set(validQ.not().or(m.ready));
        when(s.ready, () -> validQ.set(s.valid));
        when(s.fire(), () -> assignLeaves(payloadQ, s.payload));
        m.valid.set(validQ);
        assignLeaves(m.payload, payloadQ);

        s.assertProtocol("s", false);
        m.assertProtocol("m", true);
        assertThat(s.fire().not().or(validQ.not()).or(m.ready), "loaded over a beat downstream has not taken");
    }
}
