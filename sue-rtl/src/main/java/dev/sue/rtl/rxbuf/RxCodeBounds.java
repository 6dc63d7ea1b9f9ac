// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;

/**
 * Bounds for the op walks of {@link RxDeliver} on an op-map lane code ({@link RxOpMap}: an op's
 * length in 2-byte units): whether the op at an even byte position {@code pos} reaches or runs
 * past an end is {@code code} against the units left, an 8-bit compare after the lane pick,
 * with the bound computed from registers while the lane is picked (not code -&gt; bytes -&gt; a
 * 14-bit compare after it). With 2 * code bytes and pos even: {@code 2 * code >= rem <=> code >
 * (rem - 1) / 2} and {@code 2 * code > rem <=> code > rem / 2}.
 */
final class RxCodeBounds {
    private RxCodeBounds() {
    }

    /** An op of {@code code} units at even {@code pos} (below {@code len}) reaches {@code len} iff code > reach. */
    static UInt reach(UInt len, UInt pos) {
        return bound(len.resize(14).add(pos.resize(14).not()).shr(1));
    }

    /** (len - 1) / 2 in 12 bits (all ones for len 0): an op at byte 0 reaches len iff code > it. */
    static UInt reachUnits(UInt len) {
        return len.resize(13).sub(1).shr(1).resize(12);
    }

    /** An op of {@code code} units at even {@code pos} (at most {@code len}) runs past {@code len} iff code > pass. */
    static UInt pass(UInt len, UInt pos) {
        return bound(len.resize(14).sub(pos.resize(14)).shr(1));
    }

    /**
     * (words * B - pos) / 2 for even {@code pos} below {@code words * B} (B = 2^lb), as an 8-bit
     * bound for {@code code < room} (255 past 255: every valid code is below it).
     */
    static UInt room(UInt words, UInt pos, int lb) {
        UInt u = words.resize(14).shl(lb - 1).sub(pos.resize(14).shr(1)).resize(13);
        Bool big = u.slice(12, 8).ne(0);
        return u.resize(8).or(repeat(big, 8).asUInt());
    }

    /** {@code units} (up to 13 bits) as an 8-bit bound for {@code code > bound}, see {@link #bound}. */
    static UInt clampUnits(UInt units) {
        return bound(units);
    }

    /**
     * {@code units} (13 bits) as an 8-bit bound for {@code code > bound}: past 255 it is 254,
     * above every valid code (at most 137) and below INVALID (255), so the clamp is one OR per
     * bit, not a compare.
     */
    private static UInt bound(UInt units) {
        UInt u = units.resize(13);
        Bool big = u.slice(12, 8).ne(0);
        return cat(u.slice(7, 1).or(repeat(big, 7).asUInt()), u.bit(0).andNot(big).asBits()).asUInt();
    }
}
