// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen;

/**
 * The logic-depth options of the command line, validated: {@code --max-depth LEVELS} and
 * {@code --report-depth[=N]}.
 *
 * @param maxDepth the budget every path must meet, or null (then --all uses each top's own limit)
 * @param report   how many worst paths to print, or null to print none
 */
record DepthLimits(Double maxDepth, Integer report) {
    /** Largest --max-depth: far beyond any real design, small enough to catch a typo. */
    static final double MAX_LEVELS = 1000;
    /** Largest --report-depth. */
    static final int MAX_REPORT = 1000;
    static final String MAX_DEPTH_RANGE = "valid range: 0 < LEVELS <= 1000, e.g. 8 or 7.5";
    static final String REPORT_RANGE = "valid range: 1..1000";

    /** Parses the option texts (either may be null); a bad value is an IllegalArgumentException naming the range. */
    static DepthLimits parse(String maxDepth, String report) {
        Double max = null;
        if (maxDepth != null) {
            try {
                max = Double.parseDouble(maxDepth.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--max-depth: '" + maxDepth + "' is not a number; " + MAX_DEPTH_RANGE);
            }
            if (!(max > 0 && max <= MAX_LEVELS)) {
                throw new IllegalArgumentException("--max-depth: " + maxDepth + " is out of range; " + MAX_DEPTH_RANGE);
            }
        }
        Integer n = null;
        if (report != null) {
            try {
                n = Integer.parseInt(report.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--report-depth: '" + report + "' is not a whole number; "
                        + REPORT_RANGE);
            }
            if (n < 1 || n > MAX_REPORT) {
                throw new IllegalArgumentException("--report-depth: " + report + " is out of range; " + REPORT_RANGE);
            }
        }
        return new DepthLimits(max, n);
    }

    /** How many worst paths the report keeps: what is printed, and at least the JSON report's default. */
    int paths() {
        return Math.max(report == null ? 0 : report, Generator.DEFAULT_DEPTH_PATHS);
    }
}
