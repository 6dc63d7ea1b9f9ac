// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.dsltest.Sv.assertLines;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.ir.MemoryIr;
import org.junit.jupiter.api.Test;

/** Memories: synchronous and asynchronous reads, plain and byte-enable writes, naming. */
class MemTest {
    static final class Ram extends Component {
        final UInt waddr = in(uint(4));
        final Bits wdata = in(bits(32));
        final Bool we = in(bool());
        final Bits be = in(bits(4));
        final UInt raddr = in(uint(4));
        final Bool re = in(bool());
        final Bits rdata = out(bits(32));
        final Bits adata = out(bits(32));
        final Mem<Bits> store = Mem.of(16, 32);

        Ram() {
            store.write(waddr, wdata, we, be);
            rdata.set(store.readSync(raddr, re));
            adata.set(store.readAsync(waddr));
        }
    }

    @Test
    void byteEnableWriteSyncAndAsyncReads() {
        String sv = Emit.sv(Ram::new);
        assertLine(sv, "logic [31:0] store [0:15];");
        assertLines(sv,
                "always_ff @(posedge clk) begin",
                "for (int lane = 0; lane < 4; lane++) begin",
                "if (we && be[lane]) begin",
                "store[waddr][8*lane +: 8] <= wdata[8*lane +: 8];",
                "end",
                "end",
                "end");
        assertLines(sv,
                "always_ff @(posedge clk) begin",
                "if (re) begin",
                "store_rdata_0 <= store[raddr];",
                "end",
                "end");
        assertLine(sv, "assign store_rdata_1 = store[waddr];");
        assertLine(sv, "assign rdata = store_rdata_0;");
        assertLine(sv, "assign adata = store_rdata_1;");
    }

    @Test
    void theIrHasTheMemoryAndItsPorts() {
        Ram top = (Ram) Emit.elaborate(Ram::new).top();
        MemoryIr m = top.ir().memories().get(0);
        assertEquals("store", m.name());
        assertEquals(16, m.depth());
        assertEquals(32, m.width());
        assertEquals(4, m.addressWidth());
        assertEquals(1, m.writes().size());
        assertEquals(2, m.reads().size());
        assertEquals(true, m.reads().get(0).isSync());
        assertEquals(false, m.reads().get(1).isSync());
    }

    static final class GuardedRam extends Component {
        final UInt addr = in(uint(3));
        final Bits data = in(bits(8));
        final Bool go = in(bool());
        final Bool we = in(bool());
        final Bits q = out(bits(8));

        GuardedRam() {
            Mem<Bits> m = Mem.of(8, 8).named("regfile");
            when(go, () -> m.write(addr, data, we));
            q.set(m.readSync(addr));
        }
    }

    @Test
    void portsCreatedInsideWhenAreEnabledOnlyThere() {
        String sv = Emit.sv(GuardedRam::new);
        assertLines(sv,
                "always_ff @(posedge clk) begin",
                "if (we & go) begin",
                "regfile[addr] <= data;",
                "end",
                "end");
        assertLines(sv,
                "always_ff @(posedge clk) begin",
                "regfile_rdata <= regfile[addr];",
                "end");
    }

    static final class ByteLaneExpr extends Component {
        final UInt addr = in(uint(1));
        final Bits data = in(bits(16));
        final Bits be = in(bits(2));
        final Bits q = out(bits(16));

        ByteLaneExpr() {
            Mem<Bits> m = Mem.of(2, 16); // MARK:anon-mem
            m.write(addr, data.not(), TRUE, be.not());
            q.set(m.readAsync(addr));
        }
    }

    @Test
    void byteEnableOperandsThatAreExpressionsGoThroughTemporaries() {
        String sv = Emit.sv(ByteLaneExpr::new);
        assertLine(sv, "assign not_0 = ~data;");
        assertLine(sv, "assign not_1 = ~be;");
        assertLine(sv, "if (not_1[lane]) begin");
        String mem = "mem_" + Marks.line(MemTest.class, "anon-mem");
        assertLine(sv, mem + "[addr][8*lane +: 8] <= not_0[8*lane +: 8];");
    }

    @Test
    void anUnnamedLocalMemoryIsNamedAfterItsLine() {
        String mem = "mem_" + Marks.line(MemTest.class, "anon-mem");
        String sv = Emit.sv(ByteLaneExpr::new);
        assertLine(sv, "logic [15:0] " + mem + " [0:1];");
        assertLine(sv, "assign " + mem + "_rdata = " + mem + "[addr];");
    }

    @Test
    void aClockEnableGatesMemoryPortsLikeRegisters() {
        // A write or registered read in a domain with a clock enable must not act while ce is low.
        String sv = Emit.sv(new dev.sue.hdl.ElaborationOptions(dev.sue.hdl.ClockDomain.external("").withClockEnable()),
                Ram::new);
        assertLine(sv, "if (ce && we && be[lane]) begin");
        assertLines(sv,
                "always_ff @(posedge clk) begin",
                "if (ce && re) begin",
                "store_rdata_0 <= store[raddr];",
                "end",
                "end");
    }

    static final class MuxEnable extends Component {
        final Bool sel = in(bool());
        final Bool a = in(bool());
        final Bool b = in(bool());
        final UInt addr = in(uint(2));
        final Bits data = in(bits(16));
        final Bits be = in(bits(2));
        final Bits q = out(bits(16));

        MuxEnable() {
            Mem<Bits> m = Mem.of(4, 16).named("m");
            m.write(addr, data, mux(sel, a, b), be);
            q.set(m.readAsync(addr));
        }
    }

    @Test
    void anEnableExpressionIsParenthesisedBeforeTheByteLaneTest() {
        // Without parentheses, "sel ? a : b && be[lane]" would parse as "sel ? a : (b && be[lane])".
        assertLine(Emit.sv(MuxEnable::new), "if ((sel ? a : b) && be[lane]) begin");
    }
}
