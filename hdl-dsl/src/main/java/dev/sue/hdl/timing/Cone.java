// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.timing;

/**
 * The inputs of one output bit of logic that ABC packs freely into 6-input LUTs (bitwise
 * operations, multiplexers, reductions, equality, the propagate LUT of a carry chain). Collect
 * the inputs with {@link #add}; {@link #packed} labels the output like FlowMap's depth-optimal
 * mapping: when the LUTs of the latest inputs and the other inputs fit one LUT, the output is
 * made by that LUT at the same level; otherwise it takes the smallest LUT tree whose Kraft sum
 * over the inputs' levels fits (a 12-input AND of registers: 2 levels), at least one level after
 * the latest input. Levels after a carry chain stay on its quarter grid (2.75 -> 3.75).
 */
final class Cone {
    private static final double EPS = 1e-9;
    private double level;
    private boolean any;
    private boolean latestIsLeaf;
    /** Inputs of the merged LUT at {@code level}: the latest inputs' fan-ins. */
    private double topFanIn;
    private double topBits;
    /** Input bits earlier than {@code level}: one LUT input each. */
    private double lowerBits;
    /** The inputs as wires, each weighted 6^level (the Kraft sum of a 6-ary tree). */
    private double wireMass;

    /** Adds {@code bits} input bits that each settle like {@code a}. */
    Cone add(Arrival a, double bits) {
        if (a.isConstant() || bits <= 0) {
            return this;
        }
        wireMass += bits * Math.pow(DepthCost.LUT_INPUTS, a.level());
        if (!any || a.level() > level + EPS) {
            lowerBits += topBits;
            level = a.level();
            topFanIn = 0;
            topBits = 0;
            latestIsLeaf = false;
            any = true;
        }
        if (a.level() > level - EPS) {
            topFanIn += bits * (a.leaf() ? 1 : a.fanIn());
            topBits += bits;
            latestIsLeaf |= a.leaf();
        } else {
            lowerBits += bits;
        }
        return this;
    }

    Cone add(Arrival a) {
        return add(a, 1);
    }

    /** Adds every input of {@code other} (left unchanged), as if each had been added here. */
    Cone merge(Cone other) {
        if (!other.any) {
            return this;
        }
        wireMass += other.wireMass;
        lowerBits += other.lowerBits;
        if (!any || other.level > level + EPS) {
            lowerBits += topBits;
            level = other.level;
            topFanIn = other.topFanIn;
            topBits = other.topBits;
            latestIsLeaf = other.latestIsLeaf;
            any = true;
        } else if (other.level > level - EPS) {
            topFanIn += other.topFanIn;
            topBits += other.topBits;
            latestIsLeaf |= other.latestIsLeaf;
        } else {
            lowerBits += other.topBits;
        }
        return this;
    }

    Arrival packed() {
        if (!any) {
            return Arrival.CONSTANT;
        }
        double merged = topFanIn + lowerBits;
        if (merged <= DepthCost.LUT_INPUTS && !latestIsLeaf) {
            return new Arrival(level, merged, false);
        }
        if (merged <= DepthCost.LUT_INPUTS) {
            return new Arrival(level + 1, topBits + lowerBits, false);
        }
        double anchor = level - Math.floor(level);
        double raw = Math.log(wireMass) / Math.log(DepthCost.LUT_INPUTS);
        double out = Math.max(level + 1, anchor + Math.ceil(raw - anchor - EPS));
        double top = Math.ceil(wireMass / Math.pow(DepthCost.LUT_INPUTS, out - 1) - EPS);
        return new Arrival(out, Math.min(Math.max(top, 2), DepthCost.LUT_INPUTS), false);
    }
}
