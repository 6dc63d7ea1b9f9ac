// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.SInt;
import dev.sue.hdl.UInt;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** resize (zero/sign extension, truncation), type conversions and literals. */
class ConversionTest {
    static final class Resize extends Component {
        final UInt a = in(uint(8));
        final SInt s = in(sint(8));
        final Bits p = in(bits(8));
        final Bool f = in(bool());
        final UInt zext = out(uint(12));
        final SInt sext = out(sint(12));
        final SInt sext1 = out(sint(9));
        final Bits bext = out(bits(10));
        final UInt trunc = out(uint(3));
        final SInt strunc = out(sint(4));
        final UInt same = out(uint(8));
        final SInt sumExt = out(sint(12));

        Resize() {
            zext.set(a.resize(12));
            sext.set(s.resize(12));
            sext1.set(s.resize(9));
            bext.set(p.resize(10));
            trunc.set(a.resize(3));
            strunc.set(s.resize(4));
            same.set(a.resize(8));
            sumExt.set(s.add(s).resize(12));
        }
    }

    @Test
    void resizeZeroExtendsUnsignedSignExtendsSignedAndTruncatesToTheLsbs() {
        String sv = Emit.sv(Resize::new);
        assertLine(sv, "assign zext = {4'd0, a};");
        assertLine(sv, "assign sext = {{4{s[7]}}, s};");
        assertLine(sv, "assign sext1 = {s[7], s};");
        assertLine(sv, "assign bext = {2'd0, p};");
        assertLine(sv, "assign trunc = a[2:0];");
        assertLine(sv, "assign strunc = s[3:0];");
        assertLine(sv, "assign same = a;");
        // Sign-extending an expression needs its sign bit, so it goes through a temporary.
        assertLine(sv, "assign add_0 = s + s;");
        assertLine(sv, "assign sum_ext = {{4{add_0[7]}}, add_0};");
    }

    static final class Convert extends Component {
        final UInt a = in(uint(8));
        final SInt s = in(sint(8));
        final Bits p = in(bits(8));
        final Bits one = in(bits(1));
        final Bool f = in(bool());
        final Bits aBits = out(bits(8));
        final SInt aSigned = out(sint(8));
        final UInt sUnsigned = out(uint(8));
        final Bits sBits = out(bits(8));
        final UInt pUnsigned = out(uint(8));
        final SInt pSigned = out(sint(8));
        final SInt toS = out(sint(9));
        final Bool oneBool = out(bool());
        final UInt fUInt = out(uint(1));
        final Bits fBits = out(bits(1));
        final Bits whole = out(bits(17));

        Convert() {
            aBits.set(a.asBits());
            aSigned.set(a.asSInt());
            sUnsigned.set(s.asUInt());
            sBits.set(s.asBits());
            pUnsigned.set(p.asUInt());
            pSigned.set(p.asSInt());
            toS.set(a.toSInt());
            oneBool.set(one.asBool());
            fUInt.set(f.asUInt());
            fBits.set(f.asBits());
            whole.set(asBits(f).resize(17).or(cat(f, a, p)));
        }
    }

    @Test
    void conversionsAreExplicitAndFree() {
        String sv = Emit.sv(Convert::new);
        assertLine(sv, "assign a_bits = a;");
        assertLine(sv, "assign a_signed = a;");
        assertLine(sv, "assign s_unsigned = s;");
        assertLine(sv, "assign s_bits = s;");
        assertLine(sv, "assign p_unsigned = p;");
        assertLine(sv, "assign p_signed = p;");
        assertLine(sv, "assign to_s = {1'b0, a};");
        assertLine(sv, "assign one_bool = one;");
        assertLine(sv, "assign f_u_int = f;");
        assertLine(sv, "assign f_bits = f;");
        assertLine(sv, "assign whole = {16'd0, f} | {f, a, p};");
    }

    static final class Literals extends Component {
        final UInt u = out(uint(8));
        final SInt s = out(sint(8));
        final Bits b = out(bits(4));
        final UInt wide = out(uint(40));
        final Bits wideBits = out(bits(36));
        final SInt sExt = out(sint(12));
        final Bool t = out(bool());
        final Bool f = out(bool());
        final UInt lit = out(uint(8));

        Literals() {
            u.set(U(200, 8));
            s.set(S(-3, 8));
            b.set(B(0xA, 4));
            wide.set(U(new BigInteger("23456789AB", 16), 40));
            wideBits.set(B(new BigInteger("F00000001", 16), 36));
            sExt.set(S(-2, 4).resize(12));
            t.set(TRUE);
            f.set(bool(false));
            lit.set(17);
        }
    }

    @Test
    void literals() {
        String sv = Emit.sv(Literals::new);
        assertLine(sv, "assign u = 8'd200;");
        assertLine(sv, "assign s = 8'd253;");
        assertLine(sv, "assign b = 4'd10;");
        assertLine(sv, "assign wide = 40'h23456789ab;");
        assertLine(sv, "assign wide_bits = 36'hf00000001;");
        assertLine(sv, "assign s_ext = 12'd4094;");
        assertLine(sv, "assign t = 1'b1;");
        assertLine(sv, "assign f = 1'b0;");
        assertLine(sv, "assign lit = 8'd17;");
    }

    static final class LiteralWidths extends Component {
        LiteralWidths() {
            assertEquals(8, U(0, 8).width());
            assertEquals(3, S(-4, 3).width());
            assertEquals(1, B(1, 1).width());
        }
    }

    @Test
    void literalWidthsFollowTheirDeclaration() {
        Emit.elaborate(LiteralWidths::new);
    }
}
