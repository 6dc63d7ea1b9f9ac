// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.timing;

import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Op;
import java.util.function.Function;

/**
 * The cost model: how many weighted LUT6 levels each IR operation adds, calibrated against
 * {@code yosys synth_xilinx -nowidelut} with ABC on the library blocks and SUE tops (the table
 * and how close it is: hdl-dsl/README.md, "Logic depth"). Weights are the project's measure: a
 * LUT level counts 1, each CARRY4 of a carry chain 0.25.
 *
 * <ul>
 * <li>Wiring is free: slices, concatenations, extensions, constant shifts, repeats.</li>
 * <li>Logic ABC packs into LUTs (bitwise operations, NOT, reductions, equality, 2:1 and wide
 *     multiplexers, variable shifts and indexing) is a {@link Cone} over the input bits each
 *     output bit depends on: a 12-input AND is 2 levels, a 4:1 multiplexer 1, a 16:1 one 2 (wider ones: {@link #atLeastWideMux}).
 *     A chain of one of AND, OR, XOR (an accumulator in a Java loop) is one cone over all the
 *     chain's inputs, as ABC balances it: 36 ORed bits are 2 levels whatever the order.</li>
 * <li>Adders, subtractors and magnitude comparisons are a propagate LUT (which absorbs the
 *     logic before it like any cone) and a CARRY4 chain of 0.25 per 4 bits; their output
 *     starts a new LUT.</li>
 * <li>A multiplier is costed as two chained adders of its width (the SUE RTL has none).</li>
 * </ul>
 */
final class DepthCost {
    /** Inputs of one LUT. */
    static final int LUT_INPUTS = 6;
    /** Bits per CARRY4. */
    static final int CARRY_BITS = 4;
    /** Weight of one CARRY4 in the measure. */
    static final double CARRY_LEVEL = 0.25;
    /** Adders and comparisons this narrow are plain LUT logic: yosys' Xilinx carry mapping refuses them. */
    static final int LUT_ADDER_BITS = 2;
    /** Words of the largest single LUT RAM primitive (RAM64X1D). */
    static final int LUTRAM_WORDS = 64;

    private DepthCost() {
    }

    /** The arrival of {@code op}'s output, given the arrivals of its operands. */
    static Arrival of(Op op, Function<Node, Arrival> arg) {
        switch (op.kind()) {
            case SLICE, ZEXT, SEXT, SHL_C, SHR_C, SRA_C, REPEAT:
                return arg.apply(op.arg(0));
            case CONCAT: {
                Arrival worst = Arrival.CONSTANT;
                for (int i = 0; i < op.argCount(); i++) {
                    Arrival a = arg.apply(op.arg(i));
                    if (a.level() > worst.level() || a.level() == worst.level() && a.mass() > worst.mass()) {
                        worst = a;
                    }
                }
                return worst;
            }
            case AND, OR, XOR: {
                // Two mappings, the better one wins: each operand as the LUT that made it (which
                // may already have absorbed a side input), or the chain's inputs as one balanced tree.
                Cone operands = new Cone();
                Cone chain = new Cone();
                for (int i = 0; i < op.argCount(); i++) {
                    Arrival a = arg.apply(op.arg(i));
                    operands.add(a);
                    if (a.chain() != null && a.chain().kind() == op.kind()) {
                        chain.merge(a.chain().inputs());
                    } else {
                        chain.add(a);
                    }
                }
                Arrival asOperands = operands.packed();
                Arrival asTree = chain.packed();
                boolean treeWins = asTree.level() < asOperands.level() - 1e-9
                        || asTree.level() < asOperands.level() + 1e-9 && asTree.fanIn() < asOperands.fanIn();
                return (treeWins ? asTree : asOperands).withChain(op.kind(), chain);
            }
            case NOT, MUX: {
                Cone c = new Cone();
                for (int i = 0; i < op.argCount(); i++) {
                    c.add(arg.apply(op.arg(i)));
                }
                return c.packed();
            }
            case RED_AND, RED_OR, RED_XOR:
                return new Cone().add(arg.apply(op.arg(0)), op.arg(0).width()).packed();
            case EQ, NE: {
                int w = op.arg(0).width();
                return new Cone().add(arg.apply(op.arg(0)), w).add(arg.apply(op.arg(1)), w).packed();
            }
            case ADD, SUB, LT_U, LE_U, GT_U, GE_U, LT_S, LE_S, GT_S, GE_S: {
                int w = op.arg(0).width();
                Cone propagate = new Cone().add(arg.apply(op.arg(0)), w <= LUT_ADDER_BITS ? w : 1)
                        .add(arg.apply(op.arg(1)), w <= LUT_ADDER_BITS ? w : 1);
                return w <= LUT_ADDER_BITS ? propagate.packed() : carryChain(propagate, w);
            }
            case NEG:
                if (op.width() <= LUT_ADDER_BITS) {
                    return new Cone().add(arg.apply(op.arg(0)), op.width()).packed();
                }
                return carryChain(new Cone().add(arg.apply(op.arg(0))), op.width());
            case MUL_U, MUL_S: {
                Arrival first = carryChain(new Cone().add(arg.apply(op.arg(0))).add(arg.apply(op.arg(1))), op.width());
                return carryChain(new Cone().add(first), op.width());
            }
            case SHL, SHR, SRA: {
                Node value = op.arg(0);
                Node amount = op.arg(1);
                return new Cone().add(arg.apply(value), value.width()).add(arg.apply(amount), amount.width()).packed();
            }
            case BIT_INDEX: {
                Node value = op.arg(0);
                Node index = op.arg(1);
                Arrival a = new Cone().add(arg.apply(value), value.width()).add(arg.apply(index), index.width()).packed();
                return atLeastWideMux(a, value.width(), Math.max(arg.apply(value).level(), arg.apply(index).level()));
            }
            case VEC_INDEX: {
                Node index = op.arg(0);
                Cone c = new Cone().add(arg.apply(index), index.width());
                double latest = arg.apply(index).level();
                for (int i = 1; i < op.argCount(); i++) {
                    c.add(arg.apply(op.arg(i)));
                    latest = Math.max(latest, arg.apply(op.arg(i)).level());
                }
                return atLeastWideMux(c.packed(), op.argCount() - 1, latest);
            }
            default:
                throw new IllegalStateException("no depth cost for " + op.kind());
        }
    }

    /** Choices above which ABC's mapping of a multiplexer falls short of the ideal 4:1 LUT tree. */
    static final int WIDE_MUX_CHOICES = 16;

    /**
     * A multiplexer of more than {@link #WIDE_MUX_CHOICES} choices as yosys + ABC map it (a case
     * or a shift alike, measured: 64:1 and 128:1 both 4 levels, where the Kraft bound says 3): a
     * 4:1 level per factor 4 of choices plus one, after its latest input.
     */
    private static Arrival atLeastWideMux(Arrival packed, int choices, double latestInput) {
        if (choices <= WIDE_MUX_CHOICES) {
            return packed;
        }
        int bits = 32 - Integer.numberOfLeadingZeros(choices - 1);
        double mapped = latestInput + bits / 2 + 1;
        return mapped > packed.level() + 1e-9 ? new Arrival(mapped, LUT_INPUTS, false) : packed;
    }

    /** A propagate LUT per bit, then a CARRY4 per 4 bits: the top bit settles last. */
    static Arrival carryChain(Cone propagate, int bits) {
        Arrival p = propagate.packed();
        if (p.isConstant()) {
            return Arrival.CONSTANT;
        }
        return Arrival.leafAt(p.level() + CARRY_LEVEL * ceilDiv(bits, CARRY_BITS));
    }

    /** LUT levels of an asynchronous (LUT RAM) read of {@code words} words: RAM64 and a 4:1 LUT tree over them. */
    static double lutRamLevels(int words) {
        int primitives = ceilDiv(words, LUTRAM_WORDS);
        int muxLevels = 0;
        for (int n = primitives; n > 1; n = ceilDiv(n, 4)) {
            muxLevels++;
        }
        return 1 + muxLevels;
    }

    /**
     * LUT levels of the write-enable demultiplexer of a LUT RAM of {@code words} words: none for
     * one primitive, then a 4-way LUT level per factor 4 of primitives (as the read side's tree).
     */
    static double lutRamWriteDecodeLevels(int words) {
        return lutRamLevels(words) - 1;
    }

    private static int ceilDiv(int a, int b) {
        return (a + b - 1) / b;
    }
}
