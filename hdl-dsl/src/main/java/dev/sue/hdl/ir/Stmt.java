// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import dev.sue.hdl.Location;

/** A statement of a component's body: assignment, when or switch. */
public sealed interface Stmt permits Assign, WhenStmt, SwitchStmt {
    Location location();
}
