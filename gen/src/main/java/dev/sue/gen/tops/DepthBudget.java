// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

/**
 * The project's logic-depth budgets, in weighted LUT6 levels per register-to-register path
 * (LUT 1, CARRY4 0.25, MUXF7/F8 0.3 after {@code yosys synth_xilinx -nowidelut}): the DSL's
 * estimate of every top's default configuration must stay within its budget, or within its
 * ceiling in {@link DepthRatchet} while it is being re-pipelined.
 */
public enum DepthBudget {
    /** Library blocks: small enough to sit on any path of a design that closes at its budget. */
    LIBRARY(6),
    /** SUE endpoint blocks and the endpoint: at least 240 MHz estimated. */
    SUE(8);

    private final double levels;

    DepthBudget(double levels) {
        this.levels = levels;
    }

    public double levels() {
        return levels;
    }
}
