// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.emit;

import dev.sue.hdl.ir.Const;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Op;
import dev.sue.hdl.ir.Signal;
import java.math.BigInteger;

/**
 * Prints IR expressions as SystemVerilog. Every operator's width is fixed by the IR, and
 * every operand of a width-sensitive operator already has the right width, so the text
 * never depends on SystemVerilog's context-determined widths. Nested operations are
 * parenthesised; signedness is spelled out with {@code $signed}/{@code $unsigned}.
 */
final class ExprPrinter {
    private final ModuleNames names;

    ExprPrinter(ModuleNames names) {
        this.names = names;
    }

    String print(Node n) {
        return print(n, true);
    }

    /** {@code n} parenthesised where needed to be an operand of another operator. */
    String printOperand(Node n) {
        return print(n, false);
    }

    static String literal(BigInteger value, int width) {
        if (width == 1) {
            return value.signum() == 0 ? "1'b0" : "1'b1";
        }
        if (width <= 32) {
            return width + "'d" + value;
        }
        return width + "'h" + value.toString(16);
    }

    private String print(Node n, boolean top) {
        String named = names.of(n);
        if (named != null) {
            return named;
        }
        if (n instanceof Const c) {
            return c.symbol() != null ? c.symbol() : literal(c.value(), c.width());
        }
        if (n instanceof Signal s) {
            throw new IllegalStateException("signal " + s.describe() + " has no name in " + names.module());
        }
        Op op = (Op) n;
        String text = inline(op);
        return top || !needsParens(op) ? text : "(" + text + ")";
    }

    private static boolean needsParens(Op op) {
        return switch (op.kind()) {
            case SLICE, BIT_INDEX, CONCAT, REPEAT, ZEXT, SEXT -> false;
            default -> true;
        };
    }

    private String a(Op op, int i) {
        return print(op.arg(i), false);
    }

    private String inline(Op op) {
        return switch (op.kind()) {
            case NOT -> "~" + a(op, 0);
            case AND -> a(op, 0) + " & " + a(op, 1);
            case OR -> a(op, 0) + " | " + a(op, 1);
            case XOR -> a(op, 0) + " ^ " + a(op, 1);
            case ADD -> a(op, 0) + " + " + a(op, 1);
            case SUB -> a(op, 0) + " - " + a(op, 1);
            case NEG -> "-" + a(op, 0);
            case MUL_U -> a(op, 0) + " * " + a(op, 1);
            case MUL_S -> "$unsigned($signed(" + a(op, 0) + ") * $signed(" + a(op, 1) + "))";
            case EQ -> a(op, 0) + " == " + a(op, 1);
            case NE -> a(op, 0) + " != " + a(op, 1);
            case LT_U -> a(op, 0) + " < " + a(op, 1);
            case LE_U -> a(op, 0) + " <= " + a(op, 1);
            case GT_U -> a(op, 0) + " > " + a(op, 1);
            case GE_U -> a(op, 0) + " >= " + a(op, 1);
            case LT_S -> signed(op, "<");
            case LE_S -> signed(op, "<=");
            case GT_S -> signed(op, ">");
            case GE_S -> signed(op, ">=");
            case RED_AND -> "&" + a(op, 0);
            case RED_OR -> "|" + a(op, 0);
            case RED_XOR -> "^" + a(op, 0);
            case SHL_C -> a(op, 0) + " << " + op.param0();
            case SHR_C -> a(op, 0) + " >> " + op.param0();
            case SRA_C -> "$unsigned($signed(" + a(op, 0) + ") >>> " + op.param0() + ")";
            case SHL -> a(op, 0) + " << " + a(op, 1);
            case SHR -> a(op, 0) + " >> " + a(op, 1);
            case SRA -> "$unsigned($signed(" + a(op, 0) + ") >>> " + a(op, 1) + ")";
            case SLICE -> slice(op);
            case BIT_INDEX -> bitIndex(op);
            case CONCAT -> concat(op);
            case REPEAT -> "{" + op.param0() + "{" + print(op.arg(0)) + "}}";
            case ZEXT -> "{" + literal(BigInteger.ZERO, op.width() - op.arg(0).width()) + ", " + print(op.arg(0)) + "}";
            case SEXT -> sext(op);
            case MUX -> a(op, 0) + " ? " + a(op, 1) + " : " + a(op, 2);
            case VEC_INDEX -> throw new IllegalStateException("VEC_INDEX is always emitted through a temporary");
        };
    }

    private String signed(Op op, String cmp) {
        return "$signed(" + print(op.arg(0)) + ") " + cmp + " $signed(" + print(op.arg(1)) + ")";
    }

    private String slice(Op op) {
        Node arg = op.arg(0);
        int hi = op.param0();
        int lo = op.param1();
        if (arg instanceof Const c) {
            BigInteger v = c.value().shiftRight(lo).and(BigInteger.ONE.shiftLeft(hi - lo + 1).subtract(BigInteger.ONE));
            return literal(v, hi - lo + 1);
        }
        String base = print(arg, false);
        if (arg.width() == 1) {
            return base;
        }
        return hi == lo ? base + "[" + hi + "]" : base + "[" + hi + ":" + lo + "]";
    }

    private String bitIndex(Op op) {
        Node arg = op.arg(0);
        if (arg.width() == 1) {
            // A scalar has no bit select in SystemVerilog; its (1-bit) index is in range only
            // when 0, and out-of-range selects read 0 (what Verilator gives for wider values).
            return "(" + print(arg, false) + " & ~" + print(op.arg(1), false) + ")";
        }
        if (arg instanceof Const c) {
            // A literal has no bit select either: mask it with a one-hot of the index.
            return "(|(" + literal(c.value(), c.width()) + " & (" + literal(BigInteger.ONE, c.width()) + " << "
                    + print(op.arg(1), false) + ")))";
        }
        String select = print(arg, false) + "[" + print(op.arg(1)) + "]";
        if (Integer.bitCount(arg.width()) == 1) {
            return select;
        }
        // Not a power of two: some index values are out of range. They read 0, as documented,
        // instead of X in four-state simulators and 0 in Verilator.
        Node index = op.arg(1);
        return "((" + print(index, false) + " <= " + literal(BigInteger.valueOf(arg.width() - 1), index.width())
                + ") ? " + select + " : 1'b0)";
    }

    private String sext(Op op) {
        Node arg = op.arg(0);
        int extra = op.width() - arg.width();
        if (arg instanceof Const c) {
            BigInteger v = c.value();
            if (v.testBit(arg.width() - 1)) {
                v = v.add(BigInteger.ONE.shiftLeft(op.width()).subtract(BigInteger.ONE.shiftLeft(arg.width())));
            }
            return literal(v, op.width());
        }
        String base = print(arg, false);
        if (arg.width() == 1) {
            return "{" + op.width() + "{" + base + "}}";
        }
        String sign = base + "[" + (arg.width() - 1) + "]";
        return extra == 1 ? "{" + sign + ", " + base + "}" : "{{" + extra + "{" + sign + "}}, " + base + "}";
    }

    private String concat(Op op) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i < op.argCount(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(print(op.arg(i)));
        }
        return sb.append('}').toString();
    }
}
