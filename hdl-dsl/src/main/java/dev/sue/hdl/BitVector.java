// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.OpKind;
import java.math.BigInteger;

/**
 * Operations shared by {@link Bits}, {@link UInt} and {@link SInt}. Every width change is
 * explicit: operands of binary operations must have equal widths, and {@link #resize},
 * {@link #slice} or the {@code ...Expand} variants change widths on purpose.
 *
 * @param <T> the concrete vector type, so operations return the same type
 */
public abstract class BitVector<T extends BitVector<T>> extends BaseType {
    protected BitVector(int width) {
        super(width);
    }

    protected BitVector(Node node) {
        super(node);
    }

    /** A value of the same Java type carrying {@code n}. */
    abstract T wrap(Node n);

    @Override
    final BaseType wrapSame(Node n) {
        return wrap(n);
    }

    /** Literal of this type and width; the range check follows the type's signedness. */
    abstract Node literal(long value);

    @SuppressWarnings("unchecked")
    private T self() {
        return (T) this;
    }

    public T and(T o) {
        return wrap(Ops.sameWidth(OpKind.AND, "and()", this, o));
    }

    public T or(T o) {
        return wrap(Ops.sameWidth(OpKind.OR, "or()", this, o));
    }

    public T xor(T o) {
        return wrap(Ops.sameWidth(OpKind.XOR, "xor()", this, o));
    }

    public T not() {
        return wrap(Ops.op(OpKind.NOT, width(), node()));
    }

    public Bool eq(T o) {
        return new Bool(Ops.compare(OpKind.EQ, "eq()", this, o));
    }

    public Bool ne(T o) {
        return new Bool(Ops.compare(OpKind.NE, "ne()", this, o));
    }

    public Bool eq(long literal) {
        return new Bool(Ops.op(OpKind.EQ, 1, node(), literal(literal)));
    }

    public Bool ne(long literal) {
        return new Bool(Ops.op(OpKind.NE, 1, node(), literal(literal)));
    }

    /** AND of all bits. */
    public Bool andR() {
        return new Bool(Ops.op(OpKind.RED_AND, 1, node()));
    }

    /** OR of all bits. */
    public Bool orR() {
        return new Bool(Ops.op(OpKind.RED_OR, 1, node()));
    }

    /** XOR of all bits (parity). */
    public Bool xorR() {
        return new Bool(Ops.op(OpKind.RED_XOR, 1, node()));
    }

    /** Bit {@code index} (0 = LSB). */
    public Bool bit(int index) {
        Ops.checkSlice(index, index, width());
        return new Bool(Ops.op(OpKind.SLICE, 1, index, index, node()));
    }

    /** Bit selected at run time; {@code index} must be wide enough to address every bit and no wider. */
    public Bool bit(UInt index) {
        int need = Hdl.log2Up(width());
        if (index.width() != need) {
            Elaboration.current().error("bit index of a " + width() + "-bit value must be " + need
                    + " bit(s) wide, got " + index.width() + "; resize it explicitly");
        }
        return new Bool(Ops.op(OpKind.BIT_INDEX, 1, node(), index.node()));
    }

    public Bool msb() {
        return bit(width() - 1);
    }

    public Bool lsb() {
        return bit(0);
    }

    /** Bits {@code hi} down to {@code lo}, inclusive, as the same type. */
    public T slice(int hi, int lo) {
        Ops.checkSlice(hi, lo, width());
        if (lo == 0 && hi == width() - 1) {
            return self();
        }
        return wrap(Ops.op(OpKind.SLICE, Math.max(1, hi - lo + 1), hi, lo, node()));
    }

    /** The {@code count} least significant bits. */
    public T low(int count) {
        return slice(count - 1, 0);
    }

    /** The {@code count} most significant bits. */
    public T high(int count) {
        return slice(width() - 1, width() - count);
    }

    /** Shift left by a constant, keeping the width (bits shifted out are lost). */
    public T shl(int amount) {
        checkShift(amount);
        return amount == 0 ? self() : wrap(Ops.op(OpKind.SHL_C, width(), amount, 0, node()));
    }

    /** Shift right by a constant, keeping the width; {@link SInt} shifts arithmetically. */
    public T shr(int amount) {
        checkShift(amount);
        return amount == 0 ? self() : wrap(Ops.op(shrKind(true), width(), amount, 0, node()));
    }

    public T shl(UInt amount) {
        return wrap(Ops.op(OpKind.SHL, width(), node(), amount.node()));
    }

    public T shr(UInt amount) {
        return wrap(Ops.op(shrKind(false), width(), node(), amount.node()));
    }

    OpKind shrKind(boolean constant) {
        return constant ? OpKind.SHR_C : OpKind.SHR;
    }

    private void checkShift(int amount) {
        if (amount < 0 || amount >= width()) {
            Elaboration.current().error("constant shift by " + amount + " on a " + width()
                    + "-bit value; use 0.." + (width() - 1));
        }
    }

    /** Extends (zero or sign, by type) or truncates to {@code newWidth}. Truncation keeps the LSBs. */
    public abstract T resize(int newWidth);

    T extendOrTruncate(int newWidth, OpKind extension) {
        if (newWidth < 1) {
            Elaboration.current().error("resize to " + newWidth + " bits; widths start at 1");
            return self();
        }
        if (newWidth == width()) {
            return self();
        }
        if (newWidth < width()) {
            return slice(newWidth - 1, 0);
        }
        return wrap(Ops.op(extension, newWidth, node()));
    }

    /** The same bits as an untyped vector. */
    public Bits asBits() {
        return new Bits(node());
    }

    /** Assigns a value of the same type; widths must match. */
    public void set(T value) {
        assignValue(value);
    }

    /** Assigns a literal of this width. */
    public void set(long literal) {
        assignValue(wrap(literal(literal)));
    }

    /** Reset value of a register. */
    public T init(long value) {
        Node lit = literal(value);
        initValue(((dev.sue.hdl.ir.Const) lit).value());
        return self();
    }

    /** Reset value of a register, for values wider than 64 bits. */
    public T init(BigInteger value) {
        initValue(Ops.checkedUnsigned(value, width(), typeName()));
        return self();
    }
}
