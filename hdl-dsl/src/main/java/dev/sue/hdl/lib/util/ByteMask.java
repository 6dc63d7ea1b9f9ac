// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.util;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.List;

/**
 * Byte masks of a bus: {@code keep} vectors (bit {@code i} = byte {@code i}, byte 0 in bits 7:0 of
 * the data) and their bit-wide expansions. One place for them, so every block agrees on the
 * byte order and on what a count of zero means.
 */
public final class ByteMask {
    private ByteMask() {
    }

    /**
     * {@code bytes} keep bits with bytes {@code 0 .. count-1} set ({@code count} = 0 sets none,
     * {@code count >= bytes} sets all). Each bit is one compare of {@code count}, no chain.
     */
    public static Bits firstBytes(UInt count, int bytes) {
        checkBytes(bytes);
        List<Bool> keep = new ArrayList<>(bytes);
        for (int i = 0; i < bytes; i++) {
            keep.add(i < 1L << Math.min(count.width(), 62) ? count.gt(i) : FALSE);
        }
        return OneHot.fromBools(keep);
    }

    /**
     * The keep of a packet's last beat from its byte count modulo the beat: bytes
     * {@code 0 .. rem-1}, where {@code rem} = 0 stands for a full beat (the AXI4-Stream
     * convention of a length's low bits). {@code rem} must be {@code log2(bytes)} bits wide.
     */
    public static Bits lastBeat(UInt rem, int bytes) {
        checkBytes(bytes);
        if (!isPowerOfTwo(bytes) || rem.width() != log2Up(bytes)) {
            require(false, "lastBeat: bytes must be a power of two and rem log2(bytes) = " + log2Up(bytes)
                    + " bits wide, got " + bytes + " bytes and " + rem.width() + " bits");
        }
        Bool full = rem.eq(0);
        List<Bool> keep = new ArrayList<>(bytes);
        for (int i = 0; i < bytes; i++) {
            // rem <= bytes - 1: the top byte is in a full beat only (no constant compare for lint).
            keep.add(i == 0 ? TRUE : i == bytes - 1 ? full : full.or(rem.gt(i)));
        }
        return OneHot.fromBools(keep);
    }

    /** Each keep bit repeated over its byte's 8 data bits: a mask to AND with the data. */
    public static Bits expand(Bits keep) {
        List<Bits> msbFirst = new ArrayList<>(keep.width());
        for (int i = keep.width() - 1; i >= 0; i--) {
            msbFirst.add(repeat(keep.bit(i), 8));
        }
        return cat(msbFirst);
    }

    /**
     * The number of bytes of a keep that is contiguous from byte 0 ({@code 0 .. keep.width()},
     * {@code bitsFor(keep.width())} bits). Built from the one edge where the keep ends, an OR per
     * result bit, so its depth does not grow with a carry chain; a keep with holes gives a
     * meaningless count.
     */
    public static UInt count(Bits keep) {
        int n = keep.width();
        int width = bitsFor(n);
        List<Bool> edge = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            edge.add(i + 1 < n ? keep.bit(i).andNot(keep.bit(i + 1)) : keep.bit(i));
        }
        List<Bool> bits = new ArrayList<>(width);
        for (int b = 0; b < width; b++) {
            List<Bool> terms = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (((i + 1) >> b & 1) != 0) {
                    terms.add(edge.get(i));
                }
            }
            // One reduction, not a chain of ORs: a tree of LUTs, log6 of the terms deep.
            bits.add(terms.isEmpty() ? FALSE : terms.size() == 1 ? terms.get(0) : cat(terms).orR());
        }
        return OneHot.fromBools(bits).asUInt();
    }

    private static void checkBytes(int bytes) {
        require(bytes >= 1 && bytes <= 512, "a byte mask covers 1..512 bytes, got " + bytes);
    }
}
