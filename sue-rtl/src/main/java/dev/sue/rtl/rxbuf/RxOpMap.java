// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.List;

/**
 * The op map of a buffer word: for each of its B/2 two-byte lanes, what an op header starting
 * there means, as one code byte: {@link #PAD} (type 0: the walk stops, the PDU is fine),
 * {@link #INVALID} (type not valid in the command table: the PDU is malformed), else the op's
 * length in 2-byte units ({@code units + (data ? byte1 / 2 + 1 : 0)}, 1..137; an op's length is
 * always even, ARCHITECTURE.md §5). Computed from the input beat with one table lookup per lane
 * as the beat is written, and stored beside it, so the validator's walk ({@link RxOpValidator})
 * only picks a lane's code and adds it: the type -> table -> length chain is off its loop.
 */
final class RxOpMap {
    /** Bits per lane code. */
    static final int CODE_BITS = 8;
    static final int PAD = 0;
    static final int INVALID = 0xFF;

    private RxOpMap() {
    }

    /** The op map of {@code data} (lane k's code in bits 8k+7:8k), looked up in {@code table}. */
    static Bits of(Bits data, RxCommandTable table) {
        int lanes = data.width() / 16;
        table.laneType.set(laneBytes(data, 0));
        List<Bits> codes = new ArrayList<>();
        for (int k = lanes - 1; k >= 0; k--) {
            UInt type = data.slice(16 * k + 7, 16 * k).asUInt();
            UInt lenM1 = data.slice(16 * k + 15, 16 * k + 8).asUInt();
            UInt units = table.laneUnits.slice(4 * k + 3, 4 * k).asUInt().resize(CODE_BITS);
            UInt withData = units.add(lenM1.shr(1).resize(CODE_BITS)).add(1);
            UInt len = mux(table.laneData.bit(k), withData, units);
            codes.add(mux(type.eq(0), B(PAD, CODE_BITS),
                    mux(table.laneValid.bit(k), len.asBits(), B(INVALID, CODE_BITS))).named("op_map_" + k));
        }
        return cat(codes);
    }

    /** Byte {@code offset} of every 2-byte lane of {@code data}, lane 0 at the least significant end. */
    private static Bits laneBytes(Bits data, int offset) {
        List<Bits> bytes = new ArrayList<>();
        for (int k = data.width() / 16 - 1; k >= 0; k--) {
            bytes.add(data.slice(16 * k + 8 * offset + 7, 16 * k + 8 * offset));
        }
        return cat(bytes);
    }

    /** The code of lane {@code lane} of {@code map}: a tree of 4:1 muxes. */
    static UInt pick(Bits map, UInt lane) {
        List<Bits> codes = new ArrayList<>();
        for (int k = 0; k < map.width() / CODE_BITS; k++) {
            codes.add(map.slice(CODE_BITS * k + CODE_BITS - 1, CODE_BITS * k));
        }
        return RxBuffer.muxTree(codes, lane).asUInt();
    }

    /** The lane's op is a PAD / an invalid type. */
    static Bool isPad(UInt code) {
        return code.eq(PAD);
    }

    static Bool isInvalid(UInt code) {
        return code.eq(INVALID);
    }
}
