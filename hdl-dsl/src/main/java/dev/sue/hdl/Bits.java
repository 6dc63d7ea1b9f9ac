// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.OpKind;

/** An untyped bit vector: no arithmetic, explicit conversion to {@link UInt}/{@link SInt}. */
public final class Bits extends BitVector<Bits> {
    public Bits(int width) {
        super(width);
    }

    Bits(Node node) {
        super(node);
    }

    @Override
    Bits wrap(Node n) {
        return new Bits(n);
    }

    @Override
    Node literal(long value) {
        return Ops.unsignedLiteral(value, width(), "Bits");
    }

    @Override
    public String typeName() {
        return "Bits(" + width() + ")";
    }

    @Override
    public Bits copyType() {
        return new Bits(width());
    }

    @Override
    public Bits resize(int newWidth) {
        return extendOrTruncate(newWidth, OpKind.ZEXT);
    }

    public UInt asUInt() {
        return new UInt(node());
    }

    public SInt asSInt() {
        return new SInt(node());
    }

    /** The single bit of a 1-bit vector. */
    public Bool asBool() {
        if (width() != 1) {
            Elaboration.current().error("asBool() needs a 1-bit value, this one has " + width()
                    + " bits; select a bit with bit(i)");
        }
        return new Bool(node());
    }

    /** Byte {@code index} (bits 8*index+7 .. 8*index). */
    public Bits byteAt(int index) {
        return slice(8 * index + 7, 8 * index);
    }
}
