// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.timing;

import dev.sue.hdl.Location;
import java.util.List;

/**
 * One register-to-register path of the flattened design, start point first.
 *
 * @param levels estimated weighted LUT6 levels from the start point to the end point
 * @param end    what the path ends at: register, output port, memory write/read port, black-box input
 * @param steps  the named signals on the path, start point first, end point last
 */
public record DepthPath(double levels, String end, List<Step> steps) {
    /**
     * One named signal on the path.
     *
     * @param signal   hierarchical RTL name, e.g. {@code tx.qm.r_dest}
     * @param location the statement that drives it on this path (a register's declaration at the start)
     * @param level    estimated levels at which it settles
     */
    public record Step(String signal, Location location, double level) {
    }

    /** {@code a (A.java:1) -> b (B.java:2) @ 3.5 -> ...}: the path as one line for messages. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (Step s : steps) {
            if (sb.length() > 0) {
                sb.append(" -> ");
            }
            sb.append(s.signal()).append(" (").append(s.location().shortForm()).append(", ")
                    .append(DepthReport.format(s.level())).append(')');
        }
        return sb.toString();
    }
}
