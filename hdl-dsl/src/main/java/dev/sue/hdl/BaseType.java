// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Assign;
import dev.sue.hdl.ir.Const;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Op;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;
import java.math.BigInteger;
import java.util.List;
import java.util.function.Consumer;

/** A leaf vector: {@link Bool}, {@link Bits}, {@link UInt}, {@link SInt} or {@link HwEnum}. */
public abstract class BaseType extends Data {
    private final int width;
    private Node node;
    /** True for the value that declared its signal (not for conversions or aliases of it). */
    private boolean declaredBySelf;

    protected BaseType(int width) {
        if (width < 1) {
            Elaboration e = Elaboration.currentOrNull();
            if (e != null) {
                e.error("width must be at least 1 bit, got " + width);
                throw new HdlAbort();
            }
            throw new IllegalArgumentException("width must be at least 1 bit, got " + width);
        }
        this.width = width;
    }

    protected BaseType(Node node) {
        this.width = node.width();
        this.node = node;
    }

    public final int width() {
        return width;
    }

    @Override
    public int bitWidth() {
        return width;
    }

    /** A new value of this same Java type carrying {@code n} (width taken from {@code n}). */
    abstract BaseType wrapSame(Node n);

    /** Human-readable type for messages, e.g. {@code UInt(8)}. */
    public abstract String typeName();

    /** The IR node; records an error (and yields zero) if this value is only a type. */
    public final Node node() {
        if (node == null) {
            Elaboration.current().error(typeName() + " is a hardware type, not a signal: declare it with "
                    + "in(), out(), wire() or reg() before using it");
            return new Const(BigInteger.ZERO, width, null);
        }
        return node;
    }

    /** True once this value is hardware (declared or the result of an operation). */
    public final boolean isHardware() {
        return node != null;
    }

    /** The declared signal behind this value, or null for expressions and literals. */
    public final Signal signal() {
        return node instanceof Signal s ? s : null;
    }

    @Override
    public final void forEachLeaf(Consumer<BaseType> action) {
        action.accept(this);
    }

    @Override
    public final List<Member> members() {
        return List.of();
    }

    @Override
    void onNamed(String newName) {
        if (node instanceof Op op) {
            // Naming an expression again renames it; it is still declared once.
            boolean first = op.name() == null;
            op.setName(newName);
            if (first) {
                Elaboration.current().component().ir().addNamedOp(op, Location.here());
            }
        } else if (node instanceof Const) {
            Elaboration.current().error("a literal cannot be named; declare a wire and assign the literal to it");
        } else if (node instanceof Signal s && declaredBySelf && parent() == null) {
            // Named now rather than in the naming pass, so errors found while building can say 'name'.
            // Members of bundles and vectors keep their path names (s_0_valid), and a value that
            // merely aliases a declared signal (e.g. a one-input reduction) never renames it.
            s.setName(newName, true);
        }
    }

    @Override
    void bind(SignalKind kind, boolean flip, Location location) {
        Elaboration e = Elaboration.current();
        if (node != null) {
            e.error(location, "this " + typeName() + " is already hardware; pass a fresh type such as "
                    + typeName().toLowerCase() + " to in()/out()/wire()/reg()");
            return;
        }
        SignalKind k = flip ? (kind == SignalKind.IN ? SignalKind.OUT : kind == SignalKind.OUT ? SignalKind.IN : kind)
                : kind;
        Elaboration.Frame frame = e.frame();
        Signal s = new Signal(k, width, e.newNodeId(), frame.component, location);
        if (k == SignalKind.REG) {
            s.setDomain(frame.domain);
        }
        frame.component.ir().addSignal(s);
        node = s;
        declaredBySelf = true;
    }

    /** Assigns {@code value}: combinationally for wires and outputs, on the clock edge for registers. */
    final void assignValue(BaseType value) {
        Elaboration e = Elaboration.current();
        Location loc = Location.here();
        Node v = value.node();
        Signal target = signal();
        if (node == null) {
            e.error(loc, typeName() + " is a hardware type, not a signal: declare it with wire()/reg()/out() before assigning it");
            return;
        }
        if (target == null) {
            e.error(loc, "cannot assign to an expression or literal; assign to a wire(), reg() or out() instead");
            return;
        }
        String problem = assignmentProblem(target, e.component());
        if (problem != null) {
            e.error(loc, problem);
            return;
        }
        if (v.width() != target.width()) {
            e.error(loc, "width mismatch: " + target.describe() + " is " + target.width() + " bit(s) but the value is "
                    + v.width() + " bit(s); use resize(), slice() or an expanding operation explicitly");
        }
        e.frame().blocks.peek().add(new Assign(target, v, loc));
    }

    /** Why this signal cannot be driven in the component being built, or null (also for non-signals). */
    final String driveProblem() {
        Signal target = node == null ? null : signal();
        return target == null ? null : assignmentProblem(target, Elaboration.current().component());
    }

    private static String assignmentProblem(Signal target, Component here) {
        Component owner = target.owner();
        switch (target.kind()) {
            case MEM_DATA:
                return target.describe() + " is driven by its memory and cannot be assigned";
            case IN:
                if (owner == here) {
                    return inputPort(target) + " cannot be driven from inside its own component";
                }
                if (owner.ir().parent() != here) {
                    return inputPort(target) + " of " + owner
                            + " can only be driven by that component's parent";
                }
                return null;
            default:
                if (owner != here) {
                    return target.describe() + " belongs to " + owner + " and cannot be driven from " + here
                            + (owner.ir().parent() == here ? "; only a sub-component's inputs can be driven" : "");
                }
                return null;
        }
    }

    private static String inputPort(Signal s) {
        return s.hasName() ? "input port " + s.describe() : "the input port declared at " + s.location();
    }

    /** Sets the reset value of a register. */
    final void initValue(BigInteger bits) {
        initValue(bits, null);
    }

    /** Sets the reset value; {@code symbol} names it in the output (an enum constant's localparam). */
    final void initValue(BigInteger bits, String symbol) {
        Elaboration e = Elaboration.current();
        Signal s = signal();
        if (s == null || s.kind() != SignalKind.REG) {
            e.error("init() applies to registers only; declare this value with reg(...)");
            return;
        }
        if (s.domain().reset() == ClockDomain.Reset.NONE) {
            e.error("init() has no effect: the register's " + s.domain() + " has no reset; "
                    + "use a domain with a reset or drop init()");
            return;
        }
        s.setInit(new Const(bits, width, symbol));
    }
}
