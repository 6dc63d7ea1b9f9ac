// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.check;

import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Signal;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds combinational loops with an iterative depth-first search (no recursion, so a
 * million-node chain does not overflow the stack) and reports each loop with its signals
 * and the lines that declared them.
 */
final class LoopCheck {
    private static final byte WHITE = 0;
    private static final byte GREY = 1;
    private static final byte BLACK = 2;

    private final DesignIndex index;
    private final CombGraph graph;
    private final ErrorSink errors;

    LoopCheck(DesignIndex index, CombGraph graph, ErrorSink errors) {
        this.index = index;
        this.graph = graph;
        this.errors = errors;
    }

    /** Returns true when the design has no combinational loop. */
    boolean run(int nodeCount) {
        byte[] color = new byte[nodeCount];
        boolean clean = true;
        List<Node> path = new ArrayList<>();
        List<List<Node>> succs = new ArrayList<>();
        List<Integer> next = new ArrayList<>();
        for (Signal root : index.signals) {
            if (color[root.id()] != WHITE) {
                continue;
            }
            path.add(root);
            succs.add(graph.successors(root));
            next.add(0);
            color[root.id()] = GREY;
            while (!path.isEmpty()) {
                int top = path.size() - 1;
                Node n = path.get(top);
                List<Node> succ = succs.get(top);
                int i = next.get(top);
                if (i >= succ.size()) {
                    color[n.id()] = BLACK;
                    path.remove(top);
                    succs.remove(top);
                    next.remove(top);
                    continue;
                }
                next.set(top, i + 1);
                Node m = succ.get(i);
                if (m.id() < 0) {
                    continue;
                }
                if (color[m.id()] == WHITE) {
                    color[m.id()] = GREY;
                    path.add(m);
                    succs.add(graph.successors(m));
                    next.add(0);
                } else if (color[m.id()] == GREY) {
                    report(path, m);
                    clean = false;
                }
            }
        }
        return clean;
    }

    private void report(List<Node> path, Node back) {
        int start = path.lastIndexOf(back);
        List<Signal> loop = new ArrayList<>();
        for (int k = path.size() - 1; k >= start; k--) {
            if (path.get(k) instanceof Signal s) {
                loop.add(s);
            }
        }
        if (loop.isEmpty()) {
            return;
        }
        StringBuilder sb = new StringBuilder("combinational loop: ");
        for (Signal s : loop) {
            sb.append(s.name()).append(" (").append(s.location()).append(") depends on ");
        }
        sb.append(loop.get(0).name()).append("; break it with a register");
        errors.error(loop.get(0).location(), sb.toString());
    }
}
