// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.timing;

import dev.sue.hdl.HdlError;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The logic-depth estimate of one elaborated design: its worst register-to-register paths,
 * each with the Java line of every step, and the limit it was checked against.
 *
 * @param worstLevels estimated weighted LUT6 levels of the worst path (0 for a design without logic)
 * @param endpoints   how many end points (register, port and memory inputs) were analysed
 * @param overLimit   how many end points have a path over the limit (0 without a limit)
 * @param paths       the worst paths, worst first, one per end point
 * @param limit       the budget it was checked against, or null when none was given
 * @param seconds     how long the analysis took
 */
public record DepthReport(double worstLevels, int endpoints, int overLimit, List<DepthPath> paths, Double limit, double seconds) {
    /** Delay of one weighted level (a LUT plus typical routing) in the fmax estimate. */
    public static final double NS_PER_LEVEL = 0.45;
    /** Clock-to-out, setup and skew in the fmax estimate. */
    public static final double NS_FIXED = 0.6;

    /** Estimated fmax of a clock whose worst path has {@code levels} levels: 1 / (0.45 ns x levels + 0.6 ns). */
    public static double fmaxEstimateMhz(double levels) {
        return 1000.0 / (NS_PER_LEVEL * levels + NS_FIXED);
    }

    /** The paths over the limit (none when there is no limit). */
    public List<DepthPath> violations() {
        if (limit == null) {
            return List.of();
        }
        return paths.stream().filter(p -> p.levels() > limit + 1e-9).toList();
    }

    /** At most this many paths over the limit become errors; the last says how many more there are. */
    public static final int MAX_ERRORS = 3;

    /**
     * One error per path over the limit (the worst {@link #MAX_ERRORS}), at the line of the
     * statement that ends it; the last one says how many more end points are over the limit.
     */
    public List<HdlError> errors() {
        List<HdlError> errors = new ArrayList<>();
        List<DepthPath> over = violations();
        over = over.subList(0, Math.min(over.size(), MAX_ERRORS));
        for (int i = 0; i < over.size(); i++) {
            DepthPath p = over.get(i);
            DepthPath.Step end = p.steps().get(p.steps().size() - 1);
            String more = i == over.size() - 1 && overLimit > over.size()
                    ? " (" + (overLimit - over.size()) + " more end point(s) over the limit; --report-depth=N lists them)" : "";
            errors.add(new HdlError(end.location(), "logic depth " + format(p.levels()) + " levels (estimate) exceeds "
                    + "the limit " + format(limit) + " on the path to " + p.end() + " " + end.signal() + ": "
                    + p.describe() + "; register an intermediate value or compute part of it a cycle earlier" + more));
        }
        return errors;
    }

    /** The report's {@code depth} object in the generator's JSON report. */
    public Map<String, Object> toJson() {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("worst_levels", round(worstLevels));
        r.put("fmax_est_mhz", round(fmaxEstimateMhz(worstLevels)));
        r.put("estimate", "weighted LUT6 levels estimated at elaboration (LUT 1, CARRY4 0.25); "
                + "fmax = 1 / (0.45 ns x levels + 0.6 ns); see hdl-dsl/README.md, Logic depth");
        r.put("budget", limit == null ? null : round(limit));
        r.put("endpoints", endpoints);
        r.put("endpoints_over_budget", overLimit);
        List<Map<String, Object>> ps = new ArrayList<>();
        for (DepthPath p : paths) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("levels", round(p.levels()));
            m.put("end", p.end());
            List<Map<String, Object>> steps = new ArrayList<>();
            for (DepthPath.Step s : p.steps()) {
                Map<String, Object> st = new LinkedHashMap<>();
                st.put("signal", s.signal());
                st.put("at", s.location().shortForm());
                st.put("level", round(s.level()));
                steps.add(st);
            }
            m.put("steps", steps);
            ps.add(m);
        }
        r.put("paths", ps);
        return r;
    }

    /** The report as text: the worst {@code n} paths, one step per line. */
    public String text(int n) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "worst path %s levels (estimate), fmax ~%.0f MHz (estimate)%s, %d end points%n",
                format(worstLevels), fmaxEstimateMhz(worstLevels),
                limit == null ? "" : ", budget " + format(limit), endpoints));
        int shown = 0;
        for (DepthPath p : paths) {
            if (shown++ == n) {
                break;
            }
            sb.append(String.format(Locale.ROOT, "  %s levels to %s%n", format(p.levels()), p.end()));
            for (DepthPath.Step s : p.steps()) {
                sb.append(String.format(Locale.ROOT, "    %6s  %-40s %s%n", format(s.level()), s.signal(),
                        s.location().shortForm()));
            }
        }
        return sb.toString();
    }

    /** Levels as text: at most two decimals, no trailing zeros ({@code 3}, {@code 2.75}). */
    public static String format(double levels) {
        String s = String.format(Locale.ROOT, "%.2f", levels);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    private static double round(double v) {
        return Math.round(v * 100) / 100.0;
    }
}
