// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.OneHot;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The op map of a buffer word: for each of its B/2 two-byte lanes, what an op header starting
 * there means ({@link Lane}). Computed from the input beat with one command-table lookup per
 * lane as the beat is written, and stored beside it, so both op walks of {@link RxDeliver} (the
 * validator's and the deliverer's header walk) pick a lane and move to its {@code end}: the
 * type -&gt; table -&gt; length chain and the position add are off their loops.
 */
final class RxOpMap {
    /** Bits of a data op's last-beat index: byte1 / B &lt;= 255 / 32 at the narrowest beat (256 bits). */
    static final int LAST_BEAT_BITS = 3;
    /**
     * Bits of a lane's {@code end}, a position in 2-byte units from the PDU's first byte: an op
     * region has at most 8191 bytes (13-bit length), an op header lies inside it and an op is at
     * most 137 units long, so an end is below 4096 + 137.
     */
    static final int END_BITS = 13;

    /**
     * One lane: {@code end} (where the op starting here ends, in 2-byte units from the PDU's
     * first byte: the lane's own position plus its length, {@code units + (data ? byte1 / 2 + 1
     * : 0)}, 1..137 units, an op's length is always even, ARCHITECTURE.md §5; for a stop lane its
     * own position), {@code stop} (PAD or an invalid type: the walk ends here), {@code invalid}
     * (the type is not valid in the table: the PDU is malformed), the table entry of its type
     * ({@code dataPresent}, {@code units}), and where a data op's bytes lie, so the deliverer's
     * decode takes no add or compare after the lane pick: {@code lastBeat} (index of its last
     * data beat, byte1 / B), {@code dataNextWord} (its data start in the word after the
     * header's: 2 * lane + 2 * units &gt;= B), {@code beat0InPair} (its beat 0 lies in the
     * header's word pair: 2 * lane + 2 * units &lt;= B).
     * <p>Why the end and not the length: the walks' next position is the picked {@code end}
     * (no adder after the pick), and whether the op reaches or runs past the PDU's end is
     * {@code end} against a bound fixed per PDU ({@link RxPduDesc#reachUnits}, length / 2),
     * compared on every lane before the pick ({@link #perLane}) so that only one bit is picked.
     */
    static final class Lane extends Bundle {
        final UInt end = uint(END_BITS);
        final Bool stop = bool();
        final Bool invalid = bool();
        final Bool dataPresent = bool();
        final UInt units = uint(4);
        final UInt lastBeat = uint(LAST_BEAT_BITS);
        final Bool dataNextWord = bool();
        final Bool beat0InPair = bool();

        @Override
        public Lane copyType() {
            return new Lane();
        }
    }

    /** Bits of one lane in a map word (during elaboration). */
    static int laneBits() {
        return new Lane().bitWidth();
    }

    private RxOpMap() {
    }

    /**
     * The op map of {@code data} (lane k from bit laneBits() * k on), looked up in {@code table};
     * {@code word} is the beat's word index in its PDU (the words written before it), so lane k
     * is at unit {@code word * B/2 + k} of the PDU.
     */
    static Bits of(Bits data, RxCommandTable table, UInt word) {
        int lanes = data.width() / 16;
        int beatBytes = data.width() / 8;
        int lb = log2Up(beatBytes);
        if (255 >> lb >= 1 << LAST_BEAT_BITS) {
            throw new IllegalArgumentException("op map: a " + data.width() + "-bit beat is below 256 bits");
        }
        UInt wordUnits = word.resize(END_BITS - (lb - 1));
        List<Bits> types = new ArrayList<>();
        List<Bits> out = new ArrayList<>();
        for (int k = lanes - 1; k >= 0; k--) {
            UInt type = data.slice(16 * k + 7, 16 * k).asUInt();
            UInt lenM1 = data.slice(16 * k + 15, 16 * k + 8).asUInt();
            types.add(type.asBits());
            Bool dataPresent = table.laneData.bit(k);
            UInt units = table.laneUnits.slice(4 * k + 3, 4 * k).asUInt();
            UInt withData = units.resize(8).add(lenM1.shr(1).resize(8)).add(1);
            Lane lane = wire("op_map_" + k, new Lane());
            Bool invalid = type.ne(0).andNot(table.laneValid.bit(k));
            Bool stop = type.eq(0).or(invalid);
            lane.stop.set(stop);
            lane.invalid.set(invalid);
            // the lane's own position (the word's units, then k: a concatenation, no add) plus
            // the op's length in units; a stop lane stays where it is
            UInt at = cat(wordUnits, U(k, lb - 1)).asUInt();
            UInt len = mux(stop, U(0, 8), mux(dataPresent, withData, units.resize(8)));
            lane.end.set(at.add(len.resize(END_BITS)));
            lane.dataPresent.set(dataPresent);
            lane.units.set(units);
            lane.lastBeat.set(lenM1.shr(lb).resize(LAST_BEAT_BITS));
            // 2k + 2u against B, as u against B/2 - k (a constant per lane)
            lane.dataNextWord.set(units.resize(lb).ge(beatBytes / 2 - k));
            lane.beat0InPair.set(units.resize(lb).le(beatBytes / 2 - k));
            out.add(asBits(lane));
        }
        table.laneType.set(cat(types));
        return cat(out);
    }

    /** Lane {@code lane} of {@code map}: one indexed read ({@link RxBuffer#choose}). */
    static Lane pick(String name, Bits map, UInt lane) {
        return pick(name, List.of(map), lane);
    }

    /**
     * Lane {@code index} of the maps laid end to end (a power-of-two count of equal maps): map
     * {@code index / lanes}, lane {@code index % lanes}. Choosing the map by the index's top bits
     * folds that 2:1 choice into the read (a 64:1 mux is 3 LUT levels, a 2:1 before a 32:1 is 4).
     */
    static Lane pick(String name, List<Bits> maps, UInt index) {
        int bits = laneBits();
        List<Bits> lanes = new ArrayList<>();
        for (Bits map : maps) {
            for (int k = 0; k < map.width() / bits; k++) {
                lanes.add(map.slice(bits * k + bits - 1, bits * k));
            }
        }
        Lane l = wire(name, new Lane());
        assignFromBits(l, RxBuffer.choose(lanes, index));
        return l;
    }

    /**
     * {@code test} of every lane of {@code map}, lane k at bit k, for {@link #pickBit}: a decision
     * on the lane at a late index is then one bit picked, not the whole lane picked and tested
     * after (a 19-bit lane pick mapped as 4-5 LUT levels in yosys before the test even began).
     */
    static Bits perLane(String name, Bits map, Function<Lane, Bool> test) {
        return OneHot.fromBools(eachLane(name, map, test)).named(name);
    }

    /** {@code f} of every lane of {@code map}, lane k at index k. */
    private static <T> List<T> eachLane(String name, Bits map, Function<Lane, T> f) {
        int bits = laneBits();
        List<T> out = new ArrayList<>();
        for (int k = 0; k < map.width() / bits; k++) {
            Lane l = wire(name + "_lane_" + k, new Lane());
            assignFromBits(l, map.slice(bits * k + bits - 1, bits * k));
            out.add(f.apply(l));
        }
        return out;
    }

    /**
     * {@code field} of lane {@code lane} of {@code map}, computed on every lane before the pick
     * (for a field used inverted or widened straight after it): one indexed read.
     */
    static Bits pickField(String name, Bits map, UInt lane, Function<Lane, Bits> field) {
        return RxBuffer.choose(eachLane(name, map, field), lane).named(name);
    }

    /** Bit {@code lane} of a {@link #perLane} result: one indexed read ({@link RxBuffer#choose}). */
    static Bool pickBit(String name, Bits perLane, UInt lane) {
        List<Bits> c = new ArrayList<>();
        for (int k = 0; k < perLane.width(); k++) {
            c.add(perLane.bit(k).asBits());
        }
        return RxBuffer.choose(c, lane).bit(0).named(name);
    }

    /** The lane's op is a PAD (a stop that is not an invalid type). */
    static Bool isPad(Lane l) {
        return l.stop.andNot(l.invalid);
    }
}
