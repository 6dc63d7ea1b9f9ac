// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.check;

import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.Location;
import dev.sue.hdl.ir.Assertion;
import dev.sue.hdl.ir.MemPorts;
import dev.sue.hdl.ir.MemoryIr;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Clock-domain crossing check. Each node gets the set of domains its value comes from
 * (registers and synchronous reads from their own domain, top-level inputs from the domain
 * they were declared in). A register, memory port or assertion may only use values from its
 * own domain, except inside components that declared themselves synchronisers.
 */
final class CdcCheck {
    private final DesignIndex index;
    private final CombGraph graph;
    private final ErrorSink errors;
    private final ClockDomain defaultDomain;
    private final Map<ClockDomain, Integer> ordinal = new LinkedHashMap<>();
    private long[] mask;
    private boolean[] done;

    CdcCheck(DesignIndex index, CombGraph graph, ErrorSink errors, ClockDomain defaultDomain) {
        this.index = index;
        this.graph = graph;
        this.errors = errors;
        this.defaultDomain = defaultDomain;
    }

    void run(int nodeCount) {
        mask = new long[nodeCount];
        done = new boolean[nodeCount];
        bit(defaultDomain);
        for (Signal s : index.signals) {
            if (s.kind() == SignalKind.REG && !s.owner().ir().clockCrossingAllowed()) {
                long m = 0;
                for (Node d : index.deps(s)) {
                    m |= maskOf(d);
                }
                check(s.domain(), m, s.location(), "register " + s.describe());
            }
        }
        for (Component c : index.components) {
            if (c.ir().clockCrossingAllowed()) {
                continue;
            }
            for (MemoryIr mem : c.ir().memories()) {
                for (MemPorts.Write w : mem.writes()) {
                    long m = maskOf(w.address()) | maskOf(w.data()) | maskOf(w.enable())
                            | (w.byteEnable() == null ? 0 : maskOf(w.byteEnable()));
                    check(w.domain(), m, w.location(), "write port of memory '" + mem.name() + "'");
                }
                for (MemPorts.Read r : mem.reads()) {
                    if (r.isSync()) {
                        long m = maskOf(r.address()) | (r.enable() == null ? 0 : maskOf(r.enable()));
                        check(r.domain(), m, r.location(), "read port of memory '" + mem.name() + "'");
                    }
                }
            }
            for (Assertion a : c.ir().assertions()) {
                long m = maskOf(a.condition()) | (a.enable() == null ? 0 : maskOf(a.enable()));
                check(a.domain(), m, a.location(), "assertion '" + a.message() + "'");
            }
        }
    }

    private void check(ClockDomain own, long m, Location where, String what) {
        long foreign = m & ~bit(own);
        if (foreign != 0) {
            List<String> names = new ArrayList<>();
            for (Map.Entry<ClockDomain, Integer> e : ordinal.entrySet()) {
                if ((foreign & (1L << e.getValue())) != 0) {
                    names.add(e.getKey().toString());
                }
            }
            errors.error(where, what + " in the " + own + " uses signals from the " + String.join(", ", names)
                    + " without a synchroniser; cross with a library synchroniser or async FIFO");
        }
    }

    private long bit(ClockDomain d) {
        Integer i = ordinal.get(d);
        if (i == null) {
            i = ordinal.size();
            if (i >= 64) {
                throw new IllegalStateException("more than 64 clock domains");
            }
            ordinal.put(d, i);
        }
        return 1L << i;
    }

    private long sourceMask(Node n) {
        if (n instanceof Signal s) {
            if (s.kind() == SignalKind.REG || (s.kind() == SignalKind.MEM_DATA && s.domain() != null)) {
                return bit(s.domain());
            }
            if (s.kind() == SignalKind.IN && s.owner().ir().parent() == null && !index.isDomainPort(s)) {
                return bit(s.inputDomain() != null ? s.inputDomain() : defaultDomain);
            }
        }
        return 0;
    }

    /** Domains feeding {@code root}, memoised; iterative post-order over the (loop-free) graph. */
    private long maskOf(Node root) {
        if (root.id() < 0) {
            return 0;
        }
        if (done[root.id()]) {
            return mask[root.id()];
        }
        List<Node> stack = new ArrayList<>();
        List<List<Node>> succs = new ArrayList<>();
        List<Integer> next = new ArrayList<>();
        stack.add(root);
        succs.add(graph.successors(root));
        next.add(0);
        while (!stack.isEmpty()) {
            int top = stack.size() - 1;
            Node n = stack.get(top);
            List<Node> succ = succs.get(top);
            int i = next.get(top);
            if (i < succ.size()) {
                next.set(top, i + 1);
                Node m = succ.get(i);
                if (m.id() >= 0 && !done[m.id()]) {
                    stack.add(m);
                    succs.add(graph.successors(m));
                    next.add(0);
                }
                continue;
            }
            long acc = sourceMask(n);
            for (Node m : succ) {
                if (m.id() >= 0) {
                    acc |= mask[m.id()];
                }
            }
            if (n instanceof Signal s && s.kind() == SignalKind.MEM_DATA && s.domain() == null) {
                acc |= asyncMemoryWriteDomains(s);
            }
            mask[n.id()] = acc;
            done[n.id()] = true;
            stack.remove(top);
            succs.remove(top);
            next.remove(top);
        }
        return mask[root.id()];
    }

    private long asyncMemoryWriteDomains(Signal data) {
        long acc = 0;
        for (MemoryIr m : data.owner().ir().memories()) {
            for (MemPorts.Read r : m.reads()) {
                if (r.data() == data) {
                    for (MemPorts.Write w : m.writes()) {
                        acc |= bit(w.domain());
                    }
                }
            }
        }
        return acc;
    }
}
