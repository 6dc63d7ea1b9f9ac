// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.stream;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Data;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A valid/ready stream carrying a payload of type {@code T}.
 *
 * <p>Protocol (AXI-Stream rules): a transfer happens on a clock edge where {@code valid} and
 * {@code ready} are both high ({@link #fire}). Once {@code valid} is high it stays high, and the
 * payload stays stable, until the transfer; {@code valid} must not depend combinationally on
 * {@code ready}. Fields flatten to {@code <name>_valid}, {@code <name>_ready} and the payload:
 * {@code <name>_payload} for a leaf, or the payload bundle's own fields ({@code <name>_data},
 * {@code <name>_last}, ...) for a bundle.
 *
 * <p>Declare ports with {@code slave(Stream.of(...))} (input side) and
 * {@code master(Stream.of(...))} (output side).
 *
 * @param <T> payload type
 */
public class Stream<T extends Data> extends Bundle {
    public final Bool valid = bool();
    public final Bool ready = flipped(bool());
    public final T payload;
    private final Supplier<T> payloadType;

    public Stream(Supplier<T> payloadType) {
        this.payloadType = payloadType;
        this.payload = inlined(payloadType.get());
    }

    public static <T extends Data> Stream<T> of(Supplier<T> payloadType) {
        return new Stream<>(payloadType);
    }

    /** A fresh payload value of this stream's type (unbound). */
    public T newPayload() {
        return payloadType.get();
    }

    public Supplier<T> payloadType() {
        return payloadType;
    }

    @Override
    public Stream<T> copyType() {
        return new Stream<>(payloadType);
    }

    /** A transfer happens this cycle. */
    public Bool fire() {
        return valid.and(ready);
    }

    /** Valid but not accepted: the payload must be held. */
    public Bool isStall() {
        return valid.andNot(ready);
    }

    /** Drives this stream (as a sink) from {@code source}: valid and payload forward, ready back. */
    public void connectFrom(Stream<T> source) {
        connect(this, source);
    }

    /** A new stream wire in the current component, named after this stream plus {@code suffix}. */
    public Stream<T> newWire(String suffix) {
        return wire(copyType()).nameAfter(this, suffix);
    }

    /**
     * Drops payloads (accepting them) while {@code condition} holds. Combinational, latency 0.
     * The condition gates the output {@code valid} directly: it must not rise while the output
     * is stalled, or the offered beat would be withdrawn against the stream rules.
     */
    public Stream<T> throwWhen(Bool condition) {
        Stream<T> out = newWire("_thrown");
        out.valid.set(valid.andNot(condition));
        assignLeaves(out.payload, payload);
        ready.set(out.ready.or(condition));
        return out;
    }

    /**
     * Holds the stream (neither valid downstream nor ready upstream) while {@code condition} holds.
     * Like {@link #throwWhen}, the condition gates the output {@code valid} combinationally: it
     * must not rise while the output is stalled.
     */
    public Stream<T> haltWhen(Bool condition) {
        Stream<T> out = newWire("_halted");
        out.valid.set(valid.andNot(condition));
        assignLeaves(out.payload, payload);
        ready.set(out.ready.andNot(condition));
        return out;
    }

    /**
     * Adds SVA for the stream rules as seen by the component being built: once valid while not
     * ready, {@code valid} stays high and the payload stays stable until the transfer. When
     * {@code drivenHere} (the stream is this component's output), {@code valid} must also be low
     * while reset is asserted, from the second reset edge on: a synchronous reset clears a
     * registered {@code valid} only at its first edge, so a reset that arrives mid-transfer sees
     * it high there. {@code what} names the stream in failure messages.
     */
    public void assertProtocol(String what, boolean drivenHere) {
        Bool stalledBefore = reg(bool()).init(false).nameAfter(this, "_stalled_q");
        stalledBefore.set(isStall());
        T payloadBefore = reg(newPayload()).nameAfter(this, "_payload_q");
        assignLeaves(payloadBefore, payload);
        assertThat(stalledBefore.not().or(valid), what + ": valid fell before the transfer");
        assertThat(stalledBefore.not().or(asBits(payloadBefore).eq(asBits(payload))),
                what + ": payload changed while stalled");
        if (drivenHere) {
            // Reads 1 at the first edge of a reset (it was running before) and 0 at later ones.
            Bool running = reg(bool()).init(false).nameAfter(this, "_running_q");
            running.set(true);
            assertInReset(running.or(valid.not()), what + ": valid during reset");
        }
    }

    // ---- pipelines and queues: each instantiates a library block in the component being built,
    // ---- feeds it from this stream and returns its output stream.

    /** Through a {@link StreamForwardRegister}: valid and payload registered, latency 1. */
    public Stream<T> m2sPipe() {
        StreamForwardRegister<T> stage = instance(() -> new StreamForwardRegister<>(payloadType));
        stage.s.connectFrom(this);
        return stage.m;
    }

    /** Through a {@link StreamSkidBuffer}: ready registered, latency 0, no bubble. */
    public Stream<T> s2mPipe() {
        StreamSkidBuffer<T> stage = instance(() -> new StreamSkidBuffer<>(payloadType));
        stage.s.connectFrom(this);
        return stage.m;
    }

    /** Through a {@link StreamFullRegister}: every output registered, latency 1, full throughput. */
    public Stream<T> fullPipe() {
        StreamFullRegister<T> stage = instance(() -> new StreamFullRegister<>(payloadType));
        stage.s.connectFrom(this);
        return stage.m;
    }

    /** Through a {@link StreamHalfRegister}: every output registered, latency 1, half throughput. */
    public Stream<T> halfPipe() {
        StreamHalfRegister<T> stage = instance(() -> new StreamHalfRegister<>(payloadType));
        stage.s.connectFrom(this);
        return stage.m;
    }

    /**
     * Through a {@link StreamFifo} of {@code depth} entries, in registers up to 8 entries and in
     * RAM above ({@link FifoStorage#forDepth}). Instantiate {@link StreamFifo} directly to read
     * its occupancy or almost-full outputs.
     */
    public Stream<T> queue(int depth) {
        return queue(depth, FifoStorage.forDepth(depth));
    }

    /** Through a {@link StreamFifo} of {@code depth} entries kept in {@code storage}. */
    public Stream<T> queue(int depth, FifoStorage storage) {
        StreamFifo<T> fifo = instance(() -> new StreamFifo<>(payloadType, depth, storage, Math.max(depth, 1)));
        fifo.s.connectFrom(this);
        return fifo.m;
    }

    /** Transforms the payload combinationally; the handshake passes through. */
    public <U extends Data> Stream<U> map(Supplier<U> type, Function<T, U> f) {
        Stream<U> out = wire(new Stream<>(type)).nameAfter(this, "_mapped");
        out.valid.set(valid);
        assignLeaves(out.payload, f.apply(payload));
        ready.set(out.ready);
        return out;
    }
}
