// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.LutCompare;

/**
 * End tests of the validator's op walk ({@link RxOpValidator}) on an op-map lane
 * ({@link RxOpMap.Lane}: where its op ends, in 2-byte units from the PDU's first byte), against
 * bounds fixed per PDU of {@code len} bytes: with the op ending at byte 2 * end, it reaches the
 * end iff {@code 2 * end >= len <=> end > (len - 1) / 2} ({@link #reachUnits}) and runs past it
 * iff {@code 2 * end > len <=> end > len / 2}. (The deliverer needs no lane test: the validator
 * hands it the last op's position, {@link RxPduDesc#lastOp}.) The walk makes these tests on
 * every lane of a word before the lane pick ({@link RxOpMap#perLane}), so a bound is a
 * register, never a subtraction
 * from the walk's position. The compares are gates ({@link LutCompare}), not carry chains: the
 * lane pick and the walk's decisions follow them in the same cycle, and the LUT mapper lets logic
 * behind a carry chain grow as deep as the design's deepest cone (whole endpoint at 512 bits:
 * {@code w_reach} -> chain -> pick -> port V's read enable, 9.5 levels).
 */
final class RxCodeBounds {
    private RxCodeBounds() {
    }

    /** (len - 1) / 2 in 12 bits (all ones for len 0): an op reaches len iff its end is above it. */
    static UInt reachUnits(UInt len) {
        return len.resize(13).sub(1).shr(1).resize(12);
    }

    /** The lane's op reaches the PDU's end, or the lane stops the walk (PAD or invalid). */
    static Bool reaches(RxOpMap.Lane l, UInt reachUnits) {
        // the stop bit on top of the end: one compare, no OR after it
        return LutCompare.greater(cat(l.stop, l.end).asUInt(), reachUnits);
    }

    /**
     * The lane makes its PDU malformed: an invalid type, or an op running past the end of a PDU
     * whose length / 2 is {@code halfLen}. Valid for a lane the walk reads (its position is below
     * the PDU's length): a PAD lane's end is its own position, so it never runs past the end.
     */
    static Bool malformed(RxOpMap.Lane l, UInt halfLen) {
        // the invalid bit on top of the end: one compare, no mux after it (a LUT there kept yosys
        // from folding the lane pick into 4:1 LUTs: 6 LUTs for the pick)
        return LutCompare.greater(cat(l.invalid, l.end).asUInt(), halfLen);
    }
}
