// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.width;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.hdl.lib.util.PacketAsserts;
import java.util.ArrayList;
import java.util.List;

/**
 * Packet width down-sizer: one wide beat becomes up to {@code ratio} narrow beats, byte-exact.
 *
 * <p>Parameters:
 * <ul>
 *   <li>{@code inputWidth}: data bits of {@code s}, 8..4096; {@code inputWidth / ratio} must be
 *       a whole number of bytes.</li>
 *   <li>{@code ratio}: 1..64; {@code m} is {@code inputWidth / ratio} bits wide. Ratio 1 is a
 *       plain connection.</li>
 * </ul>
 *
 * <p>Ports: {@code s} (slave {@link PacketBeat} stream, wide), {@code m} (master, narrow).
 *
 * <p>Behaviour: lane {@code k} of the wide beat (bytes {@code k*B .. k*B+B-1}, {@code B} the
 * narrow width in bytes) becomes narrow beat {@code k}. Lanes after the last valid byte of a
 * packet's last beat are skipped, and the narrow beat holding that byte carries {@code last}
 * and the partial keep. Full wide beats take {@code ratio} cycles.
 *
 * <p>Latency 0: {@code m} shows lane {@code lane} of the waiting wide beat combinationally; the
 * wide beat is released ({@code s_ready}) when its final lane is taken. State: a lane counter.
 */
public final class PacketDownsizer extends Component {
    public final Stream<PacketBeat> s;
    public final Stream<PacketBeat> m;

    public PacketDownsizer(int inputWidth, int ratio) {
        param("inputWidth", inputWidth);
        param("ratio", ratio);
        require(ratio >= 1 && ratio <= 64, "ratio must be 1..64, got " + ratio);
        require(inputWidth >= 8 && inputWidth <= 4096 && inputWidth % (8 * ratio) == 0,
                "inputWidth must be in 8..4096 and split into " + ratio + " whole-byte lanes, got " + inputWidth);
        int outputWidth = inputWidth / ratio;
        s = slave(Stream.of(() -> new PacketBeat(inputWidth)));
        m = master(Stream.of(() -> new PacketBeat(outputWidth)));
        latency(0);

        if (ratio == 1) {
            m.connectFrom(s);
        } else {
            buildSplitter(outputWidth, ratio);
        }
        PacketAsserts.wellFormed(s, "s");
        PacketAsserts.wellFormed(m, "m");
        s.assertProtocol("s", false);
        m.assertProtocol("m", true);
    }

    private void buildSplitter(int outputWidth, int ratio) {
        int laneBytes = outputWidth / 8;
        List<Bits> laneData = new ArrayList<>();
        List<Bits> laneKeep = new ArrayList<>();
        List<Bool> finalLane = new ArrayList<>();
        for (int k = 0; k < ratio; k++) {
            laneData.add(s.payload.data.slice((k + 1) * outputWidth - 1, k * outputWidth));
            laneKeep.add(s.payload.keep.slice((k + 1) * laneBytes - 1, k * laneBytes));
        }
        for (int k = 0; k < ratio; k++) {
            // Keep is contiguous, so an empty next lane means nothing of this packet follows.
            finalLane.add(k == ratio - 1 ? TRUE : laneKeep.get(k + 1).eq(0));
        }
        UInt lane = reg("lane", uint(log2Up(ratio))).init(0);
        Bits atLane = OneHot.decode(lane, ratio).named("at_lane");
        Bool isFinal = OneHot.select(atLane, finalLane).asBool().named("final_lane");

        m.valid.set(s.valid);
        m.payload.data.set(OneHot.select(atLane, laneData));
        m.payload.keep.set(OneHot.select(atLane, laneKeep));
        m.payload.last.set(s.payload.last.and(isFinal));
        s.ready.set(m.ready.and(isFinal));
        when(m.fire(), () -> lane.set(mux(isFinal, U(0, lane.width()), lane.add(1))));
        if (ratio < 1 << lane.width()) {
            assertThat(lane.lt(ratio), "lane counter out of range");
        }
    }
}
