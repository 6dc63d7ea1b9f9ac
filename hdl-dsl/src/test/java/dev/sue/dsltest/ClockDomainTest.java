// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertContains;
import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.dsltest.Sv.assertLines;
import static dev.sue.dsltest.Sv.assertNotContains;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bool;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.ClockDomain.Reset;
import dev.sue.hdl.Component;
import dev.sue.hdl.ElaborationOptions;
import dev.sue.hdl.UInt;
import dev.sue.hdl.emit.EmittedDesign;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Clock domains: reset styles, clock enables, several domains, automatic routing to children. */
class ClockDomainTest {
    static final class Counter extends Component {
        final Bool en = in(bool());
        final UInt count = out(uint(4));

        Counter() {
            UInt r = reg("r", uint(4)).init(0);
            when(en, () -> r.set(r.add(1)));
            count.set(r);
        }
    }

    private static ElaborationOptions domain(ClockDomain d) {
        return new ElaborationOptions(d);
    }

    @Test
    void defaultDomainIsClkWithSynchronousActiveHighRst() {
        String sv = Emit.sv(Counter::new);
        assertLines(sv, "input  wire logic       clk,", "input  wire logic       rst,");
        assertLines(sv, "always_ff @(posedge clk) begin", "if (rst) begin", "r <= 4'd0;", "end else begin");
        assertContains(sv, "//   clk: sync reset rst (active high)\n");
    }

    @Test
    void asynchronousActiveLowReset() {
        String sv = Emit.sv(domain(ClockDomain.external("").withReset(Reset.ASYNC, true)), Counter::new);
        assertLine(sv, "input  wire logic       rst_n,");
        assertLines(sv, "always_ff @(posedge clk or negedge rst_n) begin", "if (!rst_n) begin", "r <= 4'd0;");
        assertContains(sv, "//   clk: async reset rst_n (active low)\n");
    }

    @Test
    void asynchronousActiveHighAndSynchronousActiveLowResets() {
        String asyncHigh = Emit.sv(domain(ClockDomain.external("").withReset(Reset.ASYNC, false)), Counter::new);
        assertLines(asyncHigh, "always_ff @(posedge clk or posedge rst) begin", "if (rst) begin");
        String syncLow = Emit.sv(domain(ClockDomain.external("").withReset(Reset.SYNC, true)), Counter::new);
        assertLines(syncLow, "always_ff @(posedge clk) begin", "if (!rst_n) begin");
    }

    @Test
    void clockEnableGatesEveryRegisterUpdateButNotTheReset() {
        String sv = Emit.sv(domain(ClockDomain.external("").withClockEnable()), Counter::new);
        assertLine(sv, "input  wire logic       ce,");
        assertLines(sv,
                "always_ff @(posedge clk) begin",
                "if (rst) begin",
                "r <= 4'd0;",
                "end else if (ce) begin",
                "if (en) begin",
                "r <= r + 4'd1;",
                "end",
                "end",
                "end");
        assertContains(sv, "//   clk: sync reset rst (active high), clock enable ce\n");
    }

    static final class FreeCounter extends Component {
        final Bool en = in(bool());
        final UInt count = out(uint(4));

        FreeCounter() {
            UInt r = reg("r", uint(4));
            when(en, () -> r.set(r.add(1)));
            count.set(r);
        }
    }

    @Test
    void domainWithoutResetHasNoResetPort() {
        String sv = Emit.sv(domain(ClockDomain.external("").withReset(Reset.NONE, false)), FreeCounter::new);
        assertNotContains(sv, "rst");
        assertLines(sv, "always_ff @(posedge clk) begin", "if (en) begin", "r <= r + 4'd1;");
        assertContains(sv, "//   clk: no reset\n");
    }

    static final class TwoDomains extends Component {
        static final ClockDomain RX = ClockDomain.external("rx").withReset(Reset.ASYNC, true).withFrequencyMhz(312.5);

        final Bool a = in(bool());
        final Bool b = inDomain(RX, in(bool()));
        final Bool qa = out(bool());
        final Bool qb = out(bool());

        TwoDomains() {
            Bool ra = reg("ra", bool()).init(false);
            ra.set(a);
            withDomain(RX, () -> {
                Bool rb = reg("rb", bool()).init(true);
                rb.set(b);
                qb.set(rb);
                assertEquals(RX, currentDomain());
            });
            qa.set(ra);
        }
    }

    @Test
    void severalDomainsGetTheirOwnPortsAndProcesses() {
        String sv = Emit.sv(TwoDomains::new);
        assertLines(sv,
                "input  wire logic clk,",
                "input  wire logic rst,",
                "input  wire logic rx_clk,",
                "input  wire logic rx_rst_n,");
        assertLines(sv, "always_ff @(posedge clk) begin", "if (rst) begin", "ra <= 1'b0;");
        assertLines(sv, "always_ff @(posedge rx_clk or negedge rx_rst_n) begin", "if (!rx_rst_n) begin", "rb <= 1'b1;");
        assertContains(sv, "//   rx_clk: async reset rx_rst_n (active low)\n");
    }

    @Test
    void theReportListsEveryDomain() {
        Map<String, Object> r = Emit.report(TwoDomains::new);
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> clocks = (List<Map<String, Object>>) r.get("clock_domains");
        assertEquals(2, clocks.size());
        assertEquals("default", clocks.get(0).get("name"));
        assertEquals("rx", clocks.get(1).get("name"));
        assertEquals("rx_clk", clocks.get(1).get("clock"));
        assertEquals("rx_rst_n", clocks.get(1).get("reset"));
        assertEquals("async", clocks.get(1).get("reset_kind"));
        assertEquals(true, clocks.get(1).get("reset_active_low"));
        assertEquals(312.5, clocks.get(1).get("frequency_mhz"));
        assertEquals(null, clocks.get(0).get("frequency_mhz"));
    }

    static final class Wrapper extends Component {
        final Bool en = in(bool());
        final UInt count = out(uint(4));
        final UInt rxCount = out(uint(4));

        Wrapper() {
            Counter c = instance("main_counter", Counter::new);
            c.en.set(en);
            count.set(c.count);
            withDomain(ClockDomain.external("rx"), () -> {
                Counter rc = instance("rx_counter", Counter::new);
                rc.en.set(TRUE);
                rxCount.set(rc.count);
            });
        }
    }

    @Test
    void clockAndResetAreRoutedToChildrenAutomatically() {
        EmittedDesign d = Emit.design(Wrapper::new);
        String top = Emit.module(d, "wrapper");
        assertLines(top,
                "input  wire logic       clk,",
                "input  wire logic       rst,",
                "input  wire logic       rx_clk,",
                "input  wire logic       rx_rst,");
        assertLines(top, "counter main_counter (", ".clk (clk),", ".rst (rst),", ".en  (en),");
        // The same class in another domain has other clock ports, so it is another module.
        assertLines(top, "counter_2 rx_counter (", ".rx_clk (rx_clk),", ".rx_rst (rx_rst),", ".en     (1'b1),");
        String child = Emit.module(d, "counter_2");
        assertLine(child, "always_ff @(posedge rx_clk) begin");
    }

    static final class Deep extends Component {
        final UInt count = out(uint(4));

        Deep() {
            Wrapper w = instance(Wrapper::new);
            w.en.set(TRUE);
            count.set(w.count.xor(w.rxCount));
        }
    }

    @Test
    void routingCrossesLevelsThatHaveNoRegisters() {
        EmittedDesign d = Emit.design(Deep::new);
        String top = Emit.module(d, "deep");
        assertLines(top,
                "input  wire logic       clk,",
                "input  wire logic       rst,",
                "input  wire logic       rx_clk,",
                "input  wire logic       rx_rst,");
        assertLines(top, "wrapper wrapper_0 (", ".clk    (clk),", ".rst    (rst),", ".rx_clk (rx_clk),", ".rx_rst (rx_rst),");
    }
}
