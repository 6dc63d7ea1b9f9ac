// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.demo;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Stream;

/**
 * Test design for the inline stream operations {@link Stream#throwWhen}, {@link Stream#haltWhen}
 * and {@link Stream#map}: with {@code haltFirst},
 * {@code m = s.haltWhen(halt).throwWhen(drop || (dropOdd && s.payload[0])).map(p -> p + 1)};
 * without, {@code m = s.throwWhen(...).haltWhen(halt).map(p -> p + 1)}.
 *
 * <p><b>Parameters:</b> {@code width}, the payload width in bits, 1..64; {@code haltFirst}, the
 * order of the two filters (see below).
 *
 * <p><b>Ports</b> (all in the default clock domain):
 * <ul>
 *   <li>{@code s} ({@code s_valid}, {@code s_ready}, {@code s_payload[width]}): input stream;
 *   <li>{@code m} ({@code m_valid}, {@code m_ready}, {@code m_payload[width]}): output stream;
 *   <li>{@code drop}: while high, every beat offered on {@code s} is accepted and discarded;
 *   <li>{@code drop_odd}: while high, beats whose payload bit 0 is 1 are accepted and discarded;
 *   <li>{@code halt}: while high, the stream is held: {@code s_ready} and {@code m_valid} are low.
 * </ul>
 *
 * <p><b>Behaviour:</b> purely combinational (latency 0). A beat is dropped when it transfers on
 * {@code s} while the drop condition {@code drop || (drop_odd && payload[0])} holds. With
 * {@code haltFirst}, {@code halt} stops every transfer on both sides; without, it stops only the
 * kept beats: a beat offered while both the drop condition and {@code halt} hold is still accepted
 * (and dropped), since {@code throwWhen} sits upstream of {@code haltWhen}. Every other
 * beat appears on {@code m} exactly once, in order, with payload {@code (payload + 1) mod
 * 2^width}, in the same cycle as its transfer on {@code s}. The controls act combinationally on
 * {@code m_valid}: raising {@code drop}, {@code drop_odd} or {@code halt} while {@code m} is
 * stalled (valid, not ready) would withdraw a beat before its transfer, which the stream rules
 * forbid; drivers must hold them while {@code m} is stalled (the output's SVA checks this).
 */
public final class StreamFilterDemo extends Component {
    public final Stream<UInt> s;
    public final Stream<UInt> m;
    public final Bool drop = in(bool());
    public final Bool dropOdd = in(bool());
    public final Bool halt = in(bool());

    public StreamFilterDemo(int width, boolean haltFirst) {
        param("width", width);
        param("haltFirst", haltFirst);
        require(width >= 1 && width <= 64, "width must be 1..64, got " + width);
        s = slave(Stream.of(() -> uint(width)));
        m = master(Stream.of(() -> uint(width)));
        latency(0);

        Bool dropNow = wire("drop_now", bool());
        dropNow.set(drop.or(dropOdd.and(s.payload.bit(0))));
        Stream<UInt> filtered = haltFirst ? s.haltWhen(halt).throwWhen(dropNow) : s.throwWhen(dropNow).haltWhen(halt);
        m.connectFrom(filtered.map(() -> uint(width), p -> p.add(1)));

        s.assertProtocol("s", false);
        m.assertProtocol("m", true);
    }
}
