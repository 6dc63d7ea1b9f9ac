// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.timing;

import dev.sue.hdl.ir.OpKind;

/**
 * When one bit of a value settles, in weighted LUT6 levels after the clock edge, and the number
 * of inputs of the LUT that produces it ({@code fanIn}), so that a consumer knows whether it can
 * absorb that LUT. A {@code leaf} (register, port, RAM output, carry-chain output) is not made by
 * a LUT: logic on it starts a new level.
 */
record Arrival(double level, double fanIn, boolean leaf, Chain chain) {
    /** A register, memory read data, input port or black-box output: settled at the edge. */
    static final Arrival SOURCE = new Arrival(0, 1, true);
    /** A constant: no support, nothing to wait for. */
    static final Arrival CONSTANT = new Arrival(0, 0, true);

    Arrival(double level, double fanIn, boolean leaf) {
        this(level, fanIn, leaf, null);
    }

    /**
     * The inputs of an AND, OR or XOR chain as one cone: ABC balances a chain like
     * {@code acc = acc | x[i]} built in a loop into a tree, so a consumer of the same operation
     * sees every input of the chain (read-only: {@link Cone#merge} copies nothing into it).
     */
    record Chain(OpKind kind, Cone inputs) {
    }

    /** A value settled at {@code level} that only a new LUT can consume: a carry-chain or LUT RAM output. */
    static Arrival leafAt(double level) {
        return new Arrival(level, 1, true);
    }

    /** This arrival, remembering the chain of {@code kind} over {@code inputs} that made it. */
    Arrival withChain(OpKind kind, Cone inputs) {
        return new Arrival(level, fanIn, leaf, new Chain(kind, inputs));
    }

    boolean isConstant() {
        return fanIn == 0;
    }

    /** For choosing the critical input among equally late ones: the larger LUT. */
    double mass() {
        return fanIn;
    }
}
