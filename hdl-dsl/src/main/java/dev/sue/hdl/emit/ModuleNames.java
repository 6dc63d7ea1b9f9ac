// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.emit;

import dev.sue.hdl.Component;
import dev.sue.hdl.ir.Const;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Op;
import dev.sue.hdl.ir.Signal;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What each node is called inside one module. A component's own signals keep their names;
 * a sub-component's ports appear as {@code instance_port} wires, or as the parent's signal
 * when the port is wired straight to it. Generated names never collide with user names.
 */
final class ModuleNames {
    private final Component module;
    private final Map<Node, String> names = new IdentityHashMap<>();
    private final Set<String> taken = new HashSet<>();
    private final Map<String, Integer> counters = new HashMap<>();

    ModuleNames(Component module) {
        this.module = module;
        for (Signal s : module.ir().signals()) {
            if (s.nameExplicit()) {
                taken.add(s.name());
            }
        }
        for (Component child : module.ir().children()) {
            taken.add(child.ir().instanceName());
        }
        for (Signal s : module.ir().signals()) {
            names.put(s, s.nameExplicit() ? s.name() : fresh(s.name()));
        }
    }

    /** Registers the wire a sub-component port appears as, e.g. {@code fifo_count}. */
    void childPort(Signal port, String instanceName) {
        String wanted = instanceName + "_" + port.name();
        names.put(port, taken.contains(wanted) ? fresh(wanted) : claim(wanted));
    }

    /** Uses the name of another node for {@code port} (port wired directly to it). */
    void alias(Signal port, String text) {
        names.put(port, text);
    }

    void namedOp(Op op) {
        names.put(op, taken.contains(op.name()) ? fresh(op.name()) : claim(op.name()));
    }

    String temp(Op op) {
        String n = fresh(op.kind().name().toLowerCase());
        names.put(op, n);
        return n;
    }

    String fresh(String base) {
        int i = counters.getOrDefault(base, 0);
        String candidate;
        do {
            candidate = base + "_" + i++;
        } while (taken.contains(candidate));
        counters.put(base, i);
        return claim(candidate);
    }

    private String claim(String n) {
        taken.add(n);
        return n;
    }

    /** The name of a signal or named/temporary operation, or null for inline expressions. */
    String of(Node n) {
        return names.get(n);
    }

    Component module() {
        return module;
    }
}
