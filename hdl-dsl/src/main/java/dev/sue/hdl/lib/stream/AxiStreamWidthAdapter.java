// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.stream;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.BaseType;
import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * AXI4-Stream width adapter: {@code inWidth} to {@code outWidth} data bits, byte-exact, at full
 * throughput, both sides registered.
 *
 * <h2>Parameters</h2>
 * <ul>
 * <li>{@code inWidth}, {@code outWidth}: {@code tdata} bits of {@code s} and {@code m}, multiples
 *     of 8 in 8..4096, the wider a power-of-two multiple (1, 2, 4 .. 64) of the narrower: a
 *     narrow beat is a lane of the wide one. Equal widths are a plain connection.
 * <li>{@code userWidth}: {@code tuser} bits on both sides (0: no {@code tuser}).
 * </ul>
 *
 * <h2>Ports</h2>
 * {@code s} (slave {@link AxiStream}: {@code s_tvalid, s_tready, s_tdata, s_tkeep, s_tlast,
 * s_tuser}) and {@code m} (master, {@code m_t*}). Byte 0 of a packet is in {@code tdata[7:0]};
 * lane k of a wide beat (bytes {@code k*B .. k*B+B-1}, B the narrow width in bytes) is the k-th
 * narrow beat. {@code tkeep} is contiguous from byte 0 and partial only on a packet's last beat
 * (the MAC streams' rule, asserted on both sides in simulation).
 *
 * <h2>Downsizing ({@code inWidth > outWidth})</h2>
 * A wide beat becomes its lanes up to the last one holding a kept byte, in order: a short last
 * beat ends early (no narrow beat with an empty {@code tkeep}; a wide beat with no kept byte, which
 * the rule allows on {@code tlast}, gives one). The lane holding the last kept byte carries the wide beat's {@code tlast}.
 * {@code tuser}: every narrow beat carries its wide beat's (so a per-beat flag stays on every
 * piece, and a last-beat flag reaches the last piece).
 *
 * <h2>Upsizing ({@code inWidth < outWidth})</h2>
 * Narrow beat k of a wide beat fills lane k; the wide beat leaves when its last lane is filled
 * or a narrow beat with {@code tlast} arrives, with the lanes after it empty ({@code tkeep} 0,
 * data don't-care): packets never share a wide beat. {@code tuser} of the wide beat: its last
 * narrow beat's, so a flag a MAC gives on a packet's last beat only (an RX error, the others'
 * {@code tuser} to be ignored) stays exact; downsizing then upsizing gives back the original.
 *
 * <h2>Timing</h2>
 * Latency 1 either way. Throughput: downsizing, one narrow beat per cycle on {@code m} (a wide
 * beat is taken in the cycle its last lane leaves); upsizing, one narrow beat per cycle on
 * {@code s}. {@code m} comes from registers (downsizing: the low lane of a register that shifts
 * down a lane per beat, so no lane multiplexer). {@code s_tready} is one LUT of {@code m_tready}
 * and registers; the data paths are a lane's write enable and a 2:1 multiplexer.
 */
public final class AxiStreamWidthAdapter extends Component {
    /** The largest ratio of the wider to the narrower width. */
    public static final int MAX_RATIO = 64;

    public final AxiStream s;
    public final AxiStream m;
    private final int inWidth;
    private final int outWidth;
    private final int userWidth;

    public AxiStreamWidthAdapter(int inWidth, int outWidth, int userWidth) {
        param("inWidth", inWidth);
        param("outWidth", outWidth);
        param("userWidth", userWidth);
        this.inWidth = inWidth;
        this.outWidth = outWidth;
        this.userWidth = userWidth;
        require(validWidth(inWidth), "inWidth must be a multiple of 8 in 8..4096, got " + inWidth);
        require(validWidth(outWidth), "outWidth must be a multiple of 8 in 8..4096, got " + outWidth);
        require(userWidth >= 0 && userWidth <= 4096, "userWidth must be 0 (no tuser) .. 4096, got " + userWidth);
        String ratioError = ratioError(inWidth, outWidth);
        require(ratioError == null, ratioError);
        s = slave(new AxiStream(inWidth, userWidth));
        m = master(new AxiStream(outWidth, userWidth));
        keepRule(s, "s");
        keepRule(m, "m");
        if (inWidth == outWidth) {
            latency(0);
            connect(m, s);
        } else {
            latency(1);
            if (inWidth > outWidth) {
                buildDownsizer(inWidth / outWidth);
            } else {
                buildUpsizer(outWidth / inWidth);
            }
        }
    }

    /**
     * Null when {@code wide / narrow} (either way round) is a whole power of two up to
     * {@link #MAX_RATIO}, else the reason, naming the valid widths.
     */
    public static String ratioError(int inWidth, int outWidth) {
        int wide = Math.max(inWidth, outWidth);
        int narrow = Math.min(inWidth, outWidth);
        if (narrow <= 0 || wide % narrow != 0 || !isPowerOfTwo(wide / narrow) || wide / narrow > MAX_RATIO) {
            return "inWidth " + inWidth + " -> outWidth " + outWidth + ": the wider width must be the narrower "
                    + "times 1, 2, 4, 8, 16, 32 or 64 (a narrow beat is a lane of the wide one); with " + narrow
                    + " the other width may be " + validPartners(narrow);
        }
        return null;
    }

    private static String validPartners(int narrow) {
        List<String> widths = new ArrayList<>();
        for (int r = MAX_RATIO; r >= 2; r /= 2) {
            if (narrow % (8 * r) == 0) {
                widths.add(Integer.toString(narrow / r));
            }
        }
        for (int r = 1; r <= MAX_RATIO && (long) narrow * r <= 4096; r *= 2) {
            widths.add(Integer.toString(narrow * r));
        }
        return String.join(", ", widths);
    }

    private static boolean validWidth(int width) {
        return width >= 8 && width <= 4096 && width % 8 == 0;
    }

    /**
     * One wide register, shifted down a lane per narrow beat: {@code m} is its low lane. {@code more}
     * bit k says a lane after the k-th remaining one still holds a kept byte (bit 0 clear: the low
     * lane is the wide beat's last).
     */
    private void buildDownsizer(int ratio) {
        int laneBytes = outWidth / 8;
        Bits data = reg("held_data", bits(inWidth));
        Bits keep = reg("held_keep", bits(inWidth / 8));
        Bool last = reg("held_last", bool());
        Bits user = userWidth == 0 ? null : reg("held_user", bits(userWidth));
        Bool valid = reg("held_valid", bool()).init(false);
        Bits more = reg("more_lanes", bits(ratio - 1)).init(0);

        Bool finalLane = more.bit(0).not().named("final_lane");
        m.tvalid.set(valid);
        m.tdata.set(data.low(outWidth));
        m.tkeep.set(keep.low(laneBytes));
        m.tlast.set(last.and(finalLane));
        if (user != null) {
            m.tuser.set(user);
        }
        Bool take = valid.not().or(m.tready.and(finalLane)).named("take");
        s.tready.set(take);

        // tkeep runs from byte 0: a lane after lane k holds a kept byte iff lane k+1's first byte is kept
        List<Bool> keptAfter = new ArrayList<>();
        for (int k = 0; k < ratio - 1; k++) {
            keptAfter.add(s.tkeep.bit((k + 1) * laneBytes));
        }
        when(s.tvalid.and(take), () -> {
            data.set(s.tdata);
            keep.set(s.tkeep);
            last.set(s.tlast);
            if (user != null) {
                user.set(s.tuser);
            }
            more.set(lsbFirst(keptAfter));
            valid.set(true);
        }).otherwise(() -> when(valid.and(m.tready), () -> {
            data.set(data.shr(outWidth));
            keep.set(keep.shr(laneBytes));
            more.set(ratio == 2 ? B(0, 1) : more.shr(1));
            when(finalLane, () -> valid.set(false));
        }));
    }

    /**
     * A register per lane, written by the narrow beat at the one-hot {@code lane}; the lanes are
     * the output register. The wide beat leaves at its last lane or {@code tlast}.
     */
    private void buildUpsizer(int ratio) {
        int laneBytes = inWidth / 8;
        List<Bits> laneData = new ArrayList<>();
        List<Bits> laneKeep = new ArrayList<>();
        for (int k = 0; k < ratio; k++) {
            laneData.add(reg("lane_data_" + k, bits(inWidth)));
            laneKeep.add(reg("lane_keep_" + k, bits(laneBytes)).init(0));
        }
        Bits user = userWidth == 0 ? null : reg("packed_user", bits(userWidth));
        Bool valid = reg("out_valid", bool()).init(false);
        Bool last = reg("out_last", bool()).init(false);
        Bits lane = reg("lane", bits(ratio)).init(1);

        m.tvalid.set(valid);
        m.tdata.set(lsbFirst(laneData));
        m.tkeep.set(lsbFirst(laneKeep));
        m.tlast.set(last);
        if (user != null) {
            m.tuser.set(user);
        }
        Bool take = valid.not().or(m.tready).named("take");
        s.tready.set(take);
        Bool firstLane = lane.bit(0);
        Bool flush = s.tlast.or(lane.bit(ratio - 1)).named("flush");

        when(valid.and(m.tready), () -> valid.set(false));
        when(s.tvalid.and(take), () -> {
            for (int k = 0; k < ratio; k++) {
                int index = k;
                when(lane.bit(index), () -> {
                    laneData.get(index).set(s.tdata);
                    laneKeep.get(index).set(s.tkeep);
                });
                if (k > 0) {
                    // a new wide beat: the lanes a short packet will not reach must read empty
                    when(firstLane, () -> laneKeep.get(index).set(0));
                }
            }
            if (user != null) {
                user.set(s.tuser);
            }
            when(flush, () -> {
                valid.set(true);
                last.set(s.tlast);
                lane.set(1);
            }).otherwise(() -> lane.set(cat(lane.slice(ratio - 2, 0), lane.bit(ratio - 1))));
        });
    }

    /** SVA for the {@code tkeep} rule: a run of ones from byte 0, all ones unless {@code tlast}. */
    private static void keepRule(AxiStream stream, String what) {
        UInt keep = stream.tkeep.asUInt();
        when(stream.tvalid, () -> {
            assertThat(keep.and(keep.add(1)).eq(0), what + ": tkeep is not contiguous from byte 0");
            assertThat(stream.tlast.or(stream.tkeep.andR()), what + ": partial tkeep on a beat that is not last");
        });
    }

    /** Element 0 at the least significant end (lane 0 holds byte 0). */
    private static Bits lsbFirst(List<? extends BaseType> lanes) {
        List<BaseType> reversed = new ArrayList<>(lanes);
        Collections.reverse(reversed);
        return cat(reversed);
    }
}
