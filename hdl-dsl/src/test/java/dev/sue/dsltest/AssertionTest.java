// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertContains;
import static dev.sue.dsltest.Sv.assertLines;
import static dev.sue.dsltest.Sv.assertNotContains;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.sue.hdl.Bool;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.ClockDomain.Reset;
import dev.sue.hdl.Component;
import dev.sue.hdl.ElaborationOptions;
import dev.sue.hdl.UInt;
import dev.sue.hdl.ir.Assertion;
import java.util.List;
import org.junit.jupiter.api.Test;

/** assertThat/assume/cover, inside when, assertInReset; placement and messages. */
class AssertionTest {
    static final class Checked extends Component {
        final Bool valid = in(bool());
        final Bool ready = in(bool());
        final UInt level = in(uint(4));
        final Bool busy = out(bool());

        Checked() {
            busy.set(valid.andNot(ready));
            assertThat(level.le(8), "level at most 8"); // MARK:assert
            assume(valid.or(ready.not()), "ready only with \"valid\""); // MARK:assume
            cover(valid.and(ready), "a transfer"); // MARK:cover
            when(valid, () -> assertThat(level.ne(0), "valid needs a level")); // MARK:guarded
            assertInReset(busy.not(), "not busy in reset"); // MARK:reset
        }
    }

    private static String at(String mark) {
        return Marks.at(AssertionTest.class, mark);
    }

    @Test
    void assertionsAreImmediateSvaInAClockedBlockOutsideReset() {
        String sv = Emit.sv(Checked::new);
        assertLines(sv,
                "`else",
                "always @(posedge clk) begin",
                "if (!rst) begin",
                "assert (level <= 4'd8) else $error(\"level at most 8 (" + at("assert") + ")\");",
                "assume (valid | (~ready)) else $error(\"ready only with 'valid' (" + at("assume") + ")\");",
                "cover (valid & ready);",
                "if (valid) begin",
                "assert (level != 4'd0) else $error(\"valid needs a level (" + at("guarded") + ")\");",
                "end",
                "end",
                "end");
    }

    @Test
    void assertInResetIsCheckedOnlyWhileResetIsAsserted() {
        String sv = Emit.sv(Checked::new);
        assertLines(sv,
                "always @(posedge clk) begin",
                "if (rst) begin",
                "assert (~busy) else $error(\"not busy in reset (" + at("reset") + ")\");",
                "end",
                "end",
                "`endif");
    }

    @Test
    void formalToolsGetLabelledStatementsWithoutActionBlocks() {
        // yosys read -formal parses no action block; the label names a failed property in sby.
        String sv = Emit.sv(Checked::new);
        assertLines(sv,
                "`ifndef SYNTHESIS",
                "`ifdef FORMAL",
                "always @(posedge clk) begin",
                "if (!rst) begin",
                "assert_level_at_most_8: assert (level <= 4'd8);",
                "assume_ready_only_with_valid: assume (valid | (~ready));",
                "cover (valid & ready);",
                "if (valid) begin",
                "assert_valid_needs_a_level: assert (level != 4'd0);",
                "end",
                "end",
                "end");
        // The message stays beside the statement, where a counterexample's line points.
        assertContains(sv, "assert_level_at_most_8: assert (level <= 4'd8);  // level at most 8 (" + at("assert") + ")\n");
    }

    @Test
    void formalResetAssertionsSkipTheArbitraryInitialState() {
        // Before the first reset edge a formal tool's registers hold anything.
        assertLines(Emit.sv(Checked::new),
                "always @(posedge clk) begin",
                "if (rst && !$initstate) begin",
                "assert_not_busy_in_reset: assert (~busy);",
                "end",
                "end",
                "`else");
    }

    static final class Repeated extends Component {
        final Bool a = in(bool());
        final Bool b = in(bool());

        Repeated() {
            assertThat(a, "must hold");
            assertThat(b, "must hold");
            assertThat(a.or(b), "!!!");
        }
    }

    @Test
    void formalLabelsAreUniqueLegalIdentifiers() {
        String sv = Emit.sv(Repeated::new);
        assertContains(sv, "assert_must_hold: assert (a);");
        assertContains(sv, "assert_must_hold_2: assert (b);");
        assertContains(sv, "assert_property: assert (a | b);");
    }

    @Test
    void eachAssertionCarriesItsSourceLine() {
        String sv = Emit.sv(Checked::new);
        assertContains(sv, "cover (valid & ready);  // " + at("cover") + "\n");
    }

    @Test
    void theIrRecordsKindEnableAndDomain() {
        Checked top = (Checked) Emit.elaborate(Checked::new).top();
        List<Assertion> a = top.ir().assertions();
        assertEquals(5, a.size());
        assertEquals(List.of(Assertion.Kind.ASSERT, Assertion.Kind.ASSUME, Assertion.Kind.COVER, Assertion.Kind.ASSERT,
                Assertion.Kind.ASSERT), a.stream().map(Assertion::kind).toList());
        assertNull(a.get(0).enable());
        assertEquals(top.valid.signal(), a.get(3).enable());
        assertEquals(true, a.get(4).duringReset());
        assertEquals("ready only with 'valid'", a.get(1).message());
        assertEquals(Marks.line(AssertionTest.class, "guarded"), a.get(3).location().line());
    }

    @Test
    void activeLowResetInvertsTheGuards() {
        String sv = Emit.sv(new ElaborationOptions(ClockDomain.external("").withReset(Reset.ASYNC, true)), Checked::new);
        assertLines(sv, "always @(posedge clk) begin", "if (rst_n) begin", "assert (level <= 4'd8)"
                + " else $error(\"level at most 8 (" + at("assert") + ")\");");
        assertLines(sv, "always @(posedge clk) begin", "if (!rst_n) begin", "assert (~busy) else $error(\"not busy in reset ("
                + at("reset") + ")\");");
    }

    @Test
    void withoutResetAssertionsAlwaysApplyAndResetAssertionsAreDropped() {
        String sv = Emit.sv(new ElaborationOptions(ClockDomain.external("").withReset(Reset.NONE, false)), Checked::new);
        assertLines(sv, "always @(posedge clk) begin", "assert (level <= 4'd8)"
                + " else $error(\"level at most 8 (" + at("assert") + ")\");");
        assertNotContains(sv, "not busy in reset");
    }

    static final class Awkward extends Component {
        final Bool a = in(bool());

        Awkward() {
            assertThat(a, "100% \"sure\"\\ \nsecond line"); // MARK:awkward
        }
    }

    @Test
    void messagesBecomeSafeStringLiterals() {
        // %, quotes, backslashes and line breaks would end or corrupt the $error format string.
        Sv.assertLine(Emit.sv(Awkward::new), "assert (a) else $error(\"100%% 'sure'/  second line ("
                + at("awkward") + ")\");");
    }
}
