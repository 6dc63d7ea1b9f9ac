// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.OpKind;

/** A two's-complement number; comparisons are signed, resize sign-extends, shr is arithmetic. */
public final class SInt extends BitVector<SInt> {
    public SInt(int width) {
        super(width);
    }

    SInt(Node node) {
        super(node);
    }

    @Override
    SInt wrap(Node n) {
        return new SInt(n);
    }

    @Override
    Node literal(long value) {
        return Ops.signedLiteral(value, width(), "SInt");
    }

    @Override
    public String typeName() {
        return "SInt(" + width() + ")";
    }

    @Override
    public SInt copyType() {
        return new SInt(width());
    }

    @Override
    public SInt resize(int newWidth) {
        return extendOrTruncate(newWidth, OpKind.SEXT);
    }

    @Override
    OpKind shrKind(boolean constant) {
        return constant ? OpKind.SRA_C : OpKind.SRA;
    }

    public SInt add(SInt o) {
        return new SInt(Ops.sameWidth(OpKind.ADD, "add()", this, o));
    }

    public SInt add(long literal) {
        return new SInt(Ops.op(OpKind.ADD, width(), node(), literal(literal)));
    }

    public SInt sub(SInt o) {
        return new SInt(Ops.sameWidth(OpKind.SUB, "sub()", this, o));
    }

    public SInt sub(long literal) {
        return new SInt(Ops.op(OpKind.SUB, width(), node(), literal(literal)));
    }

    /** Addition with carry: one bit wider. */
    public SInt addExpand(SInt o) {
        return resize(width() + 1).add(o.resize(o.width() + 1));
    }

    /** Two's-complement negation, same width (the most negative value maps to itself). */
    public SInt neg() {
        return new SInt(Ops.op(OpKind.NEG, width(), node()));
    }

    /** Full-width signed product. */
    public SInt mul(SInt o) {
        int w = width() + o.width();
        return new SInt(Ops.op(OpKind.MUL_S, w, resize(w).node(), o.resize(w).node()));
    }

    public Bool lt(SInt o) {
        return new Bool(Ops.compare(OpKind.LT_S, "lt()", this, o));
    }

    public Bool le(SInt o) {
        return new Bool(Ops.compare(OpKind.LE_S, "le()", this, o));
    }

    public Bool gt(SInt o) {
        return new Bool(Ops.compare(OpKind.GT_S, "gt()", this, o));
    }

    public Bool ge(SInt o) {
        return new Bool(Ops.compare(OpKind.GE_S, "ge()", this, o));
    }

    public Bool lt(long literal) {
        return lt(new SInt(literal(literal)));
    }

    public Bool ge(long literal) {
        return ge(new SInt(literal(literal)));
    }

    public Bool le(long literal) {
        return le(new SInt(literal(literal)));
    }

    public Bool gt(long literal) {
        return gt(new SInt(literal(literal)));
    }

    /** Same bits read as unsigned. */
    public UInt asUInt() {
        return new UInt(node());
    }
}
