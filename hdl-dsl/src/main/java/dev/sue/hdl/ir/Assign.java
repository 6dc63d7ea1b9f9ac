// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import dev.sue.hdl.Location;

/** {@code target = value} (combinational) or {@code target <= value} (register). */
public record Assign(Signal target, Node value, Location location) implements Stmt {
}
