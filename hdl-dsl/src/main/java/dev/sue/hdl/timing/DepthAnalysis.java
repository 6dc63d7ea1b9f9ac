// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.timing;

import dev.sue.hdl.Component;
import dev.sue.hdl.Location;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Op;
import dev.sue.hdl.ir.Signal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Estimates the combinational depth of every register-to-register path of a flattened design
 * (paths cross instance ports), in weighted LUT6 levels, with the {@link DepthCost} model.
 *
 * <p>Start points are registers, synchronous memory read data, top-level inputs and black-box
 * outputs; end points are listed by {@link Endpoint}. An asynchronous memory read is a LUT RAM:
 * its data settles {@link DepthCost#lutRamLevels} after its address, and the path goes on.
 * A signal assigned under conditions is the multiplexer synthesis builds: a cone over its values
 * and the conditions that select them (a case selector counts its width, as its decoder does).
 * A register's conditions drive its clock enable, not its data input, as with {@code FDRE}.
 *
 * <p>Each node's arrival is computed once, in topological order, by an iterative depth-first
 * walk, so the analysis is linear in design size and safe on million-node chains; the input that
 * decided each arrival is kept so the worst paths can be traced back to their start.
 */
public final class DepthAnalysis {
    private static final int NONE = -1;

    private final Drivers drivers;
    private final SignalNames names = new SignalNames();
    private final Arrival[] arrival;
    /** The input that decided each node's arrival (a node id), or NONE at a start point. */
    private final int[] critical;
    /** The statement that connects each signal to its critical input. */
    private final Location[] via;
    /** Marks of the guards already counted in the cone being built (deduplicates shared conditions). */
    private final int[] seen;
    private int seenMark;
    private final Node[] nodes;

    private DepthAnalysis(List<Component> components, int nodeCount) {
        drivers = new Drivers(components, nodeCount);
        arrival = new Arrival[nodeCount];
        critical = new int[nodeCount];
        via = new Location[nodeCount];
        seen = new int[nodeCount];
        nodes = new Node[nodeCount];
    }

    /**
     * Analyses {@code components} (a whole design, parents before children).
     *
     * @param worst how many of the worst paths to keep (one per end point)
     * @param limit the budget to record in the report, or null
     */
    public static DepthReport run(List<Component> components, int nodeCount, int worst, Double limit) {
        long t0 = System.nanoTime();
        DepthAnalysis a = new DepthAnalysis(components, nodeCount);
        List<Endpoint> endpoints = Endpoint.all(components, a.names);
        List<Result> results = new ArrayList<>(endpoints.size());
        for (Endpoint e : endpoints) {
            results.add(a.settle(e));
        }
        results.sort(Comparator.comparingDouble((Result r) -> -r.arrival().level()));
        List<DepthPath> paths = new ArrayList<>();
        for (int i = 0; i < Math.min(worst, results.size()); i++) {
            paths.add(a.trace(results.get(i)));
        }
        double worstLevels = results.isEmpty() ? 0 : results.get(0).arrival().level();
        int over = limit == null ? 0 : (int) results.stream().filter(r -> r.arrival().level() > limit + 1e-9).count();
        return new DepthReport(worstLevels, endpoints.size(), over, List.copyOf(paths), limit,
                (System.nanoTime() - t0) / 1e9);
    }

    /** When an end point's inputs settle, and through which input and statement. */
    private record Result(Endpoint endpoint, Arrival arrival, int critical, Location via) {
    }

    /** The input of a cone whose arrival decides it: the latest, then the heaviest. */
    private static final class Critical {
        int node = NONE;
        Arrival arrival;
        Location via;

        void offer(Node n, Arrival a, Location where) {
            if (a.isConstant()) {
                return;
            }
            if (arrival == null || a.level() > arrival.level() || a.level() == arrival.level() && a.mass() > arrival.mass()) {
                node = n.id();
                arrival = a;
                via = where;
            }
        }
    }

    private Result settle(Endpoint e) {
        if (e.register() != null) {
            return settleRegister(e);
        }
        if (e.inputs().size() == 1 && e.inputs().get(0) instanceof Signal port) {
            Arrival a = arrivalOf(port);
            return new Result(e, a, critical[port.id()], via[port.id()] != null ? via[port.id()] : e.location());
        }
        Critical worst = new Critical();
        for (Node n : e.inputs()) {
            worst.offer(n, arrivalOf(n), e.location());
        }
        if (e.decodeLevels() > 0 && worst.arrival != null) {
            // the decoder's first LUT takes the enable and the bank bits (it may absorb the
            // enable's own LUT), the rest of its tree follows
            Cone decoder = new Cone();
            for (Node n : e.inputs()) {
                decoder.add(arrivalOf(n));
            }
            Arrival first = decoder.packed();
            return new Result(e, Arrival.leafAt(first.level() + e.decodeLevels() - 1), worst.node, e.location());
        }
        return new Result(e, worst.arrival == null ? Arrival.CONSTANT : worst.arrival, worst.node, e.location());
    }

    /** The later of a register's data input (its values, selected by all but the first's conditions) and clock enable. */
    private Result settleRegister(Endpoint e) {
        List<Drivers.Driver> ds = drivers.of(e.register().id());
        for (Drivers.Driver d : ds) {
            ensure(d.assign().value());
            for (Drivers.Guard g : d.guards()) {
                ensure(g.node());
            }
        }
        Critical dCrit = new Critical();
        Arrival data = ds.size() == 1 ? identity(ds.get(0), dCrit) : cone(ds, 1, true, dCrit);
        Critical ceCrit = new Critical();
        Arrival enable = cone(ds, 0, false, ceCrit);
        Critical pick = enable.level() > data.level() ? ceCrit : dCrit;
        Arrival at = enable.level() > data.level() ? enable : data;
        return new Result(e, at, pick.node, pick.via == null ? e.location() : pick.via);
    }

    private Arrival identity(Drivers.Driver d, Critical crit) {
        Node v = d.assign().value();
        crit.offer(v, arrivalOf(v), d.assign().location());
        return arrivalOf(v);
    }

    /**
     * The multiplexer of {@code ds}: a cone over the values (when {@code values}) and over each distinct
     * guard of the drivers from {@code firstGuarded} on. A single one-bit guard alone is used as it is.
     */
    private Arrival cone(List<Drivers.Driver> ds, int firstGuarded, boolean values, Critical crit) {
        seenMark++;
        Cone c = new Cone();
        int inputs = 0;
        Drivers.Guard only = null;
        for (int i = 0; i < ds.size(); i++) {
            Drivers.Driver d = ds.get(i);
            if (values) {
                Node v = d.assign().value();
                c.add(arrivalOf(v));
                crit.offer(v, arrivalOf(v), d.assign().location());
                inputs++;
            }
            if (i < firstGuarded) {
                continue;
            }
            for (Drivers.Guard g : d.guards()) {
                Node n = g.node();
                if (n.id() < 0 || seen[n.id()] == seenMark) {
                    continue;
                }
                seen[n.id()] = seenMark;
                c.add(arrival[n.id()], g.bits());
                crit.offer(n, arrival[n.id()], g.location());
                inputs++;
                only = g;
            }
        }
        if (!values && inputs == 1 && only.bits() == 1) {
            return arrival[only.node().id()];
        }
        return c.packed();
    }

    private Arrival arrivalOf(Node n) {
        if (n.id() < 0) {
            return Arrival.CONSTANT;
        }
        ensure(n);
        return arrival[n.id()];
    }

    /** Computes the arrival of {@code root} and everything it depends on, depth first without recursion. */
    private void ensure(Node root) {
        if (root.id() < 0 || arrival[root.id()] != null) {
            return;
        }
        List<Node> stack = new ArrayList<>();
        List<Boolean> expanded = new ArrayList<>();
        stack.add(root);
        expanded.add(Boolean.FALSE);
        while (!stack.isEmpty()) {
            int top = stack.size() - 1;
            Node n = stack.get(top);
            if (arrival[n.id()] != null) {
                stack.remove(top);
                expanded.remove(top);
                continue;
            }
            if (expanded.get(top)) {
                stack.remove(top);
                expanded.remove(top);
                evaluate(n);
                continue;
            }
            expanded.set(top, Boolean.TRUE);
            for (Node d : inputs(n)) {
                if (d.id() >= 0 && arrival[d.id()] == null) {
                    stack.add(d);
                    expanded.add(Boolean.FALSE);
                }
            }
        }
    }

    /** The nodes {@code n}'s value combinationally depends on. */
    private List<Node> inputs(Node n) {
        if (n instanceof Op op) {
            return op.args();
        }
        Signal s = (Signal) n;
        switch (s.kind()) {
            case REG:
                return List.of();
            case MEM_DATA: {
                Drivers.Read r = drivers.read(s.id());
                return r == null || r.port().isSync() ? List.of() : List.of(r.port().address());
            }
            default: {
                List<Node> in = new ArrayList<>();
                for (Drivers.Driver d : drivers.of(s.id())) {
                    in.add(d.assign().value());
                    for (Drivers.Guard g : d.guards()) {
                        in.add(g.node());
                    }
                }
                return in;
            }
        }
    }

    private void evaluate(Node n) {
        int id = n.id();
        nodes[id] = n;
        critical[id] = NONE;
        if (n instanceof Op op) {
            arrival[id] = DepthCost.of(op, this::arrivalOf);
            Critical crit = new Critical();
            for (int i = 0; i < op.argCount(); i++) {
                crit.offer(op.arg(i), arrivalOf(op.arg(i)), null);
            }
            critical[id] = crit.node;
            return;
        }
        Signal s = (Signal) n;
        switch (s.kind()) {
            case REG:
                arrival[id] = Arrival.SOURCE;
                return;
            case MEM_DATA: {
                Drivers.Read r = drivers.read(id);
                if (r == null || r.port().isSync()) {
                    arrival[id] = Arrival.SOURCE;
                    return;
                }
                Node address = r.port().address();
                arrival[id] = Arrival.leafAt(arrivalOf(address).level() + DepthCost.lutRamLevels(r.memory().depth()));
                critical[id] = address.id();
                via[id] = r.port().location();
                return;
            }
            default: {
                List<Drivers.Driver> ds = drivers.of(id);
                if (ds.isEmpty()) {
                    arrival[id] = Arrival.SOURCE;
                    return;
                }
                Critical crit = new Critical();
                arrival[id] = ds.size() == 1 && ds.get(0).guards().length == 0 ? identity(ds.get(0), crit)
                        : cone(ds, 0, true, crit);
                critical[id] = crit.node;
                via[id] = crit.via;
            }
        }
    }

    /** The path to an end point: its critical input followed back to a start point, named signals only. */
    private DepthPath trace(Result r) {
        List<DepthPath.Step> steps = new ArrayList<>();
        Endpoint e = r.endpoint();
        steps.add(new DepthPath.Step(e.name(), r.via(), r.arrival().level()));
        int id = r.critical();
        while (id != NONE) {
            Node n = nodes[id];
            String name = names.of(n);
            if (name != null) {
                Location where = via[id] != null ? via[id] : n instanceof Signal s ? s.location()
                        : n.owner().ir().namedOpLocation((Op) n);
                steps.add(new DepthPath.Step(name, where, arrival[id].level()));
            }
            id = critical[id];
        }
        java.util.Collections.reverse(steps);
        return new DepthPath(r.arrival().level(), e.kind(), List.copyOf(steps));
    }
}
