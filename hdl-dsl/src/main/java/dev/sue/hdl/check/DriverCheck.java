// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.check;

import dev.sue.hdl.Component;
import dev.sue.hdl.ir.Assign;
import dev.sue.hdl.ir.Block;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;
import dev.sue.hdl.ir.Stmt;
import dev.sue.hdl.ir.SwitchStmt;
import dev.sue.hdl.ir.WhenStmt;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Every output, wire, register and sub-component input must be driven; a signal assigned
 * twice unconditionally in the same block has two drivers, the first of which can never
 * have an effect (almost always a mistake).
 */
final class DriverCheck {
    private final DesignIndex index;
    private final ErrorSink errors;

    DriverCheck(DesignIndex index, ErrorSink errors) {
        this.index = index;
        this.errors = errors;
    }

    void run() {
        for (Signal s : index.signals) {
            if (needsDriver(s) && index.assigns(s).isEmpty()) {
                String hint = switch (s.kind()) {
                    case IN -> "; connect it in " + s.owner().ir().parent();
                    case REG -> "; a register that is never assigned only ever holds its reset value";
                    default -> "; assign it with set(...)";
                };
                String what = s.kind() == SignalKind.IN ? "input " + s.describe() + " of " + s.owner() : s.describe();
                errors.error(s.location(), what + " is never driven" + hint);
            }
        }
        for (Component c : index.components) {
            overlapping(c.ir().body());
        }
    }

    private boolean needsDriver(Signal s) {
        Component owner = s.owner();
        boolean blackBox = owner.ir().isBlackBox();
        return switch (s.kind()) {
            case IN -> owner.ir().parent() != null && !index.isDomainPort(s);
            case OUT, WIRE, REG -> !blackBox;
            case MEM_DATA -> false;
        };
    }

    private void overlapping(Block block) {
        Map<Signal, Assign> unconditional = new IdentityHashMap<>();
        for (Stmt s : block.statements()) {
            if (s instanceof Assign a) {
                Assign earlier = unconditional.put(a.target(), a);
                if (earlier != null) {
                    errors.error(earlier.location(), a.target().describe() + " has two drivers in the same block: "
                            + "this assignment is always overridden by the one at " + a.location()
                            + "; remove one or make it conditional");
                }
            } else if (s instanceof WhenStmt w) {
                overlapping(w.thenBlock());
                overlapping(w.elseBlock());
            } else if (s instanceof SwitchStmt sw) {
                for (SwitchStmt.Case k : sw.cases()) {
                    overlapping(k.body());
                }
                if (sw.defaultBlock() != null) {
                    overlapping(sw.defaultBlock());
                }
            }
        }
    }
}
