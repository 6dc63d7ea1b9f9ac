// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.width;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.BaseType;
import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.PacketAsserts;
import java.util.ArrayList;
import java.util.List;

/**
 * Packet width up-sizer: {@code ratio} narrow beats become one wide beat, byte-exact.
 *
 * <p>Parameters:
 * <ul>
 *   <li>{@code inputWidth}: data bits of {@code s}, a multiple of 8, 8..4096.</li>
 *   <li>{@code ratio}: 1..64; {@code m} is {@code inputWidth * ratio} bits wide. Ratio 1 is a
 *       plain connection (latency 0).</li>
 * </ul>
 *
 * <p>Ports: {@code s} (slave {@link PacketBeat} stream, narrow), {@code m} (master, wide).
 *
 * <p>Behaviour: narrow beat {@code k} of a wide beat fills lane {@code k} (bytes {@code k*B ..
 * k*B+B-1} with {@code B = inputWidth/8}; lane 0 is first on the wire). A wide beat is emitted
 * when all lanes are filled or a narrow beat with {@code last} arrives; then the lanes after it
 * have {@code keep} zero (their data is don't-care) and the partial narrow keep is copied, so
 * the wide beat keeps the packet's exact byte count. Packets never share a wide beat.
 *
 * <p>Latency 1: the wide beat is valid the cycle after its final narrow beat is taken. Throughput:
 * one narrow beat per cycle; the output register is refilled in the cycle it is emptied.
 * State: the wide output register, a lane counter.
 */
public final class PacketUpsizer extends Component {
    public final Stream<PacketBeat> s;
    public final Stream<PacketBeat> m;

    public PacketUpsizer(int inputWidth, int ratio) {
        param("inputWidth", inputWidth);
        param("ratio", ratio);
        require(inputWidth >= 8 && inputWidth <= 4096 && inputWidth % 8 == 0,
                "inputWidth must be a multiple of 8 in 8..4096, got " + inputWidth);
        require(ratio >= 1 && ratio <= 64, "ratio must be 1..64, got " + ratio);
        s = slave(Stream.of(() -> new PacketBeat(inputWidth)));
        m = master(Stream.of(() -> new PacketBeat(inputWidth * ratio)));

        if (ratio == 1) {
            latency(0);
            m.connectFrom(s);
        } else {
            latency(1);
            buildPacker(inputWidth, ratio);
        }
        PacketAsserts.wellFormed(s, "s");
        PacketAsserts.wellFormed(m, "m");
        s.assertProtocol("s", false);
        m.assertProtocol("m", true);
    }

    private void buildPacker(int inputWidth, int ratio) {
        int laneBytes = inputWidth / 8;
        List<Bits> laneData = new ArrayList<>();
        List<Bits> laneKeep = new ArrayList<>();
        for (int k = 0; k < ratio; k++) {
            laneData.add(reg("lane_data_" + k, bits(inputWidth)));
            laneKeep.add(reg("lane_keep_" + k, bits(laneBytes)).init(0));
        }
        Bool outValid = reg("out_valid", bool()).init(false);
        Bool outLast = reg("out_last", bool()).init(false);
        UInt lane = reg("lane", uint(log2Up(ratio))).init(0);

        s.ready.set(outValid.not().or(m.ready));
        m.valid.set(outValid);
        m.payload.data.set(msbFirst(laneData));
        m.payload.keep.set(msbFirst(laneKeep));
        m.payload.last.set(outLast);

        when(m.fire(), () -> outValid.set(false));
        when(s.fire(), () -> {
            // A new wide beat starts at lane 0: lanes a short packet will not reach must read empty.
            when(lane.eq(0), () -> {
                for (int k = 1; k < ratio; k++) {
                    laneKeep.get(k).set(0);
                }
            });
            for (int k = 0; k < ratio; k++) {
                int index = k;
                when(lane.eq(index), () -> {
                    laneData.get(index).set(s.payload.data);
                    laneKeep.get(index).set(s.payload.keep);
                });
            }
            when(s.payload.last.or(lane.eq(ratio - 1)), () -> {
                outValid.set(true);
                outLast.set(s.payload.last);
                lane.set(0);
            }).otherwise(() -> lane.set(lane.add(1)));
        });
    }

    /** Lane 0 at the least significant end, where byte 0 of the wide beat lives. */
    private static Bits msbFirst(List<Bits> lanes) {
        List<BaseType> reversed = new ArrayList<>(lanes);
        java.util.Collections.reverse(reversed);
        return cat(reversed);
    }
}
