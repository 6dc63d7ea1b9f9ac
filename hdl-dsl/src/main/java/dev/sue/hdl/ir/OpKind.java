// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

/**
 * Operations of the IR. Each kind fixes how its result width relates to its operands;
 * the typed API ({@code UInt}, {@code SInt}, ...) is responsible for only building
 * width-consistent operations, so the emitter never relies on SystemVerilog's
 * context-dependent width rules.
 */
public enum OpKind {
    /** Bitwise; all operands and the result have the same width. */
    NOT, AND, OR, XOR,
    /** Width-keeping modular arithmetic; operands and result have the same width. */
    ADD, SUB, NEG,
    /** Multiplication; the API extends both operands to the result width beforehand. */
    MUL_U, MUL_S,
    /** Comparisons, 1-bit result. */
    EQ, NE, LT_U, LE_U, GT_U, GE_U, LT_S, LE_S, GT_S, GE_S,
    /** Reductions, 1-bit result. */
    RED_AND, RED_OR, RED_XOR,
    /** Static shifts by {@code param0}; width kept. SRA_C fills with the sign bit. */
    SHL_C, SHR_C, SRA_C,
    /** Dynamic shifts; args {value, amount}; width of value kept. */
    SHL, SHR, SRA,
    /** args {value}; bits [param0 : param1] (hi, lo). */
    SLICE,
    /** args {value, index}; one bit selected dynamically. */
    BIT_INDEX,
    /** args {index, element0, element1, ...}; element selected dynamically. */
    VEC_INDEX,
    /** args MSB first. */
    CONCAT,
    /** args {value}; repeated param0 times. */
    REPEAT,
    /** args {value}; zero- or sign-extended to the result width. */
    ZEXT, SEXT,
    /** args {select, whenTrue, whenFalse}. */
    MUX;

    public boolean isComparison() {
        return switch (this) {
            case EQ, NE, LT_U, LE_U, GT_U, GE_U, LT_S, LE_S, GT_S, GE_S -> true;
            default -> false;
        };
    }
}
