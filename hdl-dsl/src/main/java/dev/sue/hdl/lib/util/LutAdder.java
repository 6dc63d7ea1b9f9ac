// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.util;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.List;

/**
 * An unsigned add built from gates (a Sklansky prefix tree of generate / propagate terms), for a
 * sum that feeds deep logic in the same cycle, such as a RAM address picked after the add.
 *
 * <p>Why not {@code a.add(b)}: the same reason as {@link LutCompare}. Synthesis maps {@code +} to a
 * carry chain whose output the LUT mapper sees as arriving at time 0, so the logic behind it grows
 * to the design's deepest LUT cone and the real path is that plus the chain. yosys' {@code
 * opt_share} also merges adders that share an operand and feed one mux by moving the mux in front
 * of a single adder: a pick meant to follow the adds then partly precedes them. Built from gates,
 * the add is part of the cone the mapper balances, and no adder cell is left to merge.
 */
public final class LutAdder {
    private LutAdder() {
    }

    /**
     * {@code (a + b) mod 2^w}, w the wider operand's width; the narrower operand is zero-extended.
     * Depth: about log2(w) gate levels, 3 LUT levels up to 16 bits.
     */
    public static UInt sum(UInt a, UInt b) {
        return add(a, b, null);
    }

    /**
     * {@code (a + b + carryIn) mod 2^w}, as {@link #sum(UInt, UInt)}: the carry enters every bit's
     * carry through the prefix tree's group propagate term, one more gate level, no second adder
     * (a {@code + 1} operand spares the adder in front).
     */
    public static UInt sum(UInt a, UInt b, Bool carryIn) {
        return add(a, b, carryIn);
    }

    private static UInt add(UInt a, UInt b, Bool carryIn) {
        int w = Math.max(a.width(), b.width());
        Bits x = a.resize(w).asBits();
        Bits y = b.resize(w).asBits();
        Bits generate = x.and(y);
        Bits propagate = x.xor(y);
        // group[i]: the generate and propagate of bits 0..i; the carry into bit i is group[i - 1]'s
        List<Group> single = new ArrayList<>();
        for (int i = 0; i < w; i++) {
            single.add(new Group(generate.bit(i), propagate.bit(i)));
        }
        List<Group> group = PrefixTree.sklansky(single,
                (upper, lower) -> new Group(upper.generate.or(upper.propagate.and(lower.generate)),
                        upper.propagate.and(lower.propagate)));
        List<Bool> bits = new ArrayList<>();
        for (int i = w - 1; i >= 0; i--) {
            Bool carry = i == 0 ? carryIn
                    : carryIn == null ? group.get(i - 1).generate
                    : group.get(i - 1).generate.or(group.get(i - 1).propagate.and(carryIn));
            bits.add(carry == null ? propagate.bit(i) : propagate.bit(i).xor(carry));
        }
        return cat(bits).asUInt();
    }

    /** A group of bits' generate and propagate terms. */
    private record Group(Bool generate, Bool propagate) {
    }
}
