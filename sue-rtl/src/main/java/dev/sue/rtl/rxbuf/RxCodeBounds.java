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

    /**
     * An op of {@code code} units at even {@code pos} below {@code len} reaches (runs past)
     * {@code len}: code &gt; {@code half} - pos / 2, with {@code half} = {@link #reachUnits}
     * ({@link #passUnits}), a register taken before the walk, so no length arithmetic and no
     * late mux of two lengths comes before the one 13-bit subtraction. The difference is not
     * clamped before the compare: its top bits (past 255, or negative when pos is past the end,
     * where the walk's own end test decides) only clear the 8-bit compare's result.
     */
    static Bool exceeds(UInt code, UInt half, UInt pos) {
        UInt diff = half.resize(13).sub(pos.resize(14).shr(1).resize(13));
        return diff.slice(12, 8).eq(0).and(code.resize(8).gt(diff.resize(8)));
    }

    /** (len - 1) / 2 in 12 bits (all ones for len 0): an op at byte 0 reaches len iff code > it. */
    static UInt reachUnits(UInt len) {
        return len.resize(13).sub(1).shr(1).resize(12);
    }

    /** len / 2 in 12 bits: an op at byte 0 runs past len iff code > it. */
    static UInt passUnits(UInt len) {
        return len.resize(13).shr(1).resize(12);
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
}
