// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Const;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.OpKind;

/**
 * A signal holding one constant of a Java enum, encoded by its {@link EnumType}.
 *
 * @param <E> the Java enum
 */
public final class HwEnum<E extends Enum<E>> extends BaseType {
    private final EnumType<E> enumType;

    HwEnum(EnumType<E> enumType) {
        super(enumType.width());
        this.enumType = enumType;
    }

    HwEnum(EnumType<E> enumType, Node node) {
        super(node);
        this.enumType = enumType;
    }

    @Override
    HwEnum<E> wrapSame(Node n) {
        return new HwEnum<>(enumType, n);
    }

    @Override
    public String typeName() {
        return enumType.enumClass().getSimpleName();
    }

    @Override
    public HwEnum<E> copyType() {
        return new HwEnum<>(enumType);
    }

    public EnumType<E> enumType() {
        return enumType;
    }

    /** The literal for {@code constant}, emitted by its localparam name. */
    Const literal(E constant) {
        return new Const(enumType.code(constant), enumType.width(), enumType.symbol(constant));
    }

    public Bool is(E constant) {
        return new Bool(Ops.op(OpKind.EQ, 1, node(), literal(constant)));
    }

    public Bool isNot(E constant) {
        return new Bool(Ops.op(OpKind.NE, 1, node(), literal(constant)));
    }

    public Bool eq(HwEnum<E> other) {
        return new Bool(Ops.compare(OpKind.EQ, "eq()", this, other));
    }

    public void set(E constant) {
        assignValue(new HwEnum<>(enumType, literal(constant)));
    }

    public void set(HwEnum<E> value) {
        assignValue(value);
    }

    public HwEnum<E> init(E constant) {
        initValue(enumType.code(constant), enumType.symbol(constant));
        return this;
    }

    public Bits asBits() {
        return new Bits(node());
    }
}
