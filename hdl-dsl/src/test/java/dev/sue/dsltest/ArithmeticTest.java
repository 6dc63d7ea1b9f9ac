// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.SInt;
import dev.sue.hdl.UInt;
import org.junit.jupiter.api.Test;

/** Width-keeping and width-expanding arithmetic; signed and unsigned comparisons. */
class ArithmeticTest {
    static final class UnsignedArith extends Component {
        final UInt a = in(uint(8));
        final UInt b = in(uint(8));
        final UInt sum = out(uint(8));
        final UInt diff = out(uint(8));
        final UInt inc = out(uint(8));
        final UInt dec = out(uint(8));
        final UInt wide = out(uint(9));
        final UInt prod = out(uint(16));

        UnsignedArith() {
            sum.set(a.add(b));
            diff.set(a.sub(b));
            inc.set(a.add(1));
            dec.set(a.sub(255));
            wide.set(a.addExpand(b));
            prod.set(a.mul(b));
        }
    }

    @Test
    void unsignedArithmeticKeepsOrExpandsTheWidthExplicitly() {
        String sv = Emit.sv(UnsignedArith::new);
        assertLine(sv, "assign sum = a + b;");
        assertLine(sv, "assign diff = a - b;");
        assertLine(sv, "assign inc = a + 8'd1;");
        assertLine(sv, "assign dec = a - 8'd255;");
        assertLine(sv, "assign wide = {1'b0, a} + {1'b0, b};");
        assertLine(sv, "assign prod = {8'd0, a} * {8'd0, b};");
    }

    static final class Widths extends Component {
        Widths() {
            UInt a = in(uint(8)).named("a");
            UInt b = in(uint(5)).named("b");
            SInt s = in(sint(6)).named("s");
            SInt t = in(sint(3)).named("t");
            assertEquals(8, a.add(a).width());
            assertEquals(9, a.addExpand(a).width());
            assertEquals(13, a.mul(b).width());
            assertEquals(7, s.addExpand(s).width());
            assertEquals(9, s.mul(t).width());
            assertEquals(6, s.neg().width());
            assertEquals(1, a.lt(a).width());
        }
    }

    @Test
    void resultWidths() {
        // Inputs nobody reads are fine: only the widths computed during construction matter.
        Emit.elaborate(Widths::new);
    }

    static final class SignedArith extends Component {
        final SInt a = in(sint(8));
        final SInt b = in(sint(8));
        final SInt sum = out(sint(8));
        final SInt diff = out(sint(8));
        final SInt neg = out(sint(8));
        final SInt minusOne = out(sint(8));
        final SInt wide = out(sint(9));
        final SInt prod = out(sint(16));

        SignedArith() {
            sum.set(a.add(b));
            diff.set(a.sub(b));
            neg.set(a.neg());
            minusOne.set(a.add(-1));
            wide.set(a.addExpand(b));
            prod.set(a.mul(b));
        }
    }

    @Test
    void signedArithmetic() {
        String sv = Emit.sv(SignedArith::new);
        assertLine(sv, "assign sum = a + b;");
        assertLine(sv, "assign diff = a - b;");
        assertLine(sv, "assign neg = -a;");
        assertLine(sv, "assign minus_one = a + 8'd255;");
        assertLine(sv, "assign wide = {a[7], a} + {b[7], b};");
        assertLine(sv, "assign prod = $unsigned($signed({{8{a[7]}}, a}) * $signed({{8{b[7]}}, b}));");
    }

    static final class Compare extends Component {
        final UInt a = in(uint(8));
        final UInt b = in(uint(8));
        final SInt s = in(sint(8));
        final SInt t = in(sint(8));
        final Bool ult = out(bool());
        final Bool ule = out(bool());
        final Bool ugt = out(bool());
        final Bool uge = out(bool());
        final Bool ueq = out(bool());
        final Bool une = out(bool());
        final Bool slt = out(bool());
        final Bool sle = out(bool());
        final Bool sgt = out(bool());
        final Bool sge = out(bool());
        final Bool ultLit = out(bool());
        final Bool ugeLit = out(bool());
        final Bool sltLit = out(bool());
        final Bool sgeLit = out(bool());
        final Bool seqLit = out(bool());

        Compare() {
            ult.set(a.lt(b));
            ule.set(a.le(b));
            ugt.set(a.gt(b));
            uge.set(a.ge(b));
            ueq.set(a.eq(b));
            une.set(a.ne(b));
            slt.set(s.lt(t));
            sle.set(s.le(t));
            sgt.set(s.gt(t));
            sge.set(s.ge(t));
            ultLit.set(a.lt(10));
            ugeLit.set(a.ge(200));
            sltLit.set(s.lt(-1));
            sgeLit.set(s.ge(0));
            seqLit.set(s.eq(-128));
        }
    }

    @Test
    void unsignedComparisonsArePlainAndSignedOnesUseSigned() {
        String sv = Emit.sv(Compare::new);
        assertLine(sv, "assign ult = a < b;");
        assertLine(sv, "assign ule = a <= b;");
        assertLine(sv, "assign ugt = a > b;");
        assertLine(sv, "assign uge = a >= b;");
        assertLine(sv, "assign ueq = a == b;");
        assertLine(sv, "assign une = a != b;");
        assertLine(sv, "assign slt = $signed(s) < $signed(t);");
        assertLine(sv, "assign sle = $signed(s) <= $signed(t);");
        assertLine(sv, "assign sgt = $signed(s) > $signed(t);");
        assertLine(sv, "assign sge = $signed(s) >= $signed(t);");
        assertLine(sv, "assign ult_lit = a < 8'd10;");
        assertLine(sv, "assign uge_lit = a >= 8'd200;");
        // Negative literals are emitted as their two's-complement bit pattern, compared signed.
        assertLine(sv, "assign slt_lit = $signed(s) < $signed(8'd255);");
        assertLine(sv, "assign sge_lit = $signed(s) >= $signed(8'd0);");
        assertLine(sv, "assign seq_lit = s == 8'd128;");
    }

    static final class TrivialCompares extends Component {
        final UInt a = in(uint(4));
        final Bool never = out(bool());
        final Bool allValues = out(bool());
        final Bool fullRange = out(bool());
        final Bool aboveMax = out(bool());
        final Bool below3 = out(bool());

        TrivialCompares() {
            never.set(a.lt(0));
            allValues.set(a.ge(0));
            fullRange.set(a.le(15));
            aboveMax.set(a.gt(15));
            below3.set(a.lt(3));
        }
    }

    @Test
    void comparesThatDecideNothingFoldToConstants() {
        // The compare itself would be a Verilator -Wall warning (UNSIGNED / CMPCONST).
        String sv = Emit.sv(TrivialCompares::new);
        assertLine(sv, "assign never = 1'b0;");
        assertLine(sv, "assign all_values = 1'b1;");
        assertLine(sv, "assign full_range = 1'b1;");
        assertLine(sv, "assign above_max = 1'b0;");
        assertLine(sv, "assign below3 = a < 4'd3;");
    }
}
