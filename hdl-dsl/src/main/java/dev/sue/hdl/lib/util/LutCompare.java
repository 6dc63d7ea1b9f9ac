// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.util;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;

/**
 * Unsigned compares built from gates (a balanced tree of per-bit greater / equal terms), for a
 * compare whose result feeds deep logic in the same cycle.
 *
 * <p>Why not {@code a.gt(b)}: synthesis maps that to a carry chain, and the LUT mapper (ABC in
 * yosys, as in most FPGA flows) sees a carry chain's output as a start of the logic after it,
 * arriving at time 0. It then lets the logic behind the compare grow as deep as the design's
 * deepest LUT cone, so the real path is that depth plus the chain. Built from gates, the compare
 * is part of the cone the mapper balances: {@code log3} LUT levels of the width (3 levels for up
 * to 27 bits) instead of one LUT plus a quarter level per 4 bits it does not see.
 */
public final class LutCompare {
    private LutCompare() {
    }

    /** {@code a > b}, unsigned; the narrower operand is zero-extended. */
    public static Bool greater(UInt a, UInt b) {
        int w = Math.max(a.width(), b.width());
        Bits x = a.resize(w).asBits();
        Bits y = b.resize(w).asBits();
        // per bit: a's bit set and b's clear; the bits equal (two vector operations)
        return node(x.and(y.not()), x.xor(y).not(), 0, w).greater;
    }

    /** {@code a < b}, unsigned; the narrower operand is zero-extended. */
    public static Bool less(UInt a, UInt b) {
        return greater(b, a);
    }

    /** Greater and equal of bits {@code lo..hi-1}: halves combined, so the depth is logarithmic. */
    private static Terms node(Bits greaterAt, Bits equalAt, int lo, int hi) {
        if (hi - lo == 1) {
            return new Terms(greaterAt.bit(lo), equalAt.bit(lo));
        }
        int mid = (lo + hi + 1) / 2;
        Terms upper = node(greaterAt, equalAt, mid, hi);
        Terms lower = node(greaterAt, equalAt, lo, mid);
        return new Terms(upper.greater.or(upper.equal.and(lower.greater)), upper.equal.and(lower.equal));
    }

    private record Terms(Bool greater, Bool equal) {
    }
}
