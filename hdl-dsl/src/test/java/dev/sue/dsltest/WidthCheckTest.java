// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.SInt;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Strict widths: mismatches on assignment and in operations, literal ranges, slices, shifts, indices. */
class WidthCheckTest {
    static final class SetMismatch extends Component {
        final UInt a = in(uint(9));
        final UInt y = out(uint(8)); // MARK:y-decl
        final UInt w = wire(uint(4)).named("w"); // MARK:w-decl

        SetMismatch() {
            y.set(a); // MARK:set
            w.set(a.resize(5)); // MARK:set-wire
        }
    }

    @Test
    void assignmentOfADifferentWidthNamesBothLines() {
        List<HdlError> errors = Errors.of(SetMismatch::new);
        // Field names are only known once construction is over: until then a port is described by its line.
        Errors.expect(errors, "set", "width mismatch: the output declared at " + Marks.at(WidthCheckTest.class, "y-decl")
                + " is 8 bit(s) but the value is 9 bit(s); use resize(), slice() or an expanding operation explicitly");
        Errors.expect(errors, "set-wire", "width mismatch: 'w' at " + Marks.at(WidthCheckTest.class, "w-decl")
                + " is 4 bit(s) but the value is 5 bit(s)");
    }

    static final class OperandMismatch extends Component {
        final UInt a = in(uint(8));
        final UInt b = in(uint(9));
        final SInt s = in(sint(4));
        final SInt t = in(sint(5));
        final Bits p = in(bits(2));
        final Bits q = in(bits(3));
        final Bool c = in(bool());
        final UInt y = out(uint(8));
        final Bool z = out(bool());
        final Bits x = out(bits(2));

        OperandMismatch() {
            UInt sum = a.add(b); // MARK:add
            y.set(sum.sub(b.resize(7).resize(8)));
            Bool lt = a.lt(b); // MARK:lt
            Bool slt = s.ge(t); // MARK:ge
            Bits bx = p.xor(q); // MARK:xor
            Bool e = p.eq(q); // MARK:eq
            z.set(lt.or(slt).or(e));
            x.set(mux(c, p, q)); // MARK:mux
        }
    }

    @Test
    void operandsOfBinaryOperationsMustHaveEqualWidths() {
        List<HdlError> errors = Errors.of(OperandMismatch::new);
        Errors.expect(errors, "add", "operands of add() have different widths (8 and 9 bits); resize one explicitly");
        Errors.expect(errors, "lt", "operands of lt() have different widths (8 and 9 bits)");
        Errors.expect(errors, "ge", "operands of ge() have different widths (4 and 5 bits)");
        Errors.expect(errors, "xor", "operands of xor() have different widths (2 and 3 bits)");
        Errors.expect(errors, "eq", "operands of eq() have different widths (2 and 3 bits)");
        Errors.expect(errors, "mux", "mux() values have different widths (2 and 3 bits); resize one explicitly");
    }

    static final class LiteralRange extends Component {
        final UInt y = out(uint(8));
        final SInt s = out(sint(8));
        final Bits b = out(bits(4));
        final Bool z = out(bool());

        LiteralRange() {
            UInt r = reg("r", uint(8)).init(256); // MARK:init
            r.set(U(300, 8)); // MARK:U
            y.set(r.add(-1)); // MARK:negative
            s.set(S(128, 8)); // MARK:S
            b.set(16); // MARK:set-lit
            z.set(r.eq(1000)); // MARK:eq-lit
        }
    }

    @Test
    void literalsMustFitTheirWidth() {
        List<HdlError> errors = Errors.of(LiteralRange::new);
        Errors.expect(errors, "init", "UInt literal 256 does not fit in 8 unsigned bit(s) (range 0..255)");
        Errors.expect(errors, "U", "UInt literal 300 does not fit in 8 unsigned bit(s) (range 0..255)");
        Errors.expect(errors, "negative", "UInt literal -1 does not fit in 8 unsigned bit(s)");
        Errors.expect(errors, "S", "SInt literal 128 does not fit in 8 signed bit(s) (range -128..127)");
        Errors.expect(errors, "set-lit", "Bits literal 16 does not fit in 4 unsigned bit(s) (range 0..15)");
        Errors.expect(errors, "eq-lit", "UInt literal 1000 does not fit in 8 unsigned bit(s)");
    }

    static final class BadSlices extends Component {
        final UInt a = in(uint(8));
        final UInt idx = in(uint(4));
        final UInt vidx = in(uint(1));
        final Bool y = out(bool());
        final UInt z = out(uint(8));

        BadSlices() {
            UInt hi = a.slice(8, 0); // MARK:past-msb
            UInt rev = a.slice(2, 5); // MARK:reversed
            Bool b = a.bit(-1); // MARK:negative-bit
            Bool d = a.bit(idx); // MARK:dyn-index
            UInt s = a.shl(8); // MARK:shift
            Vec<UInt> v = Vec.of(List.of(a, a, a));
            UInt e = v.get(vidx); // MARK:vec-index
            y.set(b.or(d).or(hi.msb()).or(rev.lsb()));
            z.set(s.xor(e));
        }
    }

    @Test
    void slicesShiftsAndIndicesMustFitTheValue() {
        List<HdlError> errors = Errors.of(BadSlices::new);
        Errors.expect(errors, "past-msb", "slice [8:0] is outside a 8-bit value (valid bits 7..0, hi >= lo)");
        Errors.expect(errors, "reversed", "slice [2:5] is outside a 8-bit value");
        Errors.expect(errors, "negative-bit", "slice [-1:-1] is outside a 8-bit value");
        Errors.expect(errors, "dyn-index", "bit index of a 8-bit value must be 3 bit(s) wide, got 4; resize it explicitly");
        Errors.expect(errors, "shift", "constant shift by 8 on a 8-bit value; use 0..7");
        Errors.expect(errors, "vec-index", "index of a 3-element Vec must be 2 bit(s) wide, got 1");
    }
}
