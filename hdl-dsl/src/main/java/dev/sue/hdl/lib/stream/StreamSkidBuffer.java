// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.stream;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import java.util.function.Supplier;

/**
 * Backward register slice ("s2m pipe", skid buffer): registers {@code ready}, so the upstream
 * side sees {@code s.ready} straight from a flip-flop and the {@code m.ready} timing path is cut.
 * While the buffer is empty, {@code s} passes through to {@code m} combinationally; a beat that
 * is accepted while {@code m} stalls lands in the skid register and is offered from there next.
 *
 * <p><b>Parameters:</b> {@code payloadType}, any payload type (leaf or bundle, at least 1 bit).
 *
 * <p><b>Ports:</b> {@code s} upstream stream (this block is its sink), {@code m} downstream
 * stream (this block is its source), both in the current clock domain.
 *
 * <p><b>Timing:</b> latency 0 cycles (an accepted beat appears on {@code m} in the same cycle
 * when the skid register is empty); throughput one transfer per cycle with no bubble, and
 * {@code s.ready} stays high as long as {@code m.ready} is high. Paths: {@code s.valid/payload
 * -> m.valid/payload} are combinational; {@code s.ready} is a register output.
 *
 * @param <T> payload type
 */
public final class StreamSkidBuffer<T extends Data> extends Component {
    public final Stream<T> s;
    public final Stream<T> m;

    public StreamSkidBuffer(Supplier<T> payloadType) {
        s = slave(Stream.of(payloadType));
        m = master(Stream.of(payloadType));
        param("payloadWidth", s.payload.bitWidth());
        latency(0);

        Bool skidValid = reg("skid_valid", bool()).init(false);
        T skidPayload = reg(s.newPayload()).named("skid_payload");
        // Ready is registered: it only drops once a beat is parked in the skid register.
        s.ready.set(skidValid.not());
        m.valid.set(s.valid.or(skidValid));
        when(skidValid, () -> assignLeaves(m.payload, skidPayload))
                .otherwise(() -> assignLeaves(m.payload, s.payload));
        // A beat accepted while downstream stalls would be lost: park it.
        when(s.fire().andNot(m.ready), () -> {
            skidValid.set(true);
            assignLeaves(skidPayload, s.payload);
        });
        when(m.ready, () -> skidValid.set(false));

        s.assertProtocol("s", false);
        m.assertProtocol("m", true);
        assertThat(skidValid.not().or(s.fire().not()), "accepted a beat while the skid register is occupied");
    }
}
