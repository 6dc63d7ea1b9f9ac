package dev.sue.hdl.timing;

/**
 * When one bit of a value settles, in weighted LUT6 levels after the clock edge, and how much
 * logic a consumer would have to re-pack to absorb the LUT that produces it.
 *
 * <p>{@code mass} is the bit's weighted support: each leaf of its cone counts {@code 6^a}, where
 * {@code a} is the level at which that leaf settles (a register bit counts 1). A tree of
 * 6-input LUTs fits a cone at level {@code L} when its mass is at most {@code 6^L} (the Kraft
 * inequality of a 6-ary tree), which is how logic that ABC packs into the same LUTs costs no
 * extra level here. A {@code closed} value cannot be absorbed into the LUT that consumes it (a
 * register output, the output of a carry chain or of a LUT RAM): logic on it starts a new level.
 */
record Arrival(double level, double mass, boolean closed) {
    /** A register, memory read data, input port or black-box output: settled at the edge. */
    static final Arrival SOURCE = new Arrival(0, 1, true);
    /** A constant: no support, nothing to wait for. */
    static final Arrival CONSTANT = new Arrival(0, 0, true);

    /** A value only a new LUT can consume, settled at {@code level}. */
    static Arrival closed(double level) {
        return new Arrival(level, Math.pow(DepthCost.LUT_INPUTS, level), true);
    }

    boolean isConstant() {
        return mass == 0;
    }
}
