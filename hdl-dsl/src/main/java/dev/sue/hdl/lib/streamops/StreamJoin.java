// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.streamops;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Reduce;
import java.util.function.Supplier;

/**
 * Stream join: waits until every input has a beat, then passes all of them on as one beat.
 *
 * <p>Parameters: {@code inputs} N, 1..1024; {@code payloadType}, the payload of each input.
 *
 * <p>Ports: {@code s_0 .. s_<N-1>} (slave streams), {@code m} (master stream whose payload is a
 * vector of the N input payloads: {@code m_0_<field>}, {@code m_1_<field>}, ...).
 *
 * <p>Protocol: {@code m_valid = all s_i_valid}; every {@code s_i_ready = m_valid & m_ready}, so all
 * inputs transfer together with the output (asserted). An input's {@code ready} depends on the
 * other inputs' {@code valid}, which the stream rules allow.
 *
 * <p>Latency 0, no state.
 *
 * @param <T> payload type of each input
 */
public final class StreamJoin<T extends Data> extends Component {
    public final Vec<Stream<T>> s;
    public final Stream<Vec<T>> m;

    public StreamJoin(int inputs, Supplier<T> payloadType) {
        param("inputs", inputs);
        require(inputs >= 1 && inputs <= 1024, "inputs must be 1..1024, got " + inputs);
        s = slave(Vec.of(inputs, i -> Stream.of(payloadType)));
        m = master(Stream.of(() -> Vec.of(inputs, i -> payloadType.get())));
        latency(0);

        Bool allValid = Reduce.all(s.asList().stream().map(x -> x.valid).toList()).named("all_valid");
        m.valid.set(allValid);
        for (int i = 0; i < inputs; i++) {
            assignLeaves(m.payload.get(i), s.get(i).payload);
            s.get(i).ready.set(m.fire());
        }

        for (int i = 0; i < inputs; i++) {
            s.get(i).assertProtocol("s_" + i, false);
            assertThat(s.get(i).fire().eq(m.fire()), "s_" + i + " transferred without the others");
        }
        m.assertProtocol("m", true);
    }
}
