// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.stream;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import java.util.function.Supplier;

/**
 * Half-rate register slice ("half pipe"): one payload register that is either full or empty.
 * Every output ({@code s.ready}, {@code m.valid}, {@code m.payload}) comes straight from a
 * flip-flop and there is no combinational path between the two sides, at the price of half
 * throughput: the slot cannot be refilled in the cycle it is emptied.
 *
 * <p><b>Parameters:</b> {@code payloadType}, any payload type (leaf or bundle, at least 1 bit).
 *
 * <p><b>Ports:</b> {@code s} upstream stream (this block is its sink), {@code m} downstream
 * stream (this block is its source), both in the current clock domain.
 *
 * <p><b>Timing:</b> latency 1 cycle; throughput at most one transfer every two cycles.
 *
 * @param <T> payload type
 */
public final class StreamHalfRegister<T extends Data> extends Component {
    public final Stream<T> s;
    public final Stream<T> m;

    public StreamHalfRegister(Supplier<T> payloadType) {
        s = slave(Stream.of(payloadType));
        m = master(Stream.of(payloadType));
        param("payloadWidth", s.payload.bitWidth());
        latency(1);

        Bool full = reg("full", bool()).init(false);
        T payloadQ = reg(s.newPayload()).named("payload_q");
        s.ready.set(full.not());
        m.valid.set(full);
        assignLeaves(m.payload, payloadQ);
        // Fill and drain never happen in the same cycle: s.fire needs !full, m.fire needs full.
        when(s.fire(), () -> {
            full.set(true);
            assignLeaves(payloadQ, s.payload);
        });
        when(m.fire(), () -> full.set(false));

        s.assertProtocol("s", false);
        m.assertProtocol("m", true);
        assertThat(s.fire().and(m.fire()).not(), "filled and drained in the same cycle");
    }
}
