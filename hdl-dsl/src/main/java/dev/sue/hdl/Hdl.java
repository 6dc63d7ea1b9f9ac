// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Assertion;
import dev.sue.hdl.ir.ComponentIr;
import dev.sue.hdl.ir.Const;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.OpKind;
import dev.sue.hdl.ir.SignalKind;
import dev.sue.hdl.ir.SwitchStmt;
import dev.sue.hdl.ir.WhenStmt;
import java.math.BigInteger;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The DSL's vocabulary; use it with {@code import static dev.sue.hdl.Hdl.*;}.
 *
 * <pre>{@code
 * public final class Counter extends Component {
 *     public final Bool enable = in(bool());
 *     public final UInt count;
 *
 *     public Counter(int width) {
 *         param("width", width);
 *         count = out(uint(width));
 *         UInt value = reg(uint(width)).init(0);
 *         when(enable, () -> value.set(value.add(1)));
 *         count.set(value);
 *     }
 * }
 * }</pre>
 */
public final class Hdl {
    /** Constant true / false. */
    public static final Bool TRUE = new Bool(new Const(BigInteger.ONE, 1, null));
    public static final Bool FALSE = new Bool(new Const(BigInteger.ZERO, 1, null));

    private Hdl() {
    }

    // ---- types -------------------------------------------------------------------------------

    public static Bool bool() {
        return new Bool();
    }

    public static Bits bits(int width) {
        return new Bits(width);
    }

    public static UInt uint(int width) {
        return new UInt(width);
    }

    public static SInt sint(int width) {
        return new SInt(width);
    }

    public static <E extends Enum<E>> HwEnum<E> enumOf(EnumType<E> type) {
        return type.type();
    }

    // ---- literals ----------------------------------------------------------------------------

    /** Unsigned literal; the value must fit the width. */
    public static UInt U(long value, int width) {
        return new UInt(Ops.unsignedLiteral(value, width, "UInt"));
    }

    public static UInt U(BigInteger value, int width) {
        return new UInt(Ops.constant(Ops.checkedUnsigned(value, width, "UInt"), width));
    }

    /** Signed literal; the value must fit the width in two's complement. */
    public static SInt S(long value, int width) {
        return new SInt(Ops.signedLiteral(value, width, "SInt"));
    }

    public static Bits B(long value, int width) {
        return new Bits(Ops.unsignedLiteral(value, width, "Bits"));
    }

    public static Bits B(BigInteger value, int width) {
        return new Bits(Ops.constant(Ops.checkedUnsigned(value, width, "Bits"), width));
    }

    public static Bool bool(boolean value) {
        return value ? TRUE : FALSE;
    }

    public static <E extends Enum<E>> HwEnum<E> lit(EnumType<E> type, E constant) {
        HwEnum<E> t = type.type();
        return new HwEnum<>(type, t.literal(constant));
    }

    // ---- declarations ------------------------------------------------------------------------

    /** Declares {@code type} as an input port of the component being built. */
    public static <T extends Data> T in(T type) {
        return declare(type, SignalKind.IN, false);
    }

    /** Declares {@code type} as an output port. */
    public static <T extends Data> T out(T type) {
        return declare(type, SignalKind.OUT, false);
    }

    /** Bundle port seen from its source: normal fields out, flipped fields in. */
    public static <T extends Data> T master(T type) {
        return declare(type, SignalKind.OUT, false);
    }

    /** Bundle port seen from its sink: normal fields in, flipped fields out. */
    public static <T extends Data> T slave(T type) {
        return declare(type, SignalKind.IN, false);
    }

    /** A combinational signal; it must be assigned on every path. */
    public static <T extends Data> T wire(T type) {
        return declare(type, SignalKind.WIRE, false);
    }

    public static <T extends Data> T wire(String name, T type) {
        return wire(type).named(name);
    }

    /** A register in the current clock domain; give it a reset value with {@code init(...)}. */
    public static <T extends Data> T reg(T type) {
        return declare(type, SignalKind.REG, false);
    }

    public static <T extends Data> T reg(String name, T type) {
        return reg(type).named(name);
    }

    private static <T extends Data> T declare(T type, SignalKind kind, boolean flip) {
        Elaboration e = Elaboration.current();
        type.bind(kind, flip, Location.here());
        e.declared(e.component(), type);
        return type;
    }

    /** Marks top-level input {@code port} as synchronous to {@code domain} (for the clock-crossing check). */
    public static <T extends Data> T inDomain(ClockDomain domain, T port) {
        port.forEachLeaf(l -> {
            if (l.signal() == null || l.signal().kind() != SignalKind.IN) {
                Elaboration.current().error("inDomain() applies to input ports");
            } else {
                l.signal().setInputDomain(domain);
            }
        });
        return port;
    }

    /** A register that takes {@code value} every cycle, named after it with suffix {@code _d1}. */
    @SuppressWarnings("unchecked")
    public static <T extends Data> T regNext(T value) {
        T r = (T) reg(value.copyType());
        r.nameAfter(value, "_d1");
        assignLeaves(r, value);
        return r;
    }

    /** A register that takes {@code value} when {@code enable}, named after it with suffix {@code _reg}. */
    @SuppressWarnings("unchecked")
    public static <T extends Data> T regNextWhen(T value, Bool enable) {
        T r = (T) reg(value.copyType());
        r.nameAfter(value, "_reg");
        when(enable, () -> assignLeaves(r, value));
        return r;
    }

    /** Assigns leaf by leaf, ignoring bundle directions (for registers and wires of bundle type). */
    public static void assignLeaves(Data target, Data source) {
        List<BaseType> t = target.leaves();
        List<BaseType> s = source.leaves();
        if (t.size() != s.size()) {
            Elaboration.current().error("cannot assign values of different shapes (" + t.size() + " and " + s.size()
                    + " leaves)");
            return;
        }
        for (int i = 0; i < t.size(); i++) {
            assignLeaf(t.get(i), s.get(i));
        }
    }

    /**
     * Connects two values of the same shape along their directions: normal fields flow from
     * {@code source} to {@code sink}, flipped fields (such as {@code ready}) flow back. Bundles of
     * other classes or member counts, or a bundle whose fields cannot be driven that way (the
     * arguments swapped, master and slave mixed up), are an error at the caller's line and
     * connect nothing.
     */
    public static void connect(Data sink, Data source) {
        if (sink instanceof BaseType s && source instanceof BaseType v) {
            assignLeaf(s, v);
            return;
        }
        String shape = shapeProblem(sink, source, "");
        if (shape != null) {
            Elaboration.current().error("cannot connect " + sink.getClass().getSimpleName() + " to "
                    + source.getClass().getSimpleName() + ": " + shape);
            return;
        }
        String direction = directionProblem(sink, source, "");
        if (direction != null) {
            Elaboration.current().error("cannot connect " + sink.getClass().getSimpleName() + " to "
                    + source.getClass().getSimpleName() + ": " + direction + " (connect(sink, source) drives the "
                    + "sink's normal fields and the source's flipped fields: check the argument order and "
                    + "master/slave)");
            return;
        }
        connectMembers(sink, source);
    }

    private static String shapeProblem(Data sink, Data source, String path) {
        if (sink instanceof BaseType && source instanceof BaseType) {
            return null;
        }
        List<Data.Member> a = sink.members();
        List<Data.Member> b = source.members();
        if (a.size() != b.size() || sink.getClass() != source.getClass()) {
            return "different shapes" + (path.isEmpty() ? "" : " at field '" + path + "'");
        }
        for (int i = 0; i < a.size(); i++) {
            String p = shapeProblem(a.get(i).data(), b.get(i).data(), fieldPath(path, a.get(i).name()));
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    /** The first field that cannot be driven along the directions, or null. */
    private static String directionProblem(Data sink, Data source, String path) {
        if (sink instanceof BaseType s) {
            String p = s.driveProblem();
            return p == null ? null : "field '" + path + "': " + p;
        }
        List<Data.Member> a = sink.members();
        List<Data.Member> b = source.members();
        for (int i = 0; i < a.size(); i++) {
            String p = fieldPath(path, a.get(i).name());
            String problem = a.get(i).flipped() ? directionProblem(b.get(i).data(), a.get(i).data(), p)
                    : directionProblem(a.get(i).data(), b.get(i).data(), p);
            if (problem != null) {
                return problem;
            }
        }
        return null;
    }

    private static String fieldPath(String path, String name) {
        return name.isEmpty() ? path : path.isEmpty() ? name : path + "." + name;
    }

    private static void connectMembers(Data sink, Data source) {
        if (sink instanceof BaseType s && source instanceof BaseType v) {
            assignLeaf(s, v);
            return;
        }
        List<Data.Member> a = sink.members();
        List<Data.Member> b = source.members();
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i).flipped()) {
                connectMembers(b.get(i).data(), a.get(i).data());
            } else {
                connectMembers(a.get(i).data(), b.get(i).data());
            }
        }
    }

    private static void assignLeaf(BaseType target, BaseType source) {
        if (target.getClass() != source.getClass()) {
            Elaboration.current().error("cannot assign " + source.typeName() + " to " + target.typeName()
                    + "; convert explicitly (asBits(), asUInt(), ...)");
            return;
        }
        target.assignValue(source);
    }

    /** All leaves concatenated, first leaf at the most significant end. */
    public static Bits asBits(Data value) {
        List<BaseType> leaves = value.leaves();
        return leaves.size() == 1 ? new Bits(leaves.get(0).node()) : cat(leaves.toArray(new BaseType[0]));
    }

    /** Assigns every leaf of {@code target} from its slice of {@code bits} (inverse of {@link #asBits}). */
    public static void assignFromBits(Data target, Bits bits) {
        List<BaseType> leaves = target.leaves();
        int total = target.bitWidth();
        if (bits.width() != total) {
            Elaboration.current().error("assignFromBits(): value is " + bits.width() + " bits, target needs " + total);
            return;
        }
        int hi = total - 1;
        for (BaseType leaf : leaves) {
            int lo = hi - leaf.width() + 1;
            leaf.assignValue(leaf.wrapSame(bits.slice(hi, lo).node()));
            hi = lo - 1;
        }
    }

    // ---- behaviour ---------------------------------------------------------------------------

    /** Runs {@code body} under {@code condition}; chain {@code elseWhen}/{@code otherwise}. */
    public static When when(Bool condition, Runnable body) {
        Elaboration e = Elaboration.current();
        Elaboration.Frame f = e.frame();
        WhenStmt w = new WhenStmt(condition.node(), Location.here());
        f.blocks.peek().add(w);
        When.run(f, w.thenBlock(), List.of(condition::node), body);
        return new When(f, w, List.of(() -> condition.not().node()));
    }

    /** A case statement over {@code selector}; add items with {@code is(...)} and {@code otherwise(...)}. */
    public static void switchOn(BaseType selector, Consumer<SwitchScope> cases) {
        Elaboration e = Elaboration.current();
        Elaboration.Frame f = e.frame();
        SwitchStmt s = new SwitchStmt(selector.node(), Location.here());
        f.blocks.peek().add(s);
        cases.accept(new SwitchScope(f, s, selector));
    }

    /** {@code condition ? whenTrue : whenFalse}; both values must have the same type and width. */
    @SuppressWarnings("unchecked")
    public static <T extends BaseType> T mux(Bool condition, T whenTrue, T whenFalse) {
        if (whenTrue.getClass() != whenFalse.getClass()) {
            Elaboration.current().error("mux() values have different types: " + whenTrue.typeName() + " and "
                    + whenFalse.typeName());
        }
        Node t = whenTrue.node();
        Node f = whenFalse.node();
        if (t.width() != f.width()) {
            Elaboration.current().error("mux() values have different widths (" + t.width() + " and " + f.width()
                    + " bits); resize one explicitly");
        }
        return (T) whenTrue.wrapSame(Ops.op(OpKind.MUX, t.width(), condition.node(), t, f));
    }

    /**
     * {@code condition ? whenTrue : whenFalse} for values of any shape (bundles too): a wire named
     * {@code name} of {@code whenTrue}'s type, each leaf muxed, so that typed words (RAM and FIFO
     * entries) are chosen by field, not sliced from a flat vector. Values of different classes or
     * shapes are an error at the caller's line (and {@code whenTrue} is returned).
     */
    @SuppressWarnings("unchecked")
    public static <T extends Data> T mux(String name, Bool condition, T whenTrue, T whenFalse) {
        List<BaseType> a = whenTrue.leaves();
        List<BaseType> b = whenFalse.leaves();
        if (whenTrue.getClass() != whenFalse.getClass() || a.size() != b.size()) {
            Elaboration.current().error("mux() values have different shapes: " + whenTrue.getClass().getSimpleName() + " ("
                    + a.size() + " leaves) and " + whenFalse.getClass().getSimpleName() + " (" + b.size() + " leaves)");
            return whenTrue;
        }
        T w = wire(name, (T) whenTrue.copyType());
        List<BaseType> out = w.leaves();
        for (int i = 0; i < out.size(); i++) {
            assignLeaf(out.get(i), mux(condition, a.get(i), b.get(i)));
        }
        return w;
    }

    /** Concatenation, first argument at the most significant end. */
    public static Bits cat(BaseType... parts) {
        if (parts.length == 0) {
            Elaboration.current().error("cat() needs at least one value");
            return B(0, 1);
        }
        if (parts.length == 1) {
            return new Bits(parts[0].node());
        }
        Node[] nodes = new Node[parts.length];
        int w = 0;
        for (int i = 0; i < parts.length; i++) {
            nodes[i] = parts[i].node();
            w += nodes[i].width();
        }
        return new Bits(Ops.op(OpKind.CONCAT, w, nodes));
    }

    public static Bits cat(List<? extends BaseType> parts) {
        return cat(parts.toArray(new BaseType[0]));
    }

    /** {@code value} repeated {@code times} times. */
    public static Bits repeat(BaseType value, int times) {
        if (times < 1) {
            Elaboration.current().error("repeat() count must be at least 1, got " + times);
            return new Bits(value.node());
        }
        if (times == 1) {
            return new Bits(value.node());
        }
        Node n = value.node();
        return new Bits(Ops.op(OpKind.REPEAT, n.width() * times, times, 0, n));
    }

    // ---- structure ---------------------------------------------------------------------------

    /** Creates a sub-component: {@code instance(() -> new Fifo(...))}. */
    public static <T extends Component> T instance(Supplier<T> factory) {
        return Elaboration.current().instance(null, factory);
    }

    /** Creates a sub-component with an explicit instance name. */
    public static <T extends Component> T instance(String name, Supplier<T> factory) {
        return Elaboration.current().instance(name, factory);
    }

    /** Describes {@code body} in {@code domain}: registers, memories and assertions created there use it. */
    public static void withDomain(ClockDomain domain, Runnable body) {
        Elaboration.Frame f = Elaboration.current().frame();
        ClockDomain saved = f.domain;
        f.domain = domain;
        try {
            body.run();
        } finally {
            f.domain = saved;
        }
    }

    /**
     * Like {@link #withDomain(ClockDomain, Runnable)}, returning what {@code body} builds, so a
     * register of another domain can be declared in one line:
     * {@code Bool toggle = withDomain(src, () -> reg("toggle", bool()).init(false));}
     * Assignments to it may then be written anywhere: a register's domain is fixed where it is declared.
     */
    public static <T> T withDomain(ClockDomain domain, Supplier<T> body) {
        Elaboration.Frame f = Elaboration.current().frame();
        ClockDomain saved = f.domain;
        f.domain = domain;
        try {
            return body.get();
        } finally {
            f.domain = saved;
        }
    }

    /** The clock domain registers created here would use. */
    public static ClockDomain currentDomain() {
        return Elaboration.current().frame().domain;
    }

    /** Records a generation parameter (listed in the module header and the JSON report) and returns it. */
    public static <T> T param(String name, T value) {
        Elaboration.current().component().ir().putParameter(name, value);
        return value;
    }

    /**
     * Documents one word of this component's register map: written to the generator's JSON report
     * ({@code register_map} of the module) so drivers and testbenches take addresses from the
     * generated design instead of copying tables. {@code access}: "ro", "wo" or "rw".
     */
    public static void register(long address, String name, String access, String description) {
        if (!access.equals("ro") && !access.equals("wo") && !access.equals("rw")) {
            throw new IllegalArgumentException("access must be ro, wo or rw, got " + access);
        }
        Elaboration.current().component().ir()
                .addRegister(new ComponentIr.RegisterEntry(address, name, access, description));
    }

    /**
     * Exports {@code map} as this component's register map: when it is the top, the design is
     * written with {@code <top>.rdl} (SystemRDL), {@code <top>_regs.py} (a Python module for
     * testbenches and drivers), {@code <top>_regs.md} and the map in the JSON report
     * ({@code register_map_spec}). Build the map from the blocks' {@code RegisterFile}s.
     */
    public static void exportRegisterMap(dev.sue.hdl.regmap.RegisterMap map) {
        try {
            Elaboration.current().component().ir().exportMap(map);
        } catch (IllegalArgumentException e) {
            require(false, e.getMessage());
        }
    }

    /**
     * Checks a generation parameter; when {@code ok} is false, reports {@code message} at the
     * caller's line and stops building this design (every error found so far is reported).
     */
    public static void require(boolean ok, String message) {
        if (!ok) {
            Elaboration.current().parameterError(message);
            throw new HdlAbort();
        }
    }

    /** Declares this component's latency in clock cycles (reported per stage by the generator). */
    public static void latency(int cycles) {
        Elaboration.current().component().ir().setLatency(cycles);
    }

    /**
     * Marks the component being built as a synchroniser: its registers may sample signals of
     * other clock domains. Only library synchronisers and asynchronous FIFOs should call this.
     */
    public static void allowClockCrossing() {
        Elaboration.current().component().ir().allowClockCrossing();
    }

    // ---- verification ------------------------------------------------------------------------

    /** Checked on every clock edge outside reset (and only where the enclosing when-conditions hold). */
    public static void assertThat(Bool condition, String message) {
        addAssertion(Assertion.Kind.ASSERT, condition, message);
    }

    public static void assume(Bool condition, String message) {
        addAssertion(Assertion.Kind.ASSUME, condition, message);
    }

    public static void cover(Bool condition, String message) {
        addAssertion(Assertion.Kind.COVER, condition, message);
    }

    /**
     * Checked on every clock edge while the domain's reset is asserted, e.g. "no valid during
     * reset" for a block's outputs. A domain without reset never checks it.
     */
    public static void assertInReset(Bool condition, String message) {
        addAssertion(Assertion.Kind.ASSERT, condition, message, true);
    }

    private static void addAssertion(Assertion.Kind kind, Bool condition, String message) {
        addAssertion(kind, condition, message, false);
    }

    private static void addAssertion(Assertion.Kind kind, Bool condition, String message, boolean duringReset) {
        Elaboration e = Elaboration.current();
        Elaboration.Frame f = e.frame();
        Node enable = pathCondition(f);
        e.component().ir().addAssertion(new Assertion(kind, enable, condition.node(),
                message.replace("\"", "'").replace("\\", "/").replaceAll("\\p{Cntrl}", " "), f.domain,
                Location.here(), duringReset));
    }

    /** {@code value} ANDed with the enclosing when-conditions. */
    static Bool guarded(Bool value) {
        Node path = pathCondition(Elaboration.current().frame());
        return path == null ? value : new Bool(Ops.op(OpKind.AND, 1, value.node(), path));
    }

    private static Node pathCondition(Elaboration.Frame f) {
        Node acc = null;
        for (Supplier<Node> g : f.guards) {
            Node n = g.get();
            acc = acc == null ? n : Ops.op(OpKind.AND, 1, acc, n);
        }
        return acc;
    }

    // ---- helpers -----------------------------------------------------------------------------

    /** Bits needed to address {@code count} items: ceil(log2(count)), at least 1. */
    public static int log2Up(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("log2Up of " + count);
        }
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(count - 1));
    }

    /** Bits needed to hold the value {@code max}: at least 1. */
    public static int bitsFor(long max) {
        return Math.max(1, 64 - Long.numberOfLeadingZeros(max));
    }

    public static boolean isPowerOfTwo(int n) {
        return n > 0 && (n & (n - 1)) == 0;
    }
}
