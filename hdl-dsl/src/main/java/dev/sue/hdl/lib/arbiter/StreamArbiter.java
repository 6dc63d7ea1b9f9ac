// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.arbiter;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.hdl.lib.util.StreamAsserts;
import dev.sue.hdl.lib.stream.Stream;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Stream arbiter: {@code N} input streams share one output stream.
 *
 * <p>Parameters:
 * <ul>
 *   <li>{@code inputs} N, 1..1024.</li>
 *   <li>{@code payloadType}: payload of every stream.</li>
 *   <li>{@code policy}: {@link ArbiterPolicy}. With round robin, an input that is valid waits for
 *       at most {@code N-1} grants to other inputs (a grant is one beat, or one packet when locking).</li>
 *   <li>{@code packetLast}: when given, "lock until last": the input granted for the first beat
 *       of a packet keeps the output until the beat for which {@code packetLast(payload)} is
 *       true, so packets never interleave. When null, every beat is arbitrated on its own.</li>
 * </ul>
 *
 * <p>Ports: {@code s_0 .. s_<N-1>} (slave streams), {@code m} (master stream), {@code chosen}
 * (out, {@code log2Up(N)} bits): index of the input that {@code m} carries, meaningful while
 * {@code m_valid}, stable while {@code m} is stalled.
 *
 * <p>Protocol: once {@code m} is valid and stalled, the grant is held, so {@code m}'s payload and
 * {@code chosen} stay stable as the stream rules demand (a combinational arbiter that re-arbitrated
 * every cycle would break them when a higher-priority input arrives). {@code s_i_ready} is
 * {@code m_ready} gated by the grant.
 *
 * <p>Latency 0: valid, payload and ready pass combinationally. State: the arbiter's priority mask
 * plus a hold flag and the held grant.
 *
 * @param <T> payload type
 */
public final class StreamArbiter<T extends Data> extends Component {
    public final Vec<Stream<T>> s;
    public final Stream<T> m;
    public final UInt chosen;

    /** Beat-wise arbitration (no packet locking). */
    public StreamArbiter(int inputs, Supplier<T> payloadType, ArbiterPolicy policy) {
        this(inputs, payloadType, policy, null);
    }

    public StreamArbiter(int inputs, Supplier<T> payloadType, ArbiterPolicy policy, Function<T, Bool> packetLast) {
        param("inputs", inputs);
        param("policy", policy.name());
        param("lockUntilLast", packetLast != null);
        require(inputs >= 1 && inputs <= 1024, "inputs must be 1..1024, got " + inputs);
        s = slave(Vec.of(inputs, i -> Stream.of(payloadType)));
        m = master(Stream.of(payloadType));
        chosen = out(uint(log2Up(inputs)));
        latency(0);

        Bits valids = OneHot.fromBools(s.asList().stream().map(x -> x.valid).toList()).named("valids");
        Bool holding = reg("holding", bool()).init(false);
        Bits heldGrant = reg("held_grant", bits(inputs)).init(0);

        Arbiter arbiter = instance("arbiter", () -> new Arbiter(inputs, policy));
        // While holding, only the held input may request, so the arbiter keeps granting it (or
        // nothing, between the beats of a locked packet) and its round-robin mask advances past it.
        arbiter.request.set(mux(holding, valids.and(heldGrant), valids));
        arbiter.advance.set(m.fire());
        Bits grant = arbiter.grant;
        when(holding.not(), () -> heldGrant.set(grant));

        m.valid.set(grant.ne(0));
        assignFromBits(m.payload, OneHot.select(grant, payloads()).named("granted_payload"));
        for (int i = 0; i < inputs; i++) {
            s.get(i).ready.set(m.ready.and(grant.bit(i)));
        }
        chosen.set(arbiter.grantIndex);

        Bool endsGrant = packetLast == null ? TRUE : packetLast.apply(m.payload);
        // Hold while m is stalled, and (when locking) from a packet's first beat to its last.
        holding.set(mux(m.fire(), endsGrant.not(), holding.or(m.valid)));

        addAssertions(inputs, policy, packetLast != null, endsGrant);
    }

    /** Convenience: a packet-stream arbiter over {@link PacketBeat}s of {@code dataWidth} bits. */
    public static StreamArbiter<PacketBeat> forPackets(int inputs, int dataWidth, ArbiterPolicy policy,
            boolean lockUntilLast) {
        return new StreamArbiter<>(inputs, () -> new PacketBeat(dataWidth), policy,
                lockUntilLast ? beat -> beat.last : null);
    }

    private List<T> payloads() {
        return s.asList().stream().map(x -> x.payload).toList();
    }

    private void addAssertions(int inputs, ArbiterPolicy policy, boolean locking, Bool endsGrant) {
        for (int i = 0; i < inputs; i++) {
            s.get(i).assertProtocol("s_" + i, false);
        }
        m.assertProtocol("m", true);

        StreamAsserts.stableWhileStalled(m, chosen, "chosen");

        if (locking) {
            Bool midPacket = reg("mid_packet", bool()).init(false);
            UInt packetSource = reg("packet_source", uint(chosen.width())).init(0);
            when(m.fire(), () -> {
                midPacket.set(endsGrant.not());
                packetSource.set(chosen);
            });
            assertThat(m.valid.and(midPacket).not().or(chosen.eq(packetSource)),
                    "packets interleaved: another input was granted before the last beat");
        }
        if (policy == ArbiterPolicy.ROUND_ROBIN) {
            assertFairness(inputs, endsGrant);
        }
    }

    /**
     * Counts, per input, the grants to other inputs while it is valid; round robin allows N-1.
     * Like all SVA bookkeeping, these counters feed only assertions, so synthesis drops them.
     */
    private void assertFairness(int inputs, Bool endsGrant) {
        Bool grantDone = m.fire().and(endsGrant).named("grant_done");
        for (int i = 0; i < inputs; i++) {
            int index = i;
            Stream<T> in = s.get(i);
            UInt waited = reg("waited_" + i, uint(bitsFor(inputs))).init(0);
            when(in.fire(), () -> waited.set(0))
                    .elseWhen(in.valid.and(grantDone).and(chosen.ne(index)), () -> waited.set(waited.add(1)));
            assertThat(waited.le(inputs - 1), "round robin: s_" + i + " waited more than N-1 grants");
        }
    }
}
