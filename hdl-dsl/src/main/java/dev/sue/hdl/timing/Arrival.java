// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.timing;

/**
 * When one bit of a value settles, in weighted LUT6 levels after the clock edge, and the number
 * of inputs of the LUT that produces it ({@code fanIn}), so that a consumer knows whether it can
 * absorb that LUT. A {@code leaf} (register, port, RAM output, carry-chain output) is not made by
 * a LUT: logic on it starts a new level.
 */
record Arrival(double level, double fanIn, boolean leaf) {
    /** A register, memory read data, input port or black-box output: settled at the edge. */
    static final Arrival SOURCE = new Arrival(0, 1, true);
    /** A constant: no support, nothing to wait for. */
    static final Arrival CONSTANT = new Arrival(0, 0, true);

    /** A value settled at {@code level} that only a new LUT can consume: a carry-chain or LUT RAM output. */
    static Arrival leafAt(double level) {
        return new Arrival(level, 1, true);
    }

    boolean isConstant() {
        return fanIn == 0;
    }

    /** For choosing the critical input among equally late ones: the larger LUT. */
    double mass() {
        return fanIn;
    }
}
