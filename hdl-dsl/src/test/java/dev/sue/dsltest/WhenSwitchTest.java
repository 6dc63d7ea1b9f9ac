// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.dsltest.Sv.assertLines;
import static dev.sue.dsltest.Sv.assertNoLine;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.EnumType;
import dev.sue.hdl.HwEnum;
import dev.sue.hdl.SInt;
import dev.sue.hdl.UInt;
import dev.sue.hdl.ir.SwitchStmt;
import dev.sue.hdl.ir.WhenStmt;
import org.junit.jupiter.api.Test;

/** when/elseWhen/otherwise and switchOn/is/otherwise, for wires, outputs and registers. */
class WhenSwitchTest {
    static final class Chain extends Component {
        final Bool c1 = in(bool());
        final Bool c2 = in(bool());
        final UInt a = in(uint(8));
        final UInt b = in(uint(8));
        final UInt y = out(uint(8));
        final UInt z = out(uint(8));

        Chain() {
            y.set(0);
            when(c1, () -> y.set(a))
                    .elseWhen(c2, () -> y.set(b))
                    .otherwise(() -> y.set(a.add(b)));
            when(c1.and(c2), () -> z.set(a)).otherwise(() -> z.set(b));
        }
    }

    @Test
    void whenElseWhenOtherwiseBecomesIfElseIfElseInAlwaysComb() {
        String sv = Emit.sv(Chain::new);
        assertLines(sv,
                "always_comb begin",
                "y = 8'd0;",
                "if (c1) begin",
                "y = a;",
                "end else if (c2) begin",
                "y = b;",
                "end else begin",
                "y = a + b;",
                "end",
                "end");
        assertLines(sv,
                "always_comb begin",
                "if (c1 & c2) begin",
                "z = a;",
                "end else begin",
                "z = b;",
                "end",
                "end");
    }

    @Test
    void eachConditionalSignalGetsItsOwnProcessWithOnlyItsStatements() {
        String sv = Emit.sv(Chain::new);
        int y = sv.indexOf("y = 8'd0;");
        int z = sv.indexOf("if (c1 & c2) begin");
        String yBlock = sv.substring(y, z);
        Sv.assertNotContains(yBlock, "z =");
    }

    @Test
    void theIrKeepsTheStatementStructure() {
        Design d = Emit.elaborate(Chain::new);
        var stmts = d.top().ir().body().statements();
        assertEquals(3, stmts.size());
        WhenStmt w = assertInstanceOf(WhenStmt.class, stmts.get(1));
        WhenStmt nested = assertInstanceOf(WhenStmt.class, w.elseBlock().statements().get(0));
        assertEquals(1, nested.elseBlock().statements().size());
    }

    static final class Nested extends Component {
        final Bool c1 = in(bool());
        final Bool c2 = in(bool());
        final UInt a = in(uint(4));
        final UInt count = out(uint(4));
        final Bool flag = out(bool());

        Nested() {
            UInt r = reg("r", uint(4)).init(0);
            flag.set(false);
            when(c1, () -> {
                when(c2, () -> {
                    r.set(a);
                    flag.set(true);
                });
            });
            count.set(r);
        }
    }

    @Test
    void nestedWhenAndRegistersKeepTheirValueOnOtherPaths() {
        String sv = Emit.sv(Nested::new);
        assertLines(sv,
                "end else begin",
                "if (c1) begin",
                "if (c2) begin",
                "r <= a;",
                "end",
                "end",
                "end");
        assertLines(sv,
                "always_comb begin",
                "flag = 1'b0;",
                "if (c1) begin",
                "if (c2) begin",
                "flag = 1'b1;",
                "end",
                "end",
                "end");
    }

    static final class SwitchUInt extends Component {
        final UInt sel = in(uint(2));
        final UInt a = in(uint(8));
        final UInt y = out(uint(8));

        SwitchUInt() {
            switchOn(sel, s -> s
                    .is(0, () -> y.set(a))
                    .isAny(new long[] {1, 2}, () -> y.set(a.add(1)))
                    .otherwise(() -> y.set(0)));
        }
    }

    @Test
    void switchOnBecomesCase() {
        String sv = Emit.sv(SwitchUInt::new);
        assertLines(sv,
                "always_comb begin",
                "case (sel)",
                "2'd0: begin",
                "y = a;",
                "end",
                "2'd1, 2'd2: begin",
                "y = a + 8'd1;",
                "end",
                "default: begin",
                "y = 8'd0;",
                "end",
                "endcase",
                "end");
    }

    static final class FullSwitch extends Component {
        final UInt sel = in(uint(1));
        final UInt a = in(uint(8));
        final UInt y = out(uint(8));

        FullSwitch() {
            switchOn(sel, s -> s.is(0, () -> y.set(a)).is(1, () -> y.set(a.not())));
        }
    }

    @Test
    void aSwitchCoveringEveryValueNeedsNoDefault() {
        String sv = Emit.sv(FullSwitch::new);
        assertLine(sv, "1'b1: begin");
        assertNoLine(sv, "default: begin");
        SwitchStmt sw = (SwitchStmt) Emit.elaborate(FullSwitch::new).top().ir().body().statements().get(0);
        assertEquals(true, sw.isFull());
    }

    static final class SignedSwitch extends Component {
        final SInt sel = in(sint(3));
        final UInt y = out(uint(2));

        SignedSwitch() {
            y.set(0);
            switchOn(sel, s -> s.is(-1, () -> y.set(1)).is(3, () -> y.set(2)));
        }
    }

    @Test
    void signedCaseValuesAreTheirBitPatterns() {
        String sv = Emit.sv(SignedSwitch::new);
        assertLine(sv, "3'd7: begin");
        assertLine(sv, "3'd3: begin");
    }

    enum Cmd { STOP, GO, WAIT }

    static final EnumType<Cmd> CMD = EnumType.of(Cmd.class);

    static final class EnumSwitch extends Component {
        final HwEnum<Cmd> cmd = in(enumOf(CMD));
        final UInt y = out(uint(4));

        EnumSwitch() {
            UInt r = reg("r", uint(4)).init(0);
            switchOn(cmd, s -> s
                    .is(Cmd.GO, () -> r.set(r.add(1)))
                    .is(Cmd.STOP, () -> r.set(0)));
            y.set(r);
        }
    }

    @Test
    void enumCasesUseTheLocalparams() {
        String sv = Emit.sv(EnumSwitch::new);
        assertLine(sv, "localparam logic [1:0] CMD_GO = 2'd1;");
        assertLines(sv,
                "case (cmd)",
                "CMD_GO: begin",
                "r <= r + 4'd1;",
                "end",
                "CMD_STOP: begin",
                "r <= 4'd0;",
                "end",
                "default: begin",
                "end",
                "endcase");
    }

    static final class SwitchInWhen extends Component {
        final Bool en = in(bool());
        final UInt sel = in(uint(2));
        final UInt y = out(uint(3));

        SwitchInWhen() {
            y.set(0);
            when(en, () -> switchOn(sel, s -> s.is(3, () -> y.set(7)).otherwise(() -> y.set(1))));
        }
    }

    @Test
    void switchInsideWhen() {
        String sv = Emit.sv(SwitchInWhen::new);
        assertLines(sv,
                "y = 3'd0;",
                "if (en) begin",
                "case (sel)",
                "2'd3: begin",
                "y = 3'd7;",
                "end",
                "default: begin",
                "y = 3'd1;",
                "end",
                "endcase",
                "end");
    }
}
