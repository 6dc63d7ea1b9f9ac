// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The tops whose default configuration is still over its {@link DepthBudget} while it is being
 * re-pipelined (issue 13), each with its current logic-depth estimate as a ceiling: the one
 * table {@code make gen} ({@code sue-gen --all}) checks against. A top may not get deeper than
 * max(budget, ceiling); when one gets shallower, {@code --all} prints a note so the ceiling can be
 * lowered here in the same commit, and when it meets its budget its line is deleted. The ceiling
 * only ever goes down.
 */
public final class DepthRatchet {
    /** Top name to ceiling in weighted LUT6 levels (the DSL's estimate, not yosys' figure). */
    // Empty since the fifth round of issue 13: every default top's estimate is within its budget
    // (yosys agrees on the whole endpoint since session 17: sue-rtl/README.md, "Logic depth and
    // area (yosys)").
    private static final Map<String, Double> CEILINGS = new TreeMap<>(Map.<String, Double>ofEntries());

    private DepthRatchet() {
    }

    /** The ceiling of {@code top}, when it is listed. */
    public static Optional<Double> ceiling(String top) {
        return Optional.ofNullable(CEILINGS.get(top));
    }

    /** The depth {@code top}'s default configuration may reach: max(budget, ceiling). */
    public static double limit(TopSpec top) {
        return Math.max(top.depthBudget().levels(), ceiling(top.name()).orElse(0.0));
    }

    /** Every listed top, by name (for the check that each names a real top). */
    public static Map<String, Double> ceilings() {
        return CEILINGS;
    }
}
