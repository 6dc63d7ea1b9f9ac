// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.streamops;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Reduce;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Stream fork: every beat of the input goes to all outputs.
 *
 * <p>Parameters: {@code outputs} N, 1..1024; {@code payloadType}; {@code mode}
 * ({@link ForkMode#SYNCHRONOUS} or {@link ForkMode#ASYNCHRONOUS}).
 *
 * <p>Ports: {@code s} (slave stream), {@code m_0 .. m_<N-1>} (master streams, payload = the
 * input's).
 *
 * <p>Protocol: synchronous: {@code m_i_valid = s_valid & (all other m_j_ready)} and {@code s_ready
 * = all m_j_ready}, so all outputs and the input transfer together (asserted); the outputs do not
 * obey "valid stays high until the transfer" (see {@link ForkMode#SYNCHRONOUS}), so only the
 * input's stream rules are asserted. Asynchronous: {@code m_i_valid = s_valid & !taken_i};
 * {@code s_ready} when every output either takes the beat now or has taken it; the {@code taken}
 * flags clear when the input transfers. Each output takes each beat exactly once (asserted).
 *
 * <p>Latency 0. State: none (synchronous), N flags (asynchronous).
 *
 * @param <T> payload type
 */
public final class StreamFork<T extends Data> extends Component {
    public final Stream<T> s;
    public final Vec<Stream<T>> m;

    public StreamFork(int outputs, Supplier<T> payloadType, ForkMode mode) {
        param("outputs", outputs);
        param("mode", mode.name());
        require(outputs >= 1 && outputs <= 1024, "outputs must be 1..1024, got " + outputs);
        s = slave(Stream.of(payloadType));
        m = master(Vec.of(outputs, i -> Stream.of(payloadType)));
        latency(0);

        for (Stream<T> out : m) {
            assignLeaves(out.payload, s.payload);
        }
        s.assertProtocol("s", false);
        if (mode == ForkMode.SYNCHRONOUS) {
            buildSynchronous();
        } else {
            buildAsynchronous();
        }
    }

    private void buildSynchronous() {
        Bool allReady = Reduce.all(m.asList().stream().map(x -> x.ready).toList()).named("all_ready");
        s.ready.set(allReady);
        for (int i = 0; i < m.size(); i++) {
            List<Bool> others = new ArrayList<>();
            for (int j = 0; j < m.size(); j++) {
                if (j != i) {
                    others.add(m.get(j).ready);
                }
            }
            // Not gated by its own ready: an output's valid must never wait for its own ready.
            m.get(i).valid.set(others.isEmpty() ? s.valid : s.valid.and(Reduce.all(others)));
        }
        for (int i = 0; i < m.size(); i++) {
            assertThat(m.get(i).fire().eq(s.fire()), "m_" + i + " transferred without the others");
            assertInReset(m.get(i).valid.not(), "m_" + i + ": valid during reset");
        }
    }

    private void buildAsynchronous() {
        List<Bool> doneOrTaking = new ArrayList<>();
        for (int i = 0; i < m.size(); i++) {
            Stream<T> out = m.get(i);
            Bool taken = reg("taken_" + i, bool()).init(false);
            out.valid.set(s.valid.andNot(taken));
            doneOrTaking.add(taken.or(out.ready));
            taken.set(mux(s.fire(), FALSE, taken.or(out.fire())));
            out.assertProtocol("m_" + i, true);
            assertThat(s.fire().not().or(taken.or(out.fire())), "input released before m_" + i + " took the beat");
        }
        s.ready.set(Reduce.all(doneOrTaking));
    }
}
