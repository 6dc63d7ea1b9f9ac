// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.ir.Op;
import dev.sue.hdl.ir.OpKind;
import dev.sue.hdl.ir.Signal;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Bool and Bits logic, reductions, mux, concatenation and repetition. */
class LogicOpsTest {
    static final class BoolLogic extends Component {
        final Bool a = in(bool());
        final Bool b = in(bool());
        final Bool yAnd = out(bool());
        final Bool yOr = out(bool());
        final Bool yXor = out(bool());
        final Bool yNot = out(bool());
        final Bool yAndNot = out(bool());
        final Bool yEq = out(bool());
        final Bool yNe = out(bool());
        final Bool yConst = out(bool());

        BoolLogic() {
            yAnd.set(a.and(b));
            yOr.set(a.or(b));
            yXor.set(a.xor(b));
            yNot.set(a.not());
            yAndNot.set(a.andNot(b));
            yEq.set(a.eq(b));
            yNe.set(a.ne(b));
            yConst.set(true);
        }
    }

    @Test
    void boolOperations() {
        String sv = Emit.sv(BoolLogic::new);
        assertLine(sv, "assign y_and = a & b;");
        assertLine(sv, "assign y_or = a | b;");
        assertLine(sv, "assign y_xor = a ^ b;");
        assertLine(sv, "assign y_not = ~a;");
        assertLine(sv, "assign y_and_not = a & (~b);");
        assertLine(sv, "assign y_eq = a == b;");
        assertLine(sv, "assign y_ne = a != b;");
        assertLine(sv, "assign y_const = 1'b1;");
        assertLine(sv, "input  wire logic a,");
        assertLine(sv, "output logic      y_const");
    }

    static final class BitsLogic extends Component {
        final Bits p = in(bits(8));
        final Bits q = in(bits(8));
        final Bits yAnd = out(bits(8));
        final Bits yOr = out(bits(8));
        final Bits yXor = out(bits(8));
        final Bits yNot = out(bits(8));
        final Bool yEq = out(bool());
        final Bool yNeLit = out(bool());
        final Bits nested = out(bits(8));

        BitsLogic() {
            yAnd.set(p.and(q));
            yOr.set(p.or(q));
            yXor.set(p.xor(q));
            yNot.set(p.not());
            yEq.set(p.eq(q));
            yNeLit.set(p.ne(0x5A));
            nested.set(p.and(q).or(p.not()));
        }
    }

    @Test
    void bitsOperationsKeepTheWidth() {
        String sv = Emit.sv(BitsLogic::new);
        assertLine(sv, "assign y_and = p & q;");
        assertLine(sv, "assign y_or = p | q;");
        assertLine(sv, "assign y_xor = p ^ q;");
        assertLine(sv, "assign y_not = ~p;");
        assertLine(sv, "assign y_eq = p == q;");
        assertLine(sv, "assign y_ne_lit = p != 8'd90;");
        assertLine(sv, "assign nested = (p & q) | (~p);");
        assertLine(sv, "output logic      [7:0] y_and,");
    }

    static final class Reductions extends Component {
        final Bits p = in(bits(8));
        final Bool rAnd = out(bool());
        final Bool rOr = out(bool());
        final Bool rXor = out(bool());

        Reductions() {
            rAnd.set(p.andR());
            rOr.set(p.orR());
            rXor.set(p.xorR());
        }
    }

    @Test
    void reductions() {
        String sv = Emit.sv(Reductions::new);
        assertLine(sv, "assign r_and = &p;");
        assertLine(sv, "assign r_or = |p;");
        assertLine(sv, "assign r_xor = ^p;");
    }

    static final class MuxCatRepeat extends Component {
        final Bool sel = in(bool());
        final Bool a = in(bool());
        final Bits p = in(bits(8));
        final Bits q = in(bits(8));
        final Bits m = out(bits(8));
        final Bool mb = out(bool());
        final Bits c2 = out(bits(16));
        final Bits c3 = out(bits(17));
        final Bits rep = out(bits(4));
        final Bits rep2 = out(bits(16));
        final Bits one = out(bits(8));

        MuxCatRepeat() {
            m.set(mux(sel, p, q));
            mb.set(mux(sel.not(), a, sel));
            c2.set(cat(p, q));
            c3.set(cat(a, p, q));
            rep.set(repeat(a, 4));
            rep2.set(repeat(p, 2));
            one.set(cat(p));
        }
    }

    @Test
    void muxConcatenationAndRepeat() {
        String sv = Emit.sv(MuxCatRepeat::new);
        assertLine(sv, "assign m = sel ? p : q;");
        assertLine(sv, "assign mb = (~sel) ? a : sel;");
        assertLine(sv, "assign c2 = {p, q};");
        assertLine(sv, "assign c3 = {a, p, q};");
        assertLine(sv, "assign rep = {4{a}};");
        assertLine(sv, "assign rep2 = {2{p}};");
        assertLine(sv, "assign one = p;");
    }

    @Test
    void concatenationIsMostSignificantFirstInTheIr() {
        Design d = Emit.elaborate(MuxCatRepeat::new);
        MuxCatRepeat top = (MuxCatRepeat) d.top();
        Op cat = (Op) ((dev.sue.hdl.ir.Assign) top.ir().body().statements().get(3)).value();
        assertEquals(OpKind.CONCAT, cat.kind());
        assertEquals(17, cat.width());
        assertEquals(List.of("a", "p", "q"), cat.args().stream().map(n -> ((Signal) n).name()).toList());
    }
}
