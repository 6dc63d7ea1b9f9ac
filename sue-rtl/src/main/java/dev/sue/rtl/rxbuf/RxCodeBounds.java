// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;

/**
 * End tests of the op walks of {@link RxDeliver} on an op-map lane ({@link RxOpMap.Lane}: where
 * its op ends, in 2-byte units from the PDU's first byte) against the PDU's length {@code len},
 * fixed per PDU: the op ends at byte 2 * end, so it reaches the end iff {@code 2 * end >= len},
 * i.e. {@code end > (len - 1) / 2} ({@link #reachUnits}) or {@code {end, 1} > len}, and runs
 * past it iff {@code {end, 0} > len}. The walks make these tests on every lane of a word before
 * the lane pick ({@link RxOpMap#perLane}), so the other side is a register, never a subtraction
 * from the walk's position.
 */
final class RxCodeBounds {
    private RxCodeBounds() {
    }

    /** (len - 1) / 2 in 12 bits (all ones for len 0): an op reaches len iff its end is above it. */
    static UInt reachUnits(UInt len) {
        return len.resize(13).sub(1).shr(1).resize(12);
    }

    /** The lane's op reaches the end of a PDU of {@code len} bytes, or the lane stops the walk (PAD or invalid). */
    static Bool endsWalk(RxOpMap.Lane l, UInt len) {
        // the stop bit on top of the end: one compare, no OR after its carry chain
        return cat(l.stop, l.end, TRUE).asUInt().gt(len.resize(RxOpMap.END_BITS + 2));
    }

    /** The lane's op is malformed in a PDU of {@code len} bytes: an invalid type, or it runs past the end. */
    static Bool malformed(RxOpMap.Lane l, UInt len) {
        return mux(l.stop, l.invalid, cat(l.end, FALSE).asUInt().gt(len.resize(RxOpMap.END_BITS + 1)));
    }
}
