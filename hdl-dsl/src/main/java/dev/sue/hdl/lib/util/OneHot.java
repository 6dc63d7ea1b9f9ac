// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.util;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.BaseType;
import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Data;
import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.List;

/** Combinational helpers for one-hot vectors (bit {@code i} stands for item {@code i}). */
public final class OneHot {
    private OneHot() {
    }

    /** Only the lowest set bit of {@code x} (zero when {@code x} is zero): {@code x & -x}. */
    public static Bits lowestSet(Bits x) {
        UInt u = x.asUInt();
        return u.and(u.not().add(1)).asBits();
    }

    /**
     * {@link #lowestSet} built from gates (bit {@code i} is {@code x[i]} and no bit below it), for
     * a result that feeds deep logic: {@code x & -x} becomes a carry chain, and the LUT mapper lets
     * the logic behind a carry chain grow as deep as the design's deepest cone ({@link LutCompare}
     * says why). The "no bit below" terms are a prefix OR (Sklansky): about log6 of the width in
     * LUT levels (2 up to 36 bits), N log2 N gates.
     */
    public static Bits lowestSetByGates(Bits x) {
        List<Bool> upTo = prefixOr(x);
        List<Bool> bits = new ArrayList<>(x.width());
        bits.add(x.bit(0));
        for (int i = 1; i < x.width(); i++) {
            bits.add(x.bit(i).andNot(upTo.get(i - 1)));
        }
        return fromBools(bits);
    }

    /**
     * Every bit above the lowest set bit of {@code x} (zero when {@code x} is zero), from gates:
     * the prefix OR of {@code x} below each bit ({@link PrefixTree}). Of a one-hot vector it is
     * {@link #bitsAbove}; of any other it spares the {@link #lowestSetByGates} pick in between.
     */
    public static Bits aboveLowestSet(Bits x) {
        List<Bool> upTo = prefixOr(x);
        List<Bool> bits = new ArrayList<>(x.width());
        bits.add(FALSE);
        for (int i = 1; i < x.width(); i++) {
            bits.add(upTo.get(i - 1));
        }
        return fromBools(bits);
    }

    /** Element {@code i}: the OR of {@code x[0..i]} ({@link PrefixTree}). */
    private static List<Bool> prefixOr(Bits x) {
        List<Bool> bits = new ArrayList<>(x.width());
        for (int i = 0; i < x.width(); i++) {
            bits.add(x.bit(i));
        }
        return PrefixTree.sklansky(bits, Bool::or);
    }

    /** Every bit strictly above the single set bit of {@code oneHot}: {@code ~(g | (g - 1))}. */
    public static Bits bitsAbove(Bits oneHot) {
        return oneHot.or(oneHot.asUInt().sub(1).asBits()).not();
    }

    /**
     * The index of the set bit of {@code oneHot}, {@code log2Up(width)} bits wide; zero when no
     * bit is set. Built as an OR per index bit (no priority chain): it assumes at most one bit is set.
     */
    public static UInt toIndex(Bits oneHot) {
        int n = oneHot.width();
        int w = log2Up(n);
        List<BaseType> msbFirst = new ArrayList<>();
        for (int b = w - 1; b >= 0; b--) {
            Bool acc = null;
            for (int i = 0; i < n; i++) {
                if ((i >> b & 1) != 0) {
                    acc = acc == null ? oneHot.bit(i) : acc.or(oneHot.bit(i));
                }
            }
            msbFirst.add(acc == null ? FALSE : acc);
        }
        return cat(msbFirst).asUInt();
    }

    /** True when at most one bit of {@code x} is set: {@code (x & (x - 1)) == 0}. */
    public static Bool atMostOne(Bits x) {
        UInt u = x.asUInt();
        return u.and(u.sub(1)).eq(0);
    }

    /** Bit {@code i} is high when {@code index == i}, for {@code i} in {@code 0..n-1}. */
    public static Bits decode(UInt index, int n) {
        List<Bool> bits = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            bits.add(index.eq(i));
        }
        return fromBools(bits);
    }

    /**
     * The value whose bit is set in {@code oneHot} (all values flattened with {@code asBits}),
     * zero when none is: an AND-OR multiplexer, so no priority chain sits on the data path.
     * {@code values} must all have the same width, one per bit of {@code oneHot}.
     */
    public static Bits select(Bits oneHot, List<? extends Data> values) {
        Bits acc = null;
        for (int i = 0; i < values.size(); i++) {
            Bits value = asBits(values.get(i));
            Bits term = value.and(repeat(oneHot.bit(i), value.width()));
            acc = acc == null ? term : acc.or(term);
        }
        return acc;
    }

    /** The bits {@code bools[0]} (LSB) .. {@code bools[n-1]} (MSB) as one vector. */
    public static Bits fromBools(List<Bool> bools) {
        List<BaseType> msbFirst = new ArrayList<>(bools.size());
        for (int i = bools.size() - 1; i >= 0; i--) {
            msbFirst.add(bools.get(i));
        }
        return cat(msbFirst);
    }
}
