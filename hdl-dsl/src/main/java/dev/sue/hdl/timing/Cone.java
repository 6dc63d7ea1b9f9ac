package dev.sue.hdl.timing;

/**
 * The inputs of one output bit of a piece of logic that ABC may pack freely into 6-input LUTs
 * (bitwise operations, multiplexers, reductions, equality, the propagate LUT of a carry chain).
 * Collect the inputs with {@link #add}, then {@link #packed} gives the level of the smallest
 * LUT tree that computes the bit, re-packing open LUTs of the inputs where that is cheaper.
 */
final class Cone {
    private static final double EPS = 1e-9;
    private double mass;
    private double maxLevel;
    private boolean maxClosed;

    /** Adds {@code bits} input bits that each settle like {@code a}. */
    Cone add(Arrival a, double bits) {
        if (a.isConstant() || bits <= 0) {
            return this;
        }
        mass += bits * a.mass();
        if (a.level() > maxLevel + EPS) {
            maxLevel = a.level();
            maxClosed = a.closed();
        } else if (a.level() > maxLevel - EPS) {
            maxClosed |= a.closed();
        }
        return this;
    }

    Cone add(Arrival a) {
        return add(a, 1);
    }

    /**
     * The packed output: the lowest level on the grid of the latest input (a carry chain output
     * at 2.75 puts the LUTs after it at 3.75, 4.75, ...) whose 6-ary tree holds the cone's mass;
     * at least one LUT after a closed input.
     */
    Arrival packed() {
        if (mass == 0) {
            return Arrival.CONSTANT;
        }
        double anchor = maxLevel - Math.floor(maxLevel);
        double raw = Math.log(mass) / Math.log(DepthCost.LUT_INPUTS);
        double level = anchor + Math.ceil(raw - anchor - EPS);
        if (level < maxLevel) {
            level = maxLevel;
        }
        if (level < maxLevel + EPS && maxClosed) {
            level = maxLevel + 1;
        }
        return new Arrival(level, mass, false);
    }
}
