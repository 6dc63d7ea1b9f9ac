// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.emit;

import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.Location;
import dev.sue.hdl.ir.Assertion;
import dev.sue.hdl.ir.Assign;
import dev.sue.hdl.ir.Block;
import dev.sue.hdl.ir.ComponentIr;
import dev.sue.hdl.ir.Const;
import dev.sue.hdl.ir.MemPorts;
import dev.sue.hdl.ir.MemoryIr;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Op;
import dev.sue.hdl.ir.OpKind;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;
import dev.sue.hdl.ir.Stmt;
import dev.sue.hdl.ir.SwitchStmt;
import dev.sue.hdl.ir.WhenStmt;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Writes one component as a SystemVerilog module body (everything after the header).
 *
 * <p>Layout: ports; declarations; continuous assignments; one {@code always_comb} per
 * conditionally assigned signal (so every read sees the signal's final value, matching the
 * DSL's last-assignment-wins semantics); one {@code always_ff} per clock domain and reset
 * style; memories; instances; assertions; and a sink for bits nobody reads, so
 * {@code verilator -Wall} stays quiet without waivers.
 */
final class ModuleWriter {
    private static final String IND = "    ";

    private final Component component;
    private final ComponentIr ir;
    private final Map<Component, String> moduleNames;
    private final ModuleNames names;
    private final ExprPrinter printer;
    private final StringBuilder out = new StringBuilder(4096);

    private final Map<Signal, List<Assign>> assigns = new LinkedHashMap<>();
    private final Set<Assign> topLevel = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    /** For each assigned signal, the indices of the top-level statements that assign it (program order). */
    private final Map<Signal, List<Integer>> rootsOf = new IdentityHashMap<>();
    private final Map<Signal, Node> directInputs = new IdentityHashMap<>();
    private final List<Signal> childWires = new ArrayList<>();
    /** Use counts in first-use order (Op has identity equality): temporaries are named in this order. */
    private final Map<Op, Integer> uses = new LinkedHashMap<>();
    private final Set<Op> addressable = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Op> temps = new LinkedHashSet<>();
    private final Map<Signal, BitSet> readBits = new IdentityHashMap<>();
    /** Bits of operations read only through constant slices, and how many such slices read them. */
    private final Map<Op, BitSet> sliceReadBits = new IdentityHashMap<>();
    private final Map<Op, Integer> sliceUses = new IdentityHashMap<>();
    private final Map<Stmt, Boolean> containsCache = new IdentityHashMap<>();
    private final Set<String> usedSymbols = new java.util.TreeSet<>();
    private final Map<String, Const> symbolValues = new java.util.HashMap<>();
    /** Literals that are bit-selected (byte-lane write data and enables), declared as localparams. */
    private final Map<Const, String> indexedLiterals = new LinkedHashMap<>();
    private final Map<Assertion, String> formalLabels = new IdentityHashMap<>();
    private final Set<String> usedLabels = new java.util.HashSet<>();

    /** Whether Java source locations are written (comments, assertion texts); off for the content key. */
    private final boolean locations;

    /**
     * A writer for {@code component}'s module body; without {@code locations} the body carries no Java source
     * location, the text the module's content name is derived from (so that editing Java lines above a block
     * does not rename modules whose logic is unchanged).
     */
    ModuleWriter(Component component, Map<Component, String> moduleNames, boolean locations) {
        this.locations = locations;
        this.component = component;
        this.ir = component.ir();
        this.moduleNames = moduleNames;
        this.names = new ModuleNames(component);
        this.printer = new ExprPrinter(names);
    }

    /** The module text after {@code module NAME}, i.e. from the port list to {@code endmodule}. */
    String write() {
        List<Stmt> roots = ir.body().statements();
        for (int i = 0; i < roots.size(); i++) {
            collectAssigns(roots.get(i), i, true);
        }
        nameChildPorts();
        for (Op op : ir.namedOps()) {
            if (op.owner() == component) {
                names.namedOp(op);
            }
        }
        countUses();
        for (Op op : uses.keySet()) {
            if (names.of(op) == null && (uses.get(op) > 1 || addressable.contains(op) || op.kind() == OpKind.VEC_INDEX)) {
                temps.add(op);
            }
        }
        for (Op op : temps) {
            names.temp(op);
        }
        ports();
        declarations();
        combinational();
        registers();
        memories();
        instances();
        assertions();
        unusedSink();
        out.append("endmodule\n");
        return out.toString();
    }

    // ---- analysis ------------------------------------------------------------------------------

    private void collectAssigns(Stmt s, int rootIndex, boolean atRoot) {
        if (s instanceof Assign a) {
            assigns.computeIfAbsent(a.target(), k -> new ArrayList<>(1)).add(a);
            if (atRoot) {
                topLevel.add(a);
            }
            List<Integer> r = rootsOf.computeIfAbsent(a.target(), k -> new ArrayList<>(1));
            if (r.isEmpty() || r.get(r.size() - 1) != rootIndex) {
                r.add(rootIndex);
            }
        } else if (s instanceof WhenStmt w) {
            collectAssigns(w.thenBlock(), rootIndex);
            collectAssigns(w.elseBlock(), rootIndex);
        } else if (s instanceof SwitchStmt sw) {
            for (SwitchStmt.Case c : sw.cases()) {
                collectAssigns(c.body(), rootIndex);
            }
            if (sw.defaultBlock() != null) {
                collectAssigns(sw.defaultBlock(), rootIndex);
            }
        }
    }

    private void collectAssigns(Block block, int rootIndex) {
        for (Stmt s : block.statements()) {
            collectAssigns(s, rootIndex, false);
        }
    }

    /**
     * Emits, in program order, the top-level statements that assign any of {@code signals},
     * pruned to the assignments of those signals. Only the statements that touch the signals
     * are visited, so emission stays linear in design size.
     */
    private void statementsFor(List<Signal> signals, int depth, String op) {
        Set<Signal> group = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        group.addAll(signals);
        java.util.TreeSet<Integer> indices = new java.util.TreeSet<>();
        for (Signal s : signals) {
            indices.addAll(rootsOf.getOrDefault(s, List.of()));
        }
        List<Stmt> roots = ir.body().statements();
        Block pruned = new Block();
        for (int i : indices) {
            pruned.add(roots.get(i));
        }
        containsCache.clear();
        statements(pruned, group::contains, depth, op);
        containsCache.clear();
    }

    private void nameChildPorts() {
        for (Component child : ir.children()) {
            Map<Signal, ClockDomain> domainOf = domainPortsOf(child);
            for (Signal p : child.ir().ports()) {
                if (!domainOf.containsKey(p) && p.kind() == SignalKind.OUT) {
                    names.childPort(p, child.ir().instanceName());
                    childWires.add(p);
                }
            }
        }
        for (Component child : ir.children()) {
            Map<Signal, ClockDomain> domainOf = domainPortsOf(child);
            for (Signal p : child.ir().ports()) {
                if (domainOf.containsKey(p)) {
                    Signal mine = parentDomainPort(domainOf.get(p), p, child);
                    names.alias(p, names.of(mine));
                    markRead(mine, 0, mine.width() - 1);
                } else if (p.kind() == SignalKind.IN) {
                    List<Assign> a = assigns.get(p);
                    // Wired straight to a named signal or a literal: use it. (An input of a later child has
                    // no name yet, so it goes through a port wire.)
                    if (a != null && a.size() == 1 && topLevel.contains(a.get(0))
                            && (a.get(0).value() instanceof Signal v && names.of(v) != null
                                    || a.get(0).value() instanceof Const)) {
                        directInputs.put(p, a.get(0).value());
                        names.alias(p, printer.print(a.get(0).value()));
                    } else {
                        names.childPort(p, child.ir().instanceName());
                        childWires.add(p);
                    }
                }
            }
        }
    }

    private static Map<Signal, ClockDomain> domainPortsOf(Component c) {
        Map<Signal, ClockDomain> m = new IdentityHashMap<>();
        for (Map.Entry<ClockDomain, ComponentIr.DomainPorts> e : c.ir().domainPorts().entrySet()) {
            m.put(e.getValue().clock(), e.getKey());
            if (e.getValue().reset() != null) {
                m.put(e.getValue().reset(), e.getKey());
            }
            if (e.getValue().enable() != null) {
                m.put(e.getValue().enable(), e.getKey());
            }
        }
        return m;
    }

    private Signal parentDomainPort(ClockDomain d, Signal childPort, Component child) {
        ComponentIr.DomainPorts mine = ir.domainPorts().get(d);
        ComponentIr.DomainPorts theirs = child.ir().domainPorts().get(d);
        if (childPort == theirs.clock()) {
            return mine.clock();
        }
        return childPort == theirs.reset() ? mine.reset() : mine.enable();
    }

    private void countUses() {
        for (Map.Entry<Signal, List<Assign>> e : assigns.entrySet()) {
            Signal s = e.getKey();
            if (s.kind() == SignalKind.REG && s.init() != null && s.domain().reset() != ClockDomain.Reset.NONE) {
                visit(s.init());
            }
        }
        for (Map.Entry<Signal, List<Assign>> e : assigns.entrySet()) {
            if (directInputs.containsKey(e.getKey())) {
                // A signal (read) or a literal, whose enum symbol this module must declare.
                visit(e.getValue().get(0).value());
                continue;
            }
            for (Assign a : e.getValue()) {
                visit(a.value());
            }
        }
        visitConditions(ir.body());
        for (Op op : ir.namedOps()) {
            if (op.owner() == component) {
                visitDefinition(op);
            }
        }
        for (MemoryIr m : ir.memories()) {
            for (MemPorts.Write w : m.writes()) {
                visit(w.address());
                visit(w.enable());
                if (w.byteEnable() == null) {
                    visit(w.data()); // printed whole, e.g. a typed word's {field, field}
                } else {
                    visitAddressable(w.data());
                    visitAddressable(w.byteEnable());
                    // Byte-lane writes select bits of data and enable; a literal cannot be selected.
                    nameIndexedLiteral(w.data(), m.name() + "_wdata");
                    nameIndexedLiteral(w.byteEnable(), m.name() + "_wbe");
                }
            }
            for (MemPorts.Read r : m.reads()) {
                visit(r.address());
                if (r.enable() != null) {
                    visit(r.enable());
                }
            }
        }
        for (Assertion a : ir.assertions()) {
            visit(a.condition());
            if (a.enable() != null) {
                visit(a.enable());
            }
        }
    }

    private void visitConditions(Block block) {
        for (Stmt s : block.statements()) {
            if (s instanceof WhenStmt w) {
                visit(w.condition());
                visitConditions(w.thenBlock());
                visitConditions(w.elseBlock());
            } else if (s instanceof SwitchStmt sw) {
                visit(sw.selector());
                for (SwitchStmt.Case c : sw.cases()) {
                    for (Const v : c.values()) {
                        visit(v);
                    }
                    visitConditions(c.body());
                }
                if (sw.defaultBlock() != null) {
                    visitConditions(sw.defaultBlock());
                }
            }
        }
    }

    private void nameIndexedLiteral(Node n, String base) {
        if (n instanceof Const c && c.symbol() == null && !indexedLiterals.containsKey(c)) {
            indexedLiterals.put(c, names.fresh(base.toUpperCase()));
        }
    }

    /** {@code n} printed so that it can take a bit select. */
    private String indexable(Node n) {
        String literalName = n instanceof Const c ? indexedLiterals.get(c) : null;
        return literalName != null ? literalName : printer.print(n);
    }

    private void visitAddressable(Node n) {
        if (n instanceof Op op) {
            addressable.add(op);
        }
        visit(n);
    }

    /** Counts a use of {@code root}; the first visit of an operation walks its operands (iteratively). */
    private void visit(Node root) {
        ArrayList<Node> stack = new ArrayList<>();
        stack.add(root);
        while (!stack.isEmpty()) {
            Node n = stack.remove(stack.size() - 1);
            if (n instanceof Signal s) {
                markRead(s, 0, s.width() - 1);
            } else if (n instanceof Const c) {
                if (c.symbol() != null) {
                    usedSymbols.add(c.symbol());
                    symbolValues.put(c.symbol(), c);
                }
            } else if (n instanceof Op op) {
                int count = uses.merge(op, 1, Integer::sum);
                if (count == 1 && names.of(op) == null) {
                    pushOperands(op, stack);
                }
            }
        }
    }

    private void visitDefinition(Op op) {
        uses.putIfAbsent(op, 0);
        ArrayList<Node> stack = new ArrayList<>();
        pushOperands(op, stack);
        for (Node n : stack) {
            visit(n);
        }
    }

    private void pushOperands(Op op, ArrayList<Node> stack) {
        switch (op.kind()) {
            case SLICE -> {
                Node arg = op.arg(0);
                if (arg instanceof Signal s) {
                    markRead(s, op.param1(), op.param0());
                    return;
                }
                if (arg instanceof Op inner && arg.width() > 1) {
                    addressable.add(inner);
                    sliceReadBits.computeIfAbsent(inner, k -> new BitSet(inner.width()))
                            .set(op.param1(), op.param0() + 1);
                    sliceUses.merge(inner, 1, Integer::sum);
                }
            }
            case BIT_INDEX, SEXT -> {
                if (op.arg(0) instanceof Op inner && op.arg(0).width() > 1) {
                    addressable.add(inner);
                }
            }
            default -> {
            }
        }
        for (int i = op.argCount() - 1; i >= 0; i--) {
            stack.add(op.arg(i));
        }
    }

    private void markRead(Signal s, int lo, int hi) {
        readBits.computeIfAbsent(s, k -> new BitSet(s.width())).set(lo, hi + 1);
    }

    // ---- ports and declarations ------------------------------------------------------------

    private static String range(int width) {
        return width == 1 ? "" : "[" + (width - 1) + ":0] ";
    }

    private String comment(Location l) {
        if (!locations || l.line() <= 0) {
            return "";
        }
        return "  // " + l.shortForm();
    }

    private void ports() {
        List<Signal> ports = ir.ports();
        if (ports.isEmpty()) {
            out.append(" ();\n");
            return;
        }
        out.append(" (\n");
        int typeWidth = 0;
        for (Signal p : ports) {
            typeWidth = Math.max(typeWidth, portType(p).length());
        }
        for (int i = 0; i < ports.size(); i++) {
            Signal p = ports.get(i);
            String type = portType(p);
            out.append(IND).append(type).append(" ".repeat(typeWidth - type.length())).append(' ')
                    .append(names.of(p)).append(i + 1 < ports.size() ? "," : "").append(comment(p.location()))
                    .append('\n');
        }
        out.append(");\n");
    }

    private static String portType(Signal p) {
        String dir = p.kind() == SignalKind.IN ? "input  wire logic " : "output logic      ";
        return (dir + range(p.width())).stripTrailing();
    }

    private void declarations() {
        List<String[]> decls = new ArrayList<>();
        for (String sym : usedSymbols) {
            Const c = symbolValues.get(sym);
            out.append(IND).append("localparam logic ").append(range(c.width())).append(sym).append(" = ")
                    .append(ExprPrinter.literal(c.value(), c.width())).append(";\n");
        }
        for (Map.Entry<Const, String> e : indexedLiterals.entrySet()) {
            Const c = e.getKey();
            out.append(IND).append("localparam logic ").append(range(c.width())).append(e.getValue()).append(" = ")
                    .append(ExprPrinter.literal(c.value(), c.width())).append(";\n");
        }
        if (!usedSymbols.isEmpty() || !indexedLiterals.isEmpty()) {
            out.append('\n');
        }
        for (Signal s : ir.signals()) {
            if (!s.kind().isPort()) {
                decls.add(new String[] {"logic " + range(s.width()), names.of(s), comment(s.location())});
            }
        }
        for (Op op : ir.namedOps()) {
            if (op.owner() == component) {
                decls.add(new String[] {"logic " + range(op.width()), names.of(op), ""});
            }
        }
        for (Op op : temps) {
            decls.add(new String[] {"logic " + range(op.width()), names.of(op), ""});
        }
        for (Signal p : childWires) {
            decls.add(new String[] {"logic " + range(p.width()), names.of(p), ""});
        }
        int w = 0;
        for (String[] d : decls) {
            w = Math.max(w, d[0].length());
        }
        for (String[] d : decls) {
            out.append(IND).append(d[0]).append(" ".repeat(w - d[0].length())).append(d[1]).append(';')
                    .append(d[2]).append('\n');
        }
        for (MemoryIr m : ir.memories()) {
            out.append(IND).append("logic ").append(range(m.width())).append(m.name()).append(" [0:")
                    .append(m.depth() - 1).append("];").append(comment(m.location())).append('\n');
        }
        if (!decls.isEmpty() || !ir.memories().isEmpty()) {
            out.append('\n');
        }
    }

    // ---- combinational logic ---------------------------------------------------------------

    private void combinational() {
        boolean any = false;
        for (Op op : ir.namedOps()) {
            if (op.owner() == component) {
                if (op.kind() == OpKind.VEC_INDEX) { // has no expression form: a case block, as for temporaries
                    vecIndex(op);
                } else {
                    out.append(IND).append("assign ").append(names.of(op)).append(" = ")
                            .append(printer.print(inlineOf(op))).append(";\n");
                }
                any = true;
            }
        }
        for (Op op : temps) {
            if (op.kind() == OpKind.VEC_INDEX) {
                vecIndex(op);
            } else {
                out.append(IND).append("assign ").append(names.of(op)).append(" = ").append(printer.print(inlineOf(op)))
                        .append(";\n");
            }
            any = true;
        }
        for (Map.Entry<Signal, List<Assign>> e : assigns.entrySet()) {
            Signal s = e.getKey();
            if (s.kind() == SignalKind.REG || directInputs.containsKey(s)) {
                continue;
            }
            List<Assign> list = e.getValue();
            if (list.size() == 1 && topLevel.contains(list.get(0))) {
                Assign a = list.get(0);
                out.append(IND).append("assign ").append(names.of(s)).append(" = ").append(printer.print(a.value()))
                        .append(';').append(comment(a.location())).append('\n');
            } else {
                blankLine();
                out.append(IND).append("always_comb begin\n");
                statementsFor(List.of(s), 2, "=");
                out.append(IND).append("end\n");
            }
            any = true;
        }
        if (any) {
            out.append('\n');
        }
    }

    /** Ends the current group of lines with one blank line (never two). */
    private void blankLine() {
        int n = out.length();
        if (n < 2 || out.charAt(n - 1) != '\n' || out.charAt(n - 2) != '\n') {
            out.append('\n');
        }
    }

    /** The expression an operation stands for when its own name must not be used (its definition). */
    private Node inlineOf(Op op) {
        return new Op(op.kind(), op.width(), -1, op.owner(), op.param0(), op.param1(), op.args().toArray(new Node[0]));
    }

    private void vecIndex(Op op) {
        String t = names.of(op);
        int n = op.argCount() - 1;
        int sel = op.arg(0).width();
        out.append(IND).append("always_comb begin\n");
        out.append(IND).append(IND).append("case (").append(printer.print(op.arg(0))).append(")\n");
        for (int i = 0; i < n; i++) {
            out.append(IND).append(IND).append(IND).append(ExprPrinter.literal(java.math.BigInteger.valueOf(i), sel))
                    .append(": ").append(t).append(" = ").append(printer.print(op.arg(i + 1))).append(";\n");
        }
        if (n < (1L << sel)) {
            out.append(IND).append(IND).append(IND).append("default: ").append(t).append(" = ")
                    .append(printer.print(op.arg(1))).append(";\n");
        }
        out.append(IND).append(IND).append("endcase\n");
        out.append(IND).append("end\n");
    }

    private boolean contains(Stmt s, Predicate<Signal> relevant) {
        Boolean cached = containsCache.get(s);
        if (cached != null) {
            return cached;
        }
        boolean r;
        if (s instanceof Assign a) {
            r = relevant.test(a.target());
        } else if (s instanceof WhenStmt w) {
            r = containsAny(w.thenBlock(), relevant) || containsAny(w.elseBlock(), relevant);
        } else {
            SwitchStmt sw = (SwitchStmt) s;
            r = false;
            for (SwitchStmt.Case c : sw.cases()) {
                r |= containsAny(c.body(), relevant);
            }
            if (sw.defaultBlock() != null) {
                r |= containsAny(sw.defaultBlock(), relevant);
            }
        }
        containsCache.put(s, r);
        return r;
    }

    private boolean containsAny(Block b, Predicate<Signal> relevant) {
        for (Stmt s : b.statements()) {
            if (contains(s, relevant)) {
                return true;
            }
        }
        return false;
    }

    /** Emits the statements of {@code block} that assign a relevant signal, keeping their structure. */
    private void statements(Block block, Predicate<Signal> relevant, int depth, String op) {
        String ind = IND.repeat(depth);
        for (Stmt s : block.statements()) {
            if (!contains(s, relevant)) {
                continue;
            }
            if (s instanceof Assign a) {
                out.append(ind).append(names.of(a.target())).append(' ').append(op).append(' ')
                        .append(printer.print(a.value())).append(';').append(comment(a.location())).append('\n');
            } else if (s instanceof WhenStmt w) {
                out.append(ind).append("if (").append(printer.print(w.condition())).append(") begin")
                        .append(comment(w.location())).append('\n');
                statements(w.thenBlock(), relevant, depth + 1, op);
                elseChain(w.elseBlock(), relevant, depth, op);
            } else if (s instanceof SwitchStmt sw) {
                switchStatement(sw, relevant, depth, op);
            }
        }
    }

    private void elseChain(Block elseBlock, Predicate<Signal> relevant, int depth, String op) {
        String ind = IND.repeat(depth);
        if (!containsAny(elseBlock, relevant)) {
            out.append(ind).append("end\n");
            return;
        }
        List<Stmt> relevantStmts = new ArrayList<>();
        for (Stmt s : elseBlock.statements()) {
            if (contains(s, relevant)) {
                relevantStmts.add(s);
            }
        }
        if (relevantStmts.size() == 1 && relevantStmts.get(0) instanceof WhenStmt nested) {
            out.append(ind).append("end else if (").append(printer.print(nested.condition())).append(") begin")
                    .append(comment(nested.location())).append('\n');
            statements(nested.thenBlock(), relevant, depth + 1, op);
            elseChain(nested.elseBlock(), relevant, depth, op);
            return;
        }
        out.append(ind).append("end else begin\n");
        statements(elseBlock, relevant, depth + 1, op);
        out.append(ind).append("end\n");
    }

    private void switchStatement(SwitchStmt sw, Predicate<Signal> relevant, int depth, String op) {
        String ind = IND.repeat(depth);
        out.append(ind).append("case (").append(printer.print(sw.selector())).append(")").append(comment(sw.location()))
                .append('\n');
        for (SwitchStmt.Case c : sw.cases()) {
            StringBuilder labels = new StringBuilder();
            for (Const v : c.values()) {
                if (labels.length() > 0) {
                    labels.append(", ");
                }
                labels.append(printer.print(v));
                if (v.symbol() != null) {
                    usedSymbolLate(v);
                }
            }
            out.append(ind).append(IND).append(labels).append(": begin\n");
            statements(c.body(), relevant, depth + 2, op);
            out.append(ind).append(IND).append("end\n");
        }
        if (sw.defaultBlock() != null || !sw.isFull()) {
            out.append(ind).append(IND).append("default: begin\n");
            if (sw.defaultBlock() != null) {
                statements(sw.defaultBlock(), relevant, depth + 2, op);
            }
            out.append(ind).append(IND).append("end\n");
        }
        out.append(ind).append("endcase\n");
    }

    private void usedSymbolLate(Const v) {
        if (!usedSymbols.contains(v.symbol())) {
            throw new IllegalStateException("enum symbol " + v.symbol() + " was not collected before emission");
        }
    }

    // ---- registers ---------------------------------------------------------------------------

    private void registers() {
        Map<ClockDomain, List<Signal>> withReset = new LinkedHashMap<>();
        Map<ClockDomain, List<Signal>> withoutReset = new LinkedHashMap<>();
        for (Signal s : assigns.keySet()) {
            if (s.kind() == SignalKind.REG) {
                boolean reset = s.init() != null && s.domain().reset() != ClockDomain.Reset.NONE;
                (reset ? withReset : withoutReset).computeIfAbsent(s.domain(), k -> new ArrayList<>()).add(s);
            }
        }
        for (Map.Entry<ClockDomain, List<Signal>> e : withReset.entrySet()) {
            registerBlock(e.getKey(), e.getValue(), true);
        }
        for (Map.Entry<ClockDomain, List<Signal>> e : withoutReset.entrySet()) {
            registerBlock(e.getKey(), e.getValue(), false);
        }
    }

    private void registerBlock(ClockDomain d, List<Signal> regs, boolean reset) {
        ComponentIr.DomainPorts dp = ir.domainPorts().get(d);
        String clk = names.of(dp.clock());
        markRead(dp.clock(), 0, 0);
        out.append(IND).append("always_ff @(posedge ").append(clk);
        boolean async = reset && d.reset() == ClockDomain.Reset.ASYNC;
        String rst = reset ? names.of(dp.reset()) : null;
        if (async) {
            out.append(d.resetActiveLow() ? " or negedge " : " or posedge ").append(rst);
        }
        out.append(") begin\n");
        int depth = 2;
        if (reset) {
            markRead(dp.reset(), 0, 0);
            out.append(IND).append(IND).append("if (").append(d.resetActiveLow() ? "!" : "").append(rst).append(") begin\n");
            for (Signal s : regs) {
                out.append(IND).append(IND).append(IND).append(names.of(s)).append(" <= ")
                        .append(printer.print(s.init())).append(";\n");
            }
            out.append(IND).append(IND).append("end else");
            if (d.hasClockEnable()) {
                markRead(dp.enable(), 0, 0);
                out.append(" if (").append(names.of(dp.enable())).append(")");
            }
            out.append(" begin\n");
            depth = 3;
        } else if (d.hasClockEnable()) {
            markRead(dp.enable(), 0, 0);
            out.append(IND).append(IND).append("if (").append(names.of(dp.enable())).append(") begin\n");
            depth = 3;
        }
        statementsFor(regs, depth, "<=");
        if (depth == 3) {
            out.append(IND).append(IND).append("end\n");
        }
        out.append(IND).append("end\n\n");
    }

    // ---- memories ----------------------------------------------------------------------------

    private void memories() {
        for (MemoryIr m : ir.memories()) {
            memoryWrites(m);
            for (MemPorts.Read r : m.reads()) {
                String addr = printer.print(r.address());
                if (r.isSync()) {
                    out.append(IND).append("always_ff @(posedge ").append(clockOf(r.domain())).append(") begin")
                            .append(comment(r.location())).append('\n');
                    guarded(portEnable(r.domain(), r.enable(), false), 2,
                            names.of(r.data()) + " <= " + m.name() + "[" + addr + "];");
                    out.append(IND).append("end\n\n");
                } else {
                    out.append(IND).append("assign ").append(names.of(r.data())).append(" = ").append(m.name())
                            .append('[').append(addr).append("];").append(comment(r.location())).append("\n\n");
                }
            }
        }
    }

    /**
     * Every write of {@code m} in one {@code always_ff} (IEEE 1800 9.2.2.4: an array driven from
     * an always_ff may not be written anywhere else), in the order they were described: when
     * two hit one word on the same edge, the later nonblocking assignment wins. Elaboration has
     * checked that they share one clock domain.
     */
    private void memoryWrites(MemoryIr m) {
        List<MemPorts.Write> writes = m.writes();
        if (writes.isEmpty()) {
            return;
        }
        MemPorts.Write first = writes.get(0);
        out.append(IND).append("always_ff @(posedge ").append(clockOf(first.domain())).append(") begin")
                .append(comment(first.location())).append('\n');
        for (MemPorts.Write w : writes) {
            if (locations && writes.size() > 1 && w.location().line() > 0) {
                out.append(IND).append(IND).append("// write port at ").append(w.location().shortForm()).append('\n');
            }
            String addr = printer.print(w.address());
            if (w.byteEnable() == null) {
                guarded(portEnable(w.domain(), w.enable(), false), 2,
                        m.name() + "[" + addr + "] <= " + printer.print(w.data()) + ";");
                continue;
            }
            String be = indexable(w.byteEnable());
            String data = indexable(w.data());
            int lanes = m.width() / 8;
            out.append(IND).append(IND).append("for (int lane = 0; lane < ").append(lanes)
                    .append("; lane++) begin\n");
            String enable = portEnable(w.domain(), w.enable(), true);
            out.append(IND).append(IND).append(IND).append("if (").append(enable == null ? "" : enable + " && ")
                    .append(be).append(lanes == 1 ? "" : "[lane]").append(") begin\n");
            out.append(IND).append(IND).append(IND).append(IND).append(m.name()).append('[').append(addr)
                    .append("][8*lane +: 8] <= ").append(data).append("[8*lane +: 8];\n");
            out.append(IND).append(IND).append(IND).append("end\n");
            out.append(IND).append(IND).append("end\n");
        }
        out.append(IND).append("end\n\n");
    }

    /**
     * The condition under which a synchronous memory port acts: its enable, and the domain's
     * clock enable when it has one (registers of the domain hold without it, so must memories).
     * {@code operand}: the result is combined with another condition, so parenthesise as needed.
     * Null when the port always acts (no clock enable, constant-true enable).
     */
    private String portEnable(ClockDomain d, Node enable, boolean operand) {
        boolean always = enable instanceof Const c && c.value().signum() != 0;
        if (!d.hasClockEnable()) {
            return always ? null : operand ? printer.printOperand(enable) : printer.print(enable);
        }
        Signal ce = ir.domainPorts().get(d).enable();
        markRead(ce, 0, 0);
        return always ? names.of(ce) : names.of(ce) + " && " + printer.printOperand(enable);
    }

    /** {@code statement} at {@code depth}, inside {@code if (condition)} unless the condition is null. */
    private void guarded(String condition, int depth, String statement) {
        if (condition == null) {
            out.append(IND.repeat(depth)).append(statement).append('\n');
            return;
        }
        out.append(IND.repeat(depth)).append("if (").append(condition).append(") begin\n");
        out.append(IND.repeat(depth + 1)).append(statement).append('\n');
        out.append(IND.repeat(depth)).append("end\n");
    }

    private String clockOf(ClockDomain d) {
        Signal clk = ir.domainPorts().get(d).clock();
        markRead(clk, 0, 0);
        return names.of(clk);
    }

    // ---- instances ---------------------------------------------------------------------------

    private void instances() {
        for (Component child : ir.children()) {
            ComponentIr cir = child.ir();
            out.append(IND).append(moduleNames.get(child));
            if (cir.isBlackBox() && !cir.blackBoxParameters().isEmpty()) {
                out.append(" #(\n");
                int i = 0;
                for (Map.Entry<String, Object> p : cir.blackBoxParameters().entrySet()) {
                    out.append(IND).append(IND).append('.').append(p.getKey()).append('(').append(svValue(p.getValue()))
                            .append(')').append(++i < cir.blackBoxParameters().size() ? "," : "").append('\n');
                }
                out.append(IND).append(')');
            }
            out.append(' ').append(cir.instanceName()).append(" (").append(comment(cir.location())).append('\n');
            List<Signal> ports = cir.ports();
            int w = 0;
            for (Signal p : ports) {
                w = Math.max(w, p.name().length());
            }
            for (int i = 0; i < ports.size(); i++) {
                Signal p = ports.get(i);
                out.append(IND).append(IND).append('.').append(p.name()).append(" ".repeat(w - p.name().length()))
                        .append(" (").append(names.of(p)).append(')').append(i + 1 < ports.size() ? "," : "").append('\n');
            }
            out.append(IND).append(");\n\n");
        }
    }

    private static String svValue(Object v) {
        if (v instanceof String s) {
            return "\"" + s + "\"";
        }
        if (v instanceof Boolean b) {
            return b ? "1" : "0";
        }
        return String.valueOf(v);
    }

    // ---- assertions --------------------------------------------------------------------------

    /**
     * Simulators get each message in an action block. Yosys {@code read -formal} (which defines
     * {@code FORMAL}) parses no action block, so formal tools get a second copy of the blocks
     * with the message as a comment on the line a counterexample points to.
     */
    private void assertions() {
        if (ir.assertions().isEmpty()) {
            return;
        }
        Map<ClockDomain, List<Assertion>> byDomain = new LinkedHashMap<>();
        Map<ClockDomain, List<Assertion>> inReset = new LinkedHashMap<>();
        for (Assertion a : ir.assertions()) {
            (a.duringReset() ? inReset : byDomain).computeIfAbsent(a.domain(), k -> new ArrayList<>()).add(a);
        }
        out.append("`ifndef SYNTHESIS\n");
        out.append("`ifdef FORMAL\n");
        assertionBlocks(byDomain, false, true);
        assertionBlocks(inReset, true, true);
        out.append("`else\n");
        assertionBlocks(byDomain, false, false);
        assertionBlocks(inReset, true, false);
        out.append("`endif\n");
        out.append("`endif\n\n");
    }

    private void assertionBlocks(Map<ClockDomain, List<Assertion>> byDomain, boolean duringReset, boolean forFormal) {
        for (Map.Entry<ClockDomain, List<Assertion>> e : byDomain.entrySet()) {
            ClockDomain d = e.getKey();
            ComponentIr.DomainPorts dp = ir.domainPorts().get(d);
            if (duringReset && dp.reset() == null) {
                continue;
            }
            // Plain always: Icarus warns about $error in always_ff ("cannot be synthesized").
            out.append(IND).append("always @(posedge ").append(clockOf(d)).append(") begin\n");
            String guard = null;
            if (dp.reset() != null) {
                markRead(dp.reset(), 0, 0);
                boolean activeWhenHigh = d.resetActiveLow() != duringReset;
                guard = (activeWhenHigh ? "" : "!") + names.of(dp.reset());
                if (duringReset && forFormal) {
                    // A formal tool starts from any state: before the first reset edge nothing is defined.
                    guard = guard + " && !$initstate";
                }
                out.append(IND).append(IND).append("if (").append(guard).append(") begin\n");
            }
            String ind = IND.repeat(guard == null ? 2 : 3);
            for (Assertion a : e.getValue()) {
                String bodyInd = ind;
                if (a.enable() != null) {
                    out.append(ind).append("if (").append(printer.print(a.enable())).append(") begin\n");
                    bodyInd = ind + IND;
                }
                out.append(bodyInd).append(statement(a, forFormal)).append('\n');
                if (a.enable() != null) {
                    out.append(ind).append("end\n");
                }
            }
            if (guard != null) {
                out.append(IND).append(IND).append("end\n");
            }
            out.append(IND).append("end\n");
        }
    }

    private String statement(Assertion a, boolean forFormal) {
        String cond = printer.print(a.condition());
        String text = locations ? a.message() + " (" + a.location().shortForm() + ")" : a.message();
        return switch (a.kind()) {
            case COVER -> "cover (" + cond + ");" + comment(a.location());
            case ASSERT, ASSUME -> {
                String keyword = a.kind() == Assertion.Kind.ASSERT ? "assert" : "assume";
                yield forFormal
                        ? formalLabel(a, keyword) + ": " + keyword + " (" + cond + ");  // " + text
                        : keyword + " (" + cond + ") else $error(\"" + text.replace("%", "%%") + "\");" + comment(a.location());
            }
        };
    }

    /**
     * A statement label made from the message, unique in the module: formal tools name a failed
     * property by its label ({@code assert_push_while_full}), while their line numbers are not
     * reliable after preprocessor directives.
     */
    private String formalLabel(Assertion a, String keyword) {
        return formalLabels.computeIfAbsent(a, k -> {
            String words = a.message().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
            words = words.substring(0, Math.min(words.length(), 60)).replaceAll("^_|_$", "");
            // Never the bare keyword: a message without letters or digits still gets a suffix.
            String base = keyword + "_" + (words.isEmpty() ? "property" : words);
            String label = base;
            for (int n = 2; !usedLabels.add(label); n++) {
                label = base + "_" + n;
            }
            return label;
        });
    }

    // ---- unused bits ---------------------------------------------------------------------------

    private void unusedSink() {
        List<String> parts = new ArrayList<>();
        List<Signal> candidates = new ArrayList<>();
        for (Signal s : ir.signals()) {
            if (s.kind() != SignalKind.OUT) {
                candidates.add(s);
            }
        }
        for (Component child : ir.children()) {
            for (Signal p : child.ir().ports()) {
                if (p.kind() == SignalKind.OUT) {
                    candidates.add(p);
                }
            }
        }
        for (Signal s : candidates) {
            addUnread(parts, names.of(s), s.width(), readBits.get(s));
        }
        // Named and temporary operations are declared wires too: a slice may leave some bits unread.
        List<Op> wires = new ArrayList<>(temps);
        for (Op op : ir.namedOps()) {
            if (op.owner() == component) {
                wires.add(op);
            }
        }
        for (Op op : wires) {
            int uses = this.uses.getOrDefault(op, 0);
            int slices = sliceUses.getOrDefault(op, 0);
            if (uses == 0 || uses == slices) {  // nothing reads it whole
                addUnread(parts, names.of(op), op.width(), sliceReadBits.get(op));
            }
        }
        if (parts.isEmpty()) {
            return;
        }
        emitUnusedSink(parts);
    }

    private static void addUnread(List<String> parts, String n, int width, BitSet read) {
        if (read == null || read.cardinality() == 0) {
            parts.add(n);
            return;
        }
        int bit = read.nextClearBit(0);
        while (bit < width) {
            int end = read.nextSetBit(bit);
            int hi = (end < 0 || end > width ? width : end) - 1;
            parts.add(hi == bit ? n + "[" + bit + "]" : n + "[" + hi + ":" + bit + "]");
            bit = read.nextClearBit(hi + 1);
        }
    }

    private void emitUnusedSink(List<String> parts) {
        out.append(IND).append("// Bits no logic reads, gathered on purpose so lint reports only real surprises.\n");
        out.append(IND).append("logic unused_ok;\n");
        out.append(IND).append("assign unused_ok = ^{").append(String.join(", ", parts)).append("};\n\n");
    }
}
