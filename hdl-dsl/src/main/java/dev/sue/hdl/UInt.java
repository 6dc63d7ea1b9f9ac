// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.OpKind;

/** An unsigned number. Arithmetic keeps the width unless the method says {@code Expand}. */
public final class UInt extends BitVector<UInt> {
    public UInt(int width) {
        super(width);
    }

    UInt(Node node) {
        super(node);
    }

    @Override
    UInt wrap(Node n) {
        return new UInt(n);
    }

    @Override
    Node literal(long value) {
        return Ops.unsignedLiteral(value, width(), "UInt");
    }

    @Override
    public String typeName() {
        return "UInt(" + width() + ")";
    }

    @Override
    public UInt copyType() {
        return new UInt(width());
    }

    @Override
    public UInt resize(int newWidth) {
        return extendOrTruncate(newWidth, OpKind.ZEXT);
    }

    /** Modular addition, same width. */
    public UInt add(UInt o) {
        return new UInt(Ops.sameWidth(OpKind.ADD, "add()", this, o));
    }

    public UInt add(long literal) {
        return new UInt(Ops.op(OpKind.ADD, width(), node(), literal(literal)));
    }

    /** Modular subtraction, same width. */
    public UInt sub(UInt o) {
        return new UInt(Ops.sameWidth(OpKind.SUB, "sub()", this, o));
    }

    public UInt sub(long literal) {
        return new UInt(Ops.op(OpKind.SUB, width(), node(), literal(literal)));
    }

    /** Addition with carry: the result is one bit wider. */
    public UInt addExpand(UInt o) {
        return resize(width() + 1).add(o.resize(o.width() + 1));
    }

    /** Full-width product: width is the sum of both widths. */
    public UInt mul(UInt o) {
        int w = width() + o.width();
        return new UInt(Ops.op(OpKind.MUL_U, w, resize(w).node(), o.resize(w).node()));
    }

    public Bool lt(UInt o) {
        return new Bool(Ops.compare(OpKind.LT_U, "lt()", this, o));
    }

    public Bool le(UInt o) {
        return new Bool(Ops.compare(OpKind.LE_U, "le()", this, o));
    }

    public Bool gt(UInt o) {
        return new Bool(Ops.compare(OpKind.GT_U, "gt()", this, o));
    }

    public Bool ge(UInt o) {
        return new Bool(Ops.compare(OpKind.GE_U, "ge()", this, o));
    }

    // Compares with a literal that decide nothing (x < 0, x >= 0, x <= max, x > max) fold to a
    // constant: the emitted compare would be a Verilator -Wall warning (UNSIGNED, CMPCONST).

    public Bool lt(long literal) {
        return literal == 0 ? Hdl.FALSE : lt(new UInt(literal(literal)));
    }

    public Bool le(long literal) {
        return isMax(literal) ? Hdl.TRUE : le(new UInt(literal(literal)));
    }

    public Bool gt(long literal) {
        return isMax(literal) ? Hdl.FALSE : gt(new UInt(literal(literal)));
    }

    public Bool ge(long literal) {
        return literal == 0 ? Hdl.TRUE : ge(new UInt(literal(literal)));
    }

    private boolean isMax(long literal) {
        return width() < 63 && literal == (1L << width()) - 1;
    }

    /** Same bits read as two's complement. */
    public SInt asSInt() {
        return new SInt(node());
    }

    /** Value-preserving conversion: one bit wider, as a signed number. */
    public SInt toSInt() {
        return resize(width() + 1).asSInt();
    }
}
