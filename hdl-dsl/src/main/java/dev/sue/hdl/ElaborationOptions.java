// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

/**
 * Settings of one elaboration.
 *
 * @param defaultDomain clock domain of the top and, unless overridden with
 *                      {@link Hdl#withDomain}, of everything below it
 * @param depthPaths    how many of the worst register-to-register paths the logic-depth
 *                      estimate keeps ({@link Design#depth()}); 0 with no {@code maxDepth}: no estimate
 * @param maxDepth      the depth budget in weighted LUT6 levels: a path over it is an elaboration
 *                      error naming the path's Java lines; null for no budget
 */
public record ElaborationOptions(ClockDomain defaultDomain, int depthPaths, Double maxDepth) {
    public ElaborationOptions {
        if (depthPaths < 0) {
            throw new IllegalArgumentException("depthPaths must be >= 0, got " + depthPaths);
        }
        if (maxDepth != null && !(maxDepth > 0)) {
            throw new IllegalArgumentException("maxDepth must be > 0, got " + maxDepth);
        }
    }

    /** Options without the logic-depth estimate. */
    public ElaborationOptions(ClockDomain defaultDomain) {
        this(defaultDomain, 0, null);
    }

    public static ElaborationOptions defaults() {
        return new ElaborationOptions(ClockDomain.external(""));
    }

    /** These options with the logic-depth estimate: keep the worst {@code paths}, fail a path over {@code maxDepth}. */
    public ElaborationOptions withDepth(int paths, Double maxDepth) {
        return new ElaborationOptions(defaultDomain, paths, maxDepth);
    }

    /** True when elaboration runs the logic-depth estimate. */
    public boolean estimatesDepth() {
        return depthPaths > 0 || maxDepth != null;
    }
}
