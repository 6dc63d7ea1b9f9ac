// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.dsltest.Sv.assertLines;
import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.SInt;
import dev.sue.hdl.UInt;
import org.junit.jupiter.api.Test;

/** Static and dynamic shifts (logical and arithmetic), slices and bit selects. */
class ShiftSliceTest {
    static final class Shifts extends Component {
        final UInt a = in(uint(8));
        final SInt s = in(sint(8));
        final Bits p = in(bits(8));
        final UInt n = in(uint(3));
        final UInt shl2 = out(uint(8));
        final UInt shr2 = out(uint(8));
        final SInt sra2 = out(sint(8));
        final SInt sshl1 = out(sint(8));
        final Bits bshr7 = out(bits(8));
        final UInt shl0 = out(uint(8));
        final UInt shlN = out(uint(8));
        final UInt shrN = out(uint(8));
        final SInt sraN = out(sint(8));
        final Bits bshlN = out(bits(8));

        Shifts() {
            shl2.set(a.shl(2));
            shr2.set(a.shr(2));
            sra2.set(s.shr(2));
            sshl1.set(s.shl(1));
            bshr7.set(p.shr(7));
            shl0.set(a.shl(0));
            shlN.set(a.shl(n));
            shrN.set(a.shr(n));
            sraN.set(s.shr(n));
            bshlN.set(p.shl(n));
        }
    }

    @Test
    void shiftsKeepTheWidthAndSIntShiftsRightArithmetically() {
        String sv = Emit.sv(Shifts::new);
        assertLine(sv, "assign shl2 = a << 2;");
        assertLine(sv, "assign shr2 = a >> 2;");
        assertLine(sv, "assign sra2 = $unsigned($signed(s) >>> 2);");
        assertLine(sv, "assign sshl1 = s << 1;");
        assertLine(sv, "assign bshr7 = p >> 7;");
        assertLine(sv, "assign shl0 = a;");
        assertLine(sv, "assign shl_n = a << n;");
        assertLine(sv, "assign shr_n = a >> n;");
        assertLine(sv, "assign sra_n = $unsigned($signed(s) >>> n);");
        assertLine(sv, "assign bshl_n = p << n;");
    }

    static final class Slices extends Component {
        final UInt a = in(uint(8));
        final UInt b = in(uint(8));
        final SInt s = in(sint(8));
        final Bits p = in(bits(16));
        final UInt idx = in(uint(3));
        final UInt mid = out(uint(4));
        final Bool bit3 = out(bool());
        final Bool msb = out(bool());
        final Bool lsb = out(bool());
        final UInt low = out(uint(4));
        final UInt high = out(uint(4));
        final UInt all = out(uint(8));
        final SInt sHigh = out(sint(2));
        final Bits byte1 = out(bits(8));
        final Bool dyn = out(bool());
        final UInt sumLow = out(uint(4));
        final Bool sumMsb = out(bool());

        Slices() {
            mid.set(a.slice(5, 2));
            bit3.set(a.bit(3));
            msb.set(a.msb());
            lsb.set(a.lsb());
            low.set(a.low(4));
            high.set(a.high(4));
            all.set(a.slice(7, 0));
            sHigh.set(s.high(2));
            byte1.set(p.byteAt(1));
            dyn.set(a.bit(idx));
            UInt sum = a.add(b);
            sumLow.set(sum.low(4));
            sumMsb.set(sum.msb());
        }
    }

    @Test
    void slicesAndBitSelects() {
        String sv = Emit.sv(Slices::new);
        assertLine(sv, "assign mid = a[5:2];");
        assertLine(sv, "assign bit3 = a[3];");
        assertLine(sv, "assign msb = a[7];");
        assertLine(sv, "assign lsb = a[0];");
        assertLine(sv, "assign low = a[3:0];");
        assertLine(sv, "assign high = a[7:4];");
        assertLine(sv, "assign all = a;");
        assertLine(sv, "assign s_high = s[7:6];");
        assertLine(sv, "assign byte1 = p[15:8];");
        assertLine(sv, "assign dyn = a[idx];");
    }

    @Test
    void slicingAnExpressionGoesThroughANamedTemporary() {
        // SystemVerilog cannot select bits of an expression: (a + b)[3:0] does not parse.
        String sv = Emit.sv(Slices::new);
        assertLines(sv, "assign add_0 = a + b;");
        assertLine(sv, "assign sum_low = add_0[3:0];");
        assertLine(sv, "assign sum_msb = add_0[7];");
        assertLine(sv, "logic [7:0] add_0;");
    }
}
