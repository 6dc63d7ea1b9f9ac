// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.check;

import dev.sue.hdl.Component;
import dev.sue.hdl.Location;
import dev.sue.hdl.ir.Assertion;
import dev.sue.hdl.ir.Assign;
import dev.sue.hdl.ir.Block;
import dev.sue.hdl.ir.ComponentIr;
import dev.sue.hdl.ir.MemPorts;
import dev.sue.hdl.ir.MemoryIr;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.Stmt;
import dev.sue.hdl.ir.SwitchStmt;
import dev.sue.hdl.ir.WhenStmt;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One walk over every component's statements, memories and assertions, recording what
 * the checks need: the assignments of each signal, the nodes each signal depends on
 * (values and enclosing conditions), and every expression root with the line that used it.
 * Arrays are indexed by node id, so the checks stay linear in design size.
 */
final class DesignIndex {
    /** An expression used by a component, with the statement that used it. */
    record Use(Component user, Node root, Location location) {
    }

    final List<Component> components;
    final List<Signal> signals = new ArrayList<>();
    final List<Assign>[] assignsOf;
    final List<Node>[] depsOf;
    final MemPorts.Read[] asyncReadOf;
    final List<Use> uses = new ArrayList<>();
    final Map<Signal, Boolean> domainPorts = new IdentityHashMap<>();

    @SuppressWarnings("unchecked")
    DesignIndex(List<Component> components, int nodeCount) {
        this.components = components;
        this.assignsOf = new List[nodeCount];
        this.depsOf = new List[nodeCount];
        this.asyncReadOf = new MemPorts.Read[nodeCount];
        for (Component c : components) {
            ComponentIr ir = c.ir();
            signals.addAll(ir.signals());
            for (ComponentIr.DomainPorts dp : ir.domainPorts().values()) {
                domainPorts.put(dp.clock(), Boolean.TRUE);
                if (dp.reset() != null) {
                    domainPorts.put(dp.reset(), Boolean.TRUE);
                }
                if (dp.enable() != null) {
                    domainPorts.put(dp.enable(), Boolean.TRUE);
                }
            }
            walk(c, ir.body(), new ArrayDeque<>());
            for (MemoryIr m : ir.memories()) {
                for (MemPorts.Write w : m.writes()) {
                    use(c, w.address(), w.location());
                    use(c, w.data(), w.location());
                    use(c, w.enable(), w.location());
                    if (w.byteEnable() != null) {
                        use(c, w.byteEnable(), w.location());
                    }
                }
                for (MemPorts.Read r : m.reads()) {
                    use(c, r.address(), r.location());
                    if (r.enable() != null) {
                        use(c, r.enable(), r.location());
                    }
                    if (!r.isSync()) {
                        asyncReadOf[r.data().id()] = r;
                    }
                }
            }
            for (Assertion a : ir.assertions()) {
                use(c, a.condition(), a.location());
                if (a.enable() != null) {
                    use(c, a.enable(), a.location());
                }
            }
        }
    }

    private void walk(Component c, Block block, Deque<Node> conditions) {
        for (Stmt s : block.statements()) {
            if (s instanceof Assign a) {
                int id = a.target().id();
                if (assignsOf[id] == null) {
                    assignsOf[id] = new ArrayList<>(1);
                    depsOf[id] = new ArrayList<>(1 + conditions.size());
                }
                assignsOf[id].add(a);
                depsOf[id].add(a.value());
                depsOf[id].addAll(conditions);
                use(c, a.value(), a.location());
            } else if (s instanceof WhenStmt w) {
                use(c, w.condition(), w.location());
                conditions.push(w.condition());
                walk(c, w.thenBlock(), conditions);
                walk(c, w.elseBlock(), conditions);
                conditions.pop();
            } else if (s instanceof SwitchStmt sw) {
                use(c, sw.selector(), sw.location());
                conditions.push(sw.selector());
                for (SwitchStmt.Case k : sw.cases()) {
                    walk(c, k.body(), conditions);
                }
                if (sw.defaultBlock() != null) {
                    walk(c, sw.defaultBlock(), conditions);
                }
                conditions.pop();
            }
        }
    }

    private void use(Component c, Node root, Location location) {
        uses.add(new Use(c, root, location));
    }

    List<Assign> assigns(Signal s) {
        List<Assign> l = assignsOf[s.id()];
        return l == null ? List.of() : l;
    }

    List<Node> deps(Signal s) {
        List<Node> l = depsOf[s.id()];
        return l == null ? List.of() : l;
    }

    boolean isDomainPort(Signal s) {
        return domainPorts.containsKey(s);
    }

    static Set<Signal> identitySet() {
        return java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    }
}
