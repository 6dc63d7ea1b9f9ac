// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Location;

/**
 * A clocked property checked on every edge of {@code domain} outside reset (or, when
 * {@code duringReset}, only while reset is asserted):
 * whenever {@code enable} holds (the enclosing when-conditions), {@code condition} must hold
 * (assert/assume) or is reported as reachable (cover).
 */
public record Assertion(Kind kind, Node enable, Node condition, String message, ClockDomain domain,
        Location location, boolean duringReset) {
    /** SVA directive. */
    public enum Kind { ASSERT, ASSUME, COVER }
}
