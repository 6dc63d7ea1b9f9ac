// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.dsltest.Sv.assertLines;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.SInt;
import dev.sue.hdl.UInt;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** Registers with and without reset values; regNext/regNextWhen and their names. */
class RegisterTest {
    static final class Regs extends Component {
        final UInt d = in(uint(8));
        final Bool en = in(bool());
        final UInt q1 = out(uint(8));
        final UInt q2 = out(uint(8));
        final Bool flag = out(bool());
        final SInt sq = out(sint(4));
        final UInt big = out(uint(70));
        final UInt counter = reg(uint(8)).init(5);

        Regs() {
            UInt noReset = reg("no_reset", uint(8));
            Bool f = reg("f", bool()).init(true);
            SInt s = reg("s", sint(4)).init(-2);
            UInt wide = reg("wide", uint(70)).init(BigInteger.ONE.shiftLeft(69));
            noReset.set(d);
            counter.set(counter.add(1));
            f.set(en);
            s.set(s.add(1));
            wide.set(wide.shr(1));
            q1.set(noReset);
            q2.set(counter);
            flag.set(f);
            sq.set(s);
            big.set(wide);
        }
    }

    @Test
    void registersWithInitAreResetAndOthersAreNot() {
        String sv = Emit.sv(Regs::new);
        assertLines(sv,
                "always_ff @(posedge clk) begin",
                "if (rst) begin",
                "counter <= 8'd5;",
                "f <= 1'b1;",
                "s <= 4'd14;",
                "wide <= 70'h200000000000000000;",
                "end else begin",
                "counter <= counter + 8'd1;",
                "f <= en;",
                "s <= s + 4'd1;",
                "wide <= wide >> 1;",
                "end",
                "end");
        assertLines(sv,
                "always_ff @(posedge clk) begin",
                "no_reset <= d;",
                "end");
    }

    @Test
    void theIrRecordsResetValuesAndDomains() {
        Design d = Emit.elaborate(Regs::new);
        Regs top = (Regs) d.top();
        Signal counter = top.counter.signal();
        assertEquals(SignalKind.REG, counter.kind());
        assertEquals(BigInteger.valueOf(5), counter.init().value());
        assertEquals(d.options().defaultDomain(), counter.domain());
        Signal noReset = top.ir().signals().stream().filter(s -> "no_reset".equals(s.name())).findFirst().orElseThrow();
        assertNull(noReset.init());
    }

    static final class Pipes extends Component {
        final UInt data = in(uint(8));
        final Bool en = in(bool());
        final UInt q = out(uint(8));
        final UInt qq = out(uint(8));
        final UInt held = out(uint(8));
        final UInt sumOut = out(uint(8));

        Pipes() {
            UInt d1 = regNext(data);
            q.set(d1);
            qq.set(regNext(d1));
            held.set(regNextWhen(data, en));
            UInt sum = data.add(1).named("sum");
            sumOut.set(regNext(sum));
        }
    }

    @Test
    void regNextAndRegNextWhenAreNamedAfterTheirSource() {
        String sv = Emit.sv(Pipes::new);
        assertLine(sv, "logic [7:0] data_d1;");
        assertLine(sv, "logic [7:0] data_d1_d1;");
        assertLine(sv, "logic [7:0] data_reg;");
        assertLine(sv, "logic [7:0] sum_d1;");
        assertLines(sv,
                "always_ff @(posedge clk) begin",
                "data_d1 <= data;",
                "data_d1_d1 <= data_d1;",
                "if (en) begin",
                "data_reg <= data;",
                "end",
                "sum_d1 <= sum;",
                "end");
        assertLine(sv, "assign sum = data + 8'd1;");
        assertLine(sv, "assign held = data_reg;");
    }
}
