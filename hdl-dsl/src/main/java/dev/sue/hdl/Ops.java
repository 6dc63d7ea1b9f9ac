// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Const;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Op;
import dev.sue.hdl.ir.OpKind;
import java.math.BigInteger;

/** Builds IR operations for the typed API, checking operand widths at the user's line. */
final class Ops {
    private Ops() {
    }

    static Node op(OpKind kind, int width, int p0, int p1, Node... args) {
        Elaboration e = Elaboration.current();
        return new Op(kind, width, e.newNodeId(), e.component(), p0, p1, args);
    }

    static Node op(OpKind kind, int width, Node... args) {
        return op(kind, width, 0, 0, args);
    }

    /** Same-width binary operation; a mismatch is reported at the caller's line. */
    static Node sameWidth(OpKind kind, String what, BaseType a, BaseType b) {
        Node x = a.node();
        Node y = b.node();
        if (x.width() != y.width()) {
            Elaboration.current().error("operands of " + what + " have different widths (" + x.width() + " and "
                    + y.width() + " bits); resize one explicitly");
        }
        return op(kind, x.width(), x, y);
    }

    static Node compare(OpKind kind, String what, BaseType a, BaseType b) {
        Node x = a.node();
        Node y = b.node();
        if (x.width() != y.width()) {
            Elaboration.current().error("operands of " + what + " have different widths (" + x.width() + " and "
                    + y.width() + " bits); resize one explicitly");
        }
        return op(kind, 1, x, y);
    }

    static Node constant(BigInteger bits, int width) {
        return new Const(bits, width, null);
    }

    static Node unsignedLiteral(long value, int width, String what) {
        return constant(checkedUnsigned(BigInteger.valueOf(value), width, what), width);
    }

    static Node signedLiteral(long value, int width, String what) {
        return constant(checkedSigned(BigInteger.valueOf(value), width, what), width);
    }

    static BigInteger checkedUnsigned(BigInteger value, int width, String what) {
        if (value.signum() < 0 || value.bitLength() > width) {
            reportOutOfRange(what + " literal " + value + " does not fit in " + width
                    + " unsigned bit(s) (range 0.." + BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE) + ")");
            return BigInteger.ZERO;
        }
        return value;
    }

    static BigInteger checkedSigned(BigInteger value, int width, String what) {
        BigInteger min = BigInteger.ONE.shiftLeft(width - 1).negate();
        BigInteger max = BigInteger.ONE.shiftLeft(width - 1).subtract(BigInteger.ONE);
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            reportOutOfRange(what + " literal " + value + " does not fit in " + width + " signed bit(s) (range "
                    + min + ".." + max + ")");
            return BigInteger.ZERO;
        }
        return value.signum() < 0 ? value.add(BigInteger.ONE.shiftLeft(width)) : value;
    }

    private static void reportOutOfRange(String message) {
        Elaboration e = Elaboration.currentOrNull();
        if (e == null) {
            throw new IllegalArgumentException(message);
        }
        e.error(message);
    }

    static void checkSlice(int hi, int lo, int width) {
        if (lo < 0 || hi < lo || hi >= width) {
            Elaboration.current().error("slice [" + hi + ":" + lo + "] is outside a " + width + "-bit value (valid bits "
                    + (width - 1) + "..0, hi >= lo)");
        }
    }
}
