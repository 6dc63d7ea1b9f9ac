// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Block;
import dev.sue.hdl.ir.Const;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.OpKind;
import dev.sue.hdl.ir.SwitchStmt;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/** The case items of a {@code switchOn}; {@link #otherwise} must come last. */
public final class SwitchScope {
    private final Elaboration.Frame frame;
    private final SwitchStmt statement;
    private final BaseType selector;
    private final Set<BigInteger> seen = new HashSet<>();
    private final List<Const> allValues = new ArrayList<>();
    private boolean hasDefault;

    SwitchScope(Elaboration.Frame frame, SwitchStmt statement, BaseType selector) {
        this.frame = frame;
        this.statement = statement;
        this.selector = selector;
    }

    /** Case for one value of a Bits/UInt selector. */
    public SwitchScope is(long value, Runnable body) {
        return isAny(new long[] {value}, body);
    }

    /** Case matching any of {@code values}. */
    public SwitchScope isAny(long[] values, Runnable body) {
        List<Const> consts = new ArrayList<>();
        for (long v : values) {
            BigInteger bits = selector instanceof SInt
                    ? Ops.checkedSigned(BigInteger.valueOf(v), selector.width(), "case")
                    : Ops.checkedUnsigned(BigInteger.valueOf(v), selector.width(), "case");
            consts.add(new Const(bits, selector.width(), null));
        }
        return addCase(consts, body);
    }

    /** Case for an enum constant of an {@link HwEnum} selector. */
    public <E extends Enum<E>> SwitchScope is(E constant, Runnable body) {
        if (!(selector instanceof HwEnum<?> hw) || hw.enumType().enumClass() != constant.getDeclaringClass()) {
            Elaboration.current().error("case " + constant + " does not match the selector type " + selector.typeName());
            return this;
        }
        @SuppressWarnings("unchecked")
        HwEnum<E> typed = (HwEnum<E>) hw;
        return addCase(List.of(typed.literal(constant)), body);
    }

    private SwitchScope addCase(List<Const> values, Runnable body) {
        Elaboration e = Elaboration.current();
        Location loc = Location.here();
        if (hasDefault) {
            e.error(loc, "case after otherwise(): put otherwise() last");
        }
        for (Const c : values) {
            if (!seen.add(c.value())) {
                e.error(loc, "duplicate case value " + c.value() + " in switchOn");
            }
        }
        allValues.addAll(values);
        Block block = new Block();
        statement.addCase(new SwitchStmt.Case(values, block, loc));
        Node sel = selector.node();
        List<Supplier<Node>> guard = List.of(() -> anyOf(sel, values));
        When.run(frame, block, guard, body);
        return this;
    }

    /** Runs {@code body} for every value no case matched. */
    public void otherwise(Runnable body) {
        if (hasDefault) {
            Elaboration.current().error("switchOn has two otherwise() blocks");
            return;
        }
        hasDefault = true;
        Node sel = selector.node();
        List<Const> covered = List.copyOf(allValues);
        List<Supplier<Node>> guard = List.of(() -> covered.isEmpty() ? Hdl.TRUE.node()
                : Ops.op(OpKind.NOT, 1, anyOf(sel, covered)));
        When.run(frame, statement.createDefault(), guard, body);
    }

    private static Node anyOf(Node sel, List<Const> values) {
        Node acc = null;
        for (Const c : values) {
            Node eq = Ops.op(OpKind.EQ, 1, sel, c);
            acc = acc == null ? eq : Ops.op(OpKind.OR, 1, acc, eq);
        }
        return acc;
    }
}
