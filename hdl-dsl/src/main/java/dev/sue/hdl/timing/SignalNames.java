// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.timing;

import dev.sue.hdl.Component;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Op;
import dev.sue.hdl.ir.Signal;
import java.util.IdentityHashMap;
import java.util.Map;

/** Hierarchical RTL names ({@code tx.qm.r_dest}): instance names from below the top, then the signal's name. */
final class SignalNames {
    private final Map<Component, String> prefixes = new IdentityHashMap<>();

    /** {@code inst.sub.} for a component two levels below the top, empty for the top. */
    String prefix(Component c) {
        String p = prefixes.get(c);
        if (p == null) {
            Component parent = c.ir().parent();
            p = parent == null ? "" : prefix(parent) + c.ir().instanceName() + ".";
            prefixes.put(c, p);
        }
        return p;
    }

    /** The hierarchical name of a signal or named operation, or null for an unnamed operation. */
    String of(Node n) {
        if (n instanceof Signal s) {
            return prefix(s.owner()) + s.name();
        }
        if (n instanceof Op op && op.name() != null) {
            return prefix(op.owner()) + op.name();
        }
        return null;
    }
}
