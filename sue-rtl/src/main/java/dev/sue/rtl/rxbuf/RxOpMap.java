// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.List;

/**
 * The op map of a buffer word: for each of its B/2 two-byte lanes, what an op header starting
 * there means ({@link Lane}). Computed from the input beat with one command-table lookup per
 * lane as the beat is written, and stored beside it, so both op walks of {@link RxDeliver} (the
 * validator's and the deliverer's header walk) pick a lane and add its length: the type -&gt;
 * table -&gt; length chain is off their loops.
 */
final class RxOpMap {
    /** Lane code of a PAD (type 0): the walk stops, the PDU is fine. */
    static final int PAD = 0;
    /** Lane code of a type not valid in the table: the PDU is malformed. */
    static final int INVALID = 0xFF;

    /**
     * One lane: {@code code} ({@link #PAD}, {@link #INVALID}, else the op's length in 2-byte
     * units, {@code units + (data ? byte1 / 2 + 1 : 0)}, 1..137: an op's length is always even,
     * ARCHITECTURE.md §5), and the table entry of its type ({@code dataPresent}, {@code units}).
     */
    static final class Lane extends Bundle {
        final UInt code = uint(8);
        final Bool dataPresent = bool();
        final UInt units = uint(4);

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

    /** The op map of {@code data} (lane k from bit laneBits() * k on), looked up in {@code table}. */
    static Bits of(Bits data, RxCommandTable table) {
        int lanes = data.width() / 16;
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
            lane.code.set(mux(type.eq(0), U(PAD, 8),
                    mux(table.laneValid.bit(k), mux(dataPresent, withData, units.resize(8)), U(INVALID, 8))));
            lane.dataPresent.set(dataPresent);
            lane.units.set(units);
            out.add(asBits(lane));
        }
        table.laneType.set(cat(types));
        return cat(out);
    }

    /** Lane {@code lane} of {@code map}: a tree of 4:1 muxes. */
    static Lane pick(String name, Bits map, UInt lane) {
        int bits = laneBits();
        List<Bits> lanes = new ArrayList<>();
        for (int k = 0; k < map.width() / bits; k++) {
            lanes.add(map.slice(bits * k + bits - 1, bits * k));
        }
        Lane l = wire(name, new Lane());
        assignFromBits(l, RxBuffer.muxTree(lanes, lane));
        return l;
    }

    /** The lane's op is a PAD / an invalid type. */
    static Bool isPad(Lane l) {
        return l.code.eq(PAD);
    }

    static Bool isInvalid(Lane l) {
        return l.code.eq(INVALID);
    }

    /** The op's length in bytes (meaningful for a valid type). */
    static UInt bytes(Lane l) {
        return l.code.resize(14).shl(1);
    }
}
