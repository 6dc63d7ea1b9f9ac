// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.timing;

import dev.sue.hdl.Component;
import dev.sue.hdl.Location;
import dev.sue.hdl.ir.Assign;
import dev.sue.hdl.ir.Block;
import dev.sue.hdl.ir.MemPorts;
import dev.sue.hdl.ir.MemoryIr;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Stmt;
import dev.sue.hdl.ir.SwitchStmt;
import dev.sue.hdl.ir.WhenStmt;
import java.util.ArrayList;
import java.util.List;

/**
 * The assignments of every signal of the flattened design with the conditions that enclose
 * each one, and the memory read ports by their data signal: what {@link DepthAnalysis} needs to
 * turn statements into the multiplexers synthesis builds. Arrays are indexed by node id.
 */
final class Drivers {
    /**
     * A condition that selects an assignment: a when-condition ({@code bits} 1) or a switch
     * selector compared with a case's constants ({@code bits} = selector width).
     */
    record Guard(Node node, int bits, Location location) {
    }

    /** One assignment with its enclosing guards, outermost first. */
    record Driver(Assign assign, Guard[] guards) {
    }

    /** A memory read port with its memory. */
    record Read(MemoryIr memory, MemPorts.Read port) {
    }

    private static final Guard[] NO_GUARDS = new Guard[0];

    private final List<Driver>[] driversOf;
    private final Read[] readOf;

    @SuppressWarnings("unchecked")
    Drivers(List<Component> components, int nodeCount) {
        driversOf = new List[nodeCount];
        readOf = new Read[nodeCount];
        for (Component c : components) {
            walk(c.ir().body(), NO_GUARDS);
            for (MemoryIr m : c.ir().memories()) {
                for (MemPorts.Read r : m.reads()) {
                    readOf[r.data().id()] = new Read(m, r);
                }
            }
        }
    }

    private void walk(Block block, Guard[] guards) {
        for (Stmt s : block.statements()) {
            if (s instanceof Assign a) {
                int id = a.target().id();
                if (driversOf[id] == null) {
                    driversOf[id] = new ArrayList<>(1);
                }
                driversOf[id].add(new Driver(a, guards));
            } else if (s instanceof WhenStmt w) {
                Guard[] inner = push(guards, new Guard(w.condition(), 1, w.location()));
                walk(w.thenBlock(), inner);
                walk(w.elseBlock(), inner);
            } else if (s instanceof SwitchStmt sw) {
                Guard[] inner = push(guards, new Guard(sw.selector(), sw.selector().width(), sw.location()));
                for (SwitchStmt.Case k : sw.cases()) {
                    walk(k.body(), inner);
                }
                if (sw.defaultBlock() != null) {
                    walk(sw.defaultBlock(), inner);
                }
            }
        }
    }

    private static Guard[] push(Guard[] guards, Guard g) {
        Guard[] inner = java.util.Arrays.copyOf(guards, guards.length + 1);
        inner[guards.length] = g;
        return inner;
    }

    /** The assignments of the signal with id {@code id}, in statement order (later ones win). */
    List<Driver> of(int id) {
        List<Driver> l = driversOf[id];
        return l == null ? List.of() : l;
    }

    /** The read port whose data signal has id {@code id}, or null. */
    Read read(int id) {
        return readOf[id];
    }
}
