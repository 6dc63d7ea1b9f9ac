// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.demo;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.BaseType;
import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.EnumType;
import dev.sue.hdl.HwEnum;
import dev.sue.hdl.SInt;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.util.LutAdder;
import dev.sue.hdl.lib.util.LutCompare;
import dev.sue.hdl.lib.util.OneHot;
import java.math.BigInteger;
import java.util.List;

/**
 * Every operator of the DSL on the same few inputs, each driving its own output port, so a
 * testbench can compare the emitted SystemVerilog against plain integer arithmetic. Purely
 * combinational (no clock); zero latency.
 *
 * <p>The point is the emitter's semantics: SystemVerilog sizes and signs expressions from
 * their context, so an operator that prints correctly on its own can change meaning when
 * nested. Several outputs therefore apply an operator to an <em>expression</em> (slice of a
 * sum, sign extension of a sum, bit select of an XOR, signed shift of a sum) rather than to
 * a port.
 *
 * <h2>Parameter</h2>
 * {@code width} (W, at least 1): width of the data inputs. Derived constants, also recorded as
 * parameters in the report so a testbench can check it agrees:
 * <ul>
 *   <li>{@code k1 = min(3, W-1)} and {@code k2 = W-1}: static shift amounts,</li>
 *   <li>{@code sliceHi = 2W/3}, {@code sliceLo = W/3} (integer division): slice bounds,</li>
 *   <li>{@code truncW = max(1, W/2)}: truncation width; {@code extW = W+5}: extension width,</li>
 *   <li>{@code bitPos = W/2}: static bit index,</li>
 *   <li>{@code pattern}: 0b...0101 (bit i set for even i), W bits, used as a wide literal.</li>
 * </ul>
 *
 * <h2>Inputs</h2>
 * {@code a}, {@code b}: UInt(W); {@code sa}, {@code sb}: SInt(W); {@code x}: Bits(W);
 * {@code c0}, {@code c1}, {@code c2}: Bool; {@code amt}: UInt(log2Up(W)+1), a dynamic shift
 * amount that can exceed W; {@code bit_idx}: UInt(log2Up(W)); {@code vidx5}: UInt(3) (index of
 * a 5-element Vec, so 5..7 are out of range); {@code vidx4}: UInt(2); {@code sel}: {@link ZooOp}
 * (3 bits; codes 5..7 name no constant); {@code nsel}: UInt(3).
 *
 * <h2>Outputs</h2>
 * Named {@code <group>_<operator>}; each output's expression is the line that creates it
 * below, and the testbench's model has one line per output with the same name. Groups:
 * {@code u_*} UInt, {@code s_*} SInt, {@code x_*} Bits, {@code b_*} Bool, {@code red_*}
 * reductions, {@code sh*} shifts, {@code sl_*}/{@code bit_*} selects, {@code cat_*}/{@code rep_*},
 * {@code rs_*} resize and conversions, {@code mux_*}, {@code vec_*}, {@code sw_*} switches,
 * {@code wh_*} when-chains, {@code law_*} last-assignment-wins, {@code sub_*} results of
 * {@link Alu} sub-components whose inputs are literals, ports and conditionally assigned values.
 */
public final class OperatorZoo extends Component {
    public static final EnumType<ZooOp> OP = EnumType.of(ZooOp.class);

    public final UInt a;
    public final UInt b;
    public final SInt sa;
    public final SInt sb;
    public final Bits x;
    public final Bool c0 = in(bool());
    public final Bool c1 = in(bool());
    public final Bool c2 = in(bool());
    public final UInt amt;
    public final UInt bitIdx;
    public final UInt vidx5 = in(uint(3));
    public final UInt vidx4 = in(uint(2));
    public final HwEnum<ZooOp> sel = in(enumOf(OP));
    public final UInt nsel = in(uint(3));

    public OperatorZoo(int width) {
        param("width", width);
        require(width >= 1, "width must be >= 1, got " + width);
        latency(0);
        final int w = width;
        final int k1 = param("k1", Math.min(3, w - 1));
        final int k2 = param("k2", w - 1);
        final int sliceHi = param("sliceHi", 2 * w / 3);
        final int sliceLo = param("sliceLo", w / 3);
        final int truncW = param("truncW", Math.max(1, w / 2));
        final int extW = param("extW", w + 5);
        final int bitPos = param("bitPos", w / 2);
        BigInteger patternValue = BigInteger.ZERO;
        for (int i = 0; i < w; i += 2) {
            patternValue = patternValue.setBit(i);
        }
        // A BigInteger literal: above 64 bits it exercises the wide hex printing.
        final BigInteger allOnes = BigInteger.ONE.shiftLeft(w).subtract(BigInteger.ONE);

        a = in(uint(w));
        b = in(uint(w));
        sa = in(sint(w));
        sb = in(sint(w));
        x = in(bits(w));
        amt = in(uint(log2Up(w) + 1));
        bitIdx = in(uint(log2Up(w)));
        final UInt pattern = U(patternValue, w);

        // ---- UInt arithmetic: wraps at W bits unless the name says expand/mul.
        o("u_add", a.add(b));
        o("u_sub", a.sub(b));
        o("u_add_expand", a.addExpand(b));
        o("u_mul", a.mul(b));
        o("u_add_lit", a.add(1));
        o("u_sub_lit", a.sub(1));
        o("u_add_ones", a.add(U(allOnes, w)));
        o("u_xor_pat", a.xor(pattern));

        // ---- SInt arithmetic (two's complement).
        o("s_add", sa.add(sb));
        o("s_sub", sa.sub(sb));
        o("s_add_expand", sa.addExpand(sb));
        o("s_mul", sa.mul(sb));
        o("s_neg", sa.neg());
        o("s_add_lit", sa.add(-1));
        o("s_sub_lit", sa.sub(-1));

        // ---- comparisons: unsigned, signed, with literals, Bool and enum.
        o("u_lt", a.lt(b));
        o("u_le", a.le(b));
        o("u_gt", a.gt(b));
        o("u_ge", a.ge(b));
        o("u_eq", a.eq(b));
        o("u_ne", a.ne(b));
        o("s_lt", sa.lt(sb));
        o("s_le", sa.le(sb));
        o("s_gt", sa.gt(sb));
        o("s_ge", sa.ge(sb));
        o("s_eq", sa.eq(sb));
        o("s_ne", sa.ne(sb));
        // le/gt compare with 0 at W = 1: "a <= 1" would be constant, which lint rightly rejects.
        final long leGtLiteral = w == 1 ? 0 : 1;
        o("u_lt_lit", a.lt(1));
        o("u_le_lit", a.le(leGtLiteral));
        o("u_gt_lit", a.gt(leGtLiteral));
        o("u_ge_lit", a.ge(1));
        o("u_lt_msb", a.lt(U(BigInteger.ONE.shiftLeft(w - 1), w)));
        o("u_eq_lit", a.eq(0));
        o("u_ne_lit", a.ne(0));
        o("s_lt_lit", sa.lt(-1));
        o("s_ge_lit", sa.ge(0));
        o("s_eq_lit", sa.eq(-1));
        o("s_lt_expr", sa.add(sb).lt(sb.sub(sa)));
        // Unsigned vs signed by value: both widened to W+1 bits.
        o("s_mixed_lt", a.toSInt().lt(sa.resize(w + 1)));
        // Gate-built compares (LutCompare): "near" shares the upper half with a, so the tree's
        // equal-upper terms decide; "narrow" zero-extends the shorter operand.
        UInt near = a.xor(b.shr(w / 2));
        o("lut_gt", LutCompare.greater(a, b));
        o("lut_lt", LutCompare.less(a, b));
        o("lut_gt_near", LutCompare.greater(a, near));
        o("lut_lt_near", LutCompare.less(a, near));
        o("lut_gt_narrow", LutCompare.greater(a, b.resize(Math.max(1, w / 2))));
        o("oh_lowest_gates", OneHot.lowestSetByGates(a.asBits()));
        o("oh_above_gates", OneHot.aboveLowestSet(OneHot.lowestSetByGates(a.asBits())));
        // Gate-built add (LutAdder): full width, a narrow operand zero-extended, a carry in.
        o("lut_add", LutAdder.sum(a, b));
        o("lut_add_narrow", LutAdder.sum(a, b.resize(Math.max(1, w / 2))));
        o("lut_add_carry", LutAdder.sum(a, b.resize(Math.max(1, w / 2)), c0));
        o("lut_add_one", LutAdder.sum(a, b, TRUE));
        o("b_eq", c0.eq(c1));
        o("b_ne", c0.ne(c1));
        o("e_is_add", sel.is(ZooOp.ADD));
        o("e_is_not_xor", sel.isNot(ZooOp.XOR));

        // ---- bitwise and Bool logic.
        o("u_and", a.and(b));
        o("u_or", a.or(b));
        o("u_xor", a.xor(b));
        o("u_not", a.not());
        o("s_and", sa.and(sb));
        o("s_or", sa.or(sb));
        o("s_xor", sa.xor(sb));
        o("s_not", sa.not());
        o("x_and", x.and(b.asBits()));
        o("x_or", x.or(b.asBits()));
        o("x_xor", x.xor(b.asBits()));
        o("x_not", x.not());
        o("b_and", c0.and(c1));
        o("b_or", c0.or(c1));
        o("b_xor", c0.xor(c1));
        o("b_not", c0.not());
        o("b_and_not", c0.andNot(c1));

        // ---- reductions.
        o("red_and", a.andR());
        o("red_or", a.orR());
        o("red_xor", a.xorR());
        o("red_xor_expr", a.xor(b).xorR());
        o("red_and_s", sa.andR());
        o("red_or_x", x.orR());

        // ---- static shifts (SInt shr is arithmetic), then dynamic ones (amount may exceed W).
        o("shc_u_shl_k1", a.shl(k1));
        o("shc_u_shr_k1", a.shr(k1));
        o("shc_u_shl_k2", a.shl(k2));
        o("shc_s_shl_k1", sa.shl(k1));
        o("shc_s_shr_k1", sa.shr(k1));
        o("shc_s_shr_k2", sa.shr(k2));
        o("shc_x_shr_k1", x.shr(k1));
        o("shd_u_shl", a.shl(amt));
        o("shd_u_shr", a.shr(amt));
        o("shd_s_shl", sa.shl(amt));
        o("shd_s_shr", sa.shr(amt));
        o("shd_x_shl", x.shl(amt));
        o("shd_s_shr_expr", sa.add(sb).shr(amt));
        o("shd_u_shr_expr", a.add(b).shr(amt));

        // ---- slices and bit selects, on ports, expressions and a literal.
        o("sl_u", a.slice(sliceHi, sliceLo));
        o("sl_s", sa.slice(sliceHi, sliceLo));
        o("sl_expr", a.add(b).slice(sliceHi, sliceLo));
        o("sl_pat", pattern.slice(sliceHi, sliceLo));
        o("sl_low", a.low(truncW));
        o("sl_high", a.high(truncW));
        o("bit_static", a.bit(bitPos));
        o("bit_msb", a.msb());
        o("bit_lsb", a.lsb());
        o("bit_msb_expr", a.add(b).msb());
        o("bit_s_msb", sa.msb());
        o("bit_dyn", a.bit(bitIdx));
        o("bit_dyn_expr", a.xor(b).bit(bitIdx));
        o("bit_dyn_x", x.bit(bitIdx));
        o("bit_dyn_pat", pattern.bit(bitIdx));

        // ---- concatenation (first argument most significant) and repetition.
        o("cat_three", cat(a, c0, sb));
        o("cat_expr", cat(a.add(b), U(5, 3)));
        o("rep_bool", repeat(c0, 3));
        o("rep_vec", repeat(a, 3));
        o("rep_expr", repeat(a.xor(b), 2));

        // ---- resize (zero/sign extend, truncate keeps LSBs) and conversions.
        o("rs_u_zext", a.resize(extW));
        o("rs_u_trunc", a.resize(truncW));
        o("rs_s_sext", sa.resize(extW));
        o("rs_s_trunc", sa.resize(truncW));
        o("rs_x_zext", x.resize(extW));
        o("rs_s_sext_expr", sa.add(sb).resize(extW));
        o("rs_u_to_s", a.toSInt());
        o("rs_u_as_s_lt", a.asSInt().lt(b.asSInt()));
        o("rs_s_as_u_lt", sa.asUInt().lt(sb.asUInt()));
        o("rs_x_as_u_add", x.asUInt().add(b));
        o("rs_x_as_s_neg", x.asSInt().neg());
        o("rs_b_as_u", c0.asUInt());
        o("rs_x_low_bool", x.low(1).asBool());

        // ---- mux.
        o("mux_plain", mux(c0, a, b));
        o("mux_nested", mux(c0, mux(c1, a, b), a.add(b)));
        o("mux_s", mux(c2, sa, sb.neg()));

        // ---- Vec run-time index; out-of-range indices of the 5-element Vec select element 0.
        Vec<UInt> five = Vec.of(List.of(a, b, a.add(b), a.xor(b), sa.asUInt()));
        o("vec_five", five.get(vidx5));
        Vec<UInt> four = Vec.of(List.of(a, b, a.not(), b.not()));
        o("vec_four", four.get(vidx4));
        Vec<SInt> three = Vec.of(List.of(sa, sb, sa.neg()));
        o("vec_three_s", three.get(vidx4));

        // ---- switchOn: enum cases with a default (codes 5..7 reach it).
        UInt swEnum = out(uint(w)).named("sw_enum");
        switchOn(sel, s -> s
                .is(ZooOp.PASS_A, () -> swEnum.set(a))
                .is(ZooOp.PASS_B, () -> swEnum.set(b))
                .is(ZooOp.ADD, () -> swEnum.set(a.add(b)))
                .is(ZooOp.XOR, () -> swEnum.set(a.xor(b)))
                .is(ZooOp.NOT_A, () -> swEnum.set(a.not()))
                .otherwise(() -> swEnum.set(pattern)));
        // Integer cases, one matching two values, and a default.
        UInt swInt = out(uint(w)).named("sw_int");
        switchOn(nsel, s -> s
                .is(0, () -> swInt.set(a))
                .isAny(new long[] {1, 2}, () -> swInt.set(b))
                .is(5, () -> swInt.set(a.sub(b)))
                .otherwise(() -> swInt.set(b.not())));
        // Negative case values of a signed selector.
        UInt swSigned = out(uint(w)).named("sw_signed");
        switchOn(nsel.asSInt(), s -> s
                .is(-1, () -> swSigned.set(a))
                .is(2, () -> swSigned.set(b))
                .is(-4, () -> swSigned.set(a.add(b)))
                .otherwise(() -> swSigned.set(0)));
        // No otherwise: the value assigned before the switch stays for unmatched selectors.
        UInt swNoDefault = out(uint(w)).named("sw_no_default");
        swNoDefault.set(a.xor(b));
        switchOn(sel, s -> s.is(ZooOp.ADD, () -> swNoDefault.set(a.add(b))));
        // An enum output assigned in a when chain.
        HwEnum<ZooOp> swEnumOut = out(enumOf(OP)).named("sw_enum_out");
        swEnumOut.set(ZooOp.NOT_A);
        when(c0, () -> swEnumOut.set(ZooOp.ADD)).elseWhen(c1, () -> swEnumOut.set(sel));

        // ---- when / elseWhen / otherwise: the first true condition wins.
        UInt whPriority = out(uint(w)).named("wh_priority");
        when(c0, () -> whPriority.set(a))
                .elseWhen(c1, () -> whPriority.set(b))
                .elseWhen(c2, () -> whPriority.set(a.xor(b)))
                .otherwise(() -> whPriority.set(a.add(b)));
        // Nesting: a when inside a when, a switch inside an otherwise.
        UInt whNested = out(uint(w)).named("wh_nested");
        when(c0, () -> when(c1, () -> whNested.set(a)).otherwise(() -> whNested.set(b)))
                .otherwise(() -> switchOn(nsel, s -> s
                        .is(3, () -> whNested.set(a.and(b)))
                        .otherwise(() -> whNested.set(a.or(b)))));

        // ---- last assignment wins, and reads see the final value.
        UInt lawChain = out(uint(w)).named("law_chain");
        lawChain.set(a);
        when(c0, () -> lawChain.set(b));
        when(c1, () -> {
            lawChain.set(a.xor(b));
            when(c2, () -> lawChain.set(a.and(b)));
        });
        Bool lawFlag = out(bool()).named("law_flag");
        lawFlag.set(false);
        when(c0, () -> lawFlag.set(true));
        when(c1, () -> lawFlag.set(false));
        // law_early reads `fin` before any assignment to it is described; law_late after.
        UInt fin = wire("fin", uint(w));
        UInt lawEarly = out(uint(w)).named("law_early");
        lawEarly.set(fin.add(1));
        fin.set(a);
        when(c0, () -> fin.set(b));
        when(c2, () -> fin.set(a.xor(b)));
        o("law_late", fin.sub(1));

        // ---- sub-components: inputs wired straight to literals and ports (connected in the
        // instance), and inputs assigned conditionally (through a wire in this module).
        Alu litAlu = instance("lit_alu", () -> new Alu(w));
        litAlu.op.set(AluOp.SUB);
        litAlu.a.set(a);
        litAlu.b.set(pattern);
        o("sub_lit", litAlu.result);
        Alu condAlu = instance("cond_alu", () -> new Alu(w));
        condAlu.op.set(AluOp.ADD);
        when(c0, () -> condAlu.op.set(AluOp.XOR)).elseWhen(c1, () -> condAlu.op.set(AluOp.CLEAR));
        condAlu.a.set(a);
        condAlu.b.set(mux(c2, b.not(), b));
        o("sub_cond", condAlu.result);
    }

    /** An output port named {@code name} carrying {@code value} (same type and width). */
    private static <T extends BaseType> void o(String name, T value) {
        BaseType port = out(value.copyType()).named(name);
        assignLeaves(port, value);
    }
}
