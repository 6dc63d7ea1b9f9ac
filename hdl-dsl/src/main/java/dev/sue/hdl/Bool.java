// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.OpKind;
import java.math.BigInteger;

/** A single bit with logic operations. */
public final class Bool extends BaseType {
    public Bool() {
        super(1);
    }

    Bool(Node node) {
        super(node);
    }

    @Override
    Bool wrapSame(Node n) {
        return new Bool(n);
    }

    @Override
    public String typeName() {
        return "Bool";
    }

    @Override
    public Bool copyType() {
        return new Bool();
    }

    public Bool and(Bool o) {
        return new Bool(Ops.sameWidth(OpKind.AND, "and()", this, o));
    }

    public Bool or(Bool o) {
        return new Bool(Ops.sameWidth(OpKind.OR, "or()", this, o));
    }

    public Bool xor(Bool o) {
        return new Bool(Ops.sameWidth(OpKind.XOR, "xor()", this, o));
    }

    public Bool not() {
        return new Bool(Ops.op(OpKind.NOT, 1, node()));
    }

    /** {@code this & !o}: common enough in handshakes to deserve a name. */
    public Bool andNot(Bool o) {
        return and(o.not());
    }

    public Bool eq(Bool o) {
        return new Bool(Ops.compare(OpKind.EQ, "eq()", this, o));
    }

    public Bool ne(Bool o) {
        return new Bool(Ops.compare(OpKind.NE, "ne()", this, o));
    }

    public Bits asBits() {
        return new Bits(node());
    }

    public UInt asUInt() {
        return new UInt(node());
    }

    public void set(Bool value) {
        assignValue(value);
    }

    public void set(boolean value) {
        assignValue(value ? Hdl.TRUE : Hdl.FALSE);
    }

    /** Reset value of a register. */
    public Bool init(boolean value) {
        initValue(value ? BigInteger.ONE : BigInteger.ZERO);
        return this;
    }
}
