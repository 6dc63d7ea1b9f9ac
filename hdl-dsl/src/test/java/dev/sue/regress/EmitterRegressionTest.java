// SPDX-License-Identifier: Apache-2.0
package dev.sue.regress;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.demo.Alu;
import dev.sue.hdl.demo.AluOp;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.EmittedModule;
import dev.sue.hdl.emit.SvEmitter;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Regressions for emitter bugs found by the cocotb semantics tests (verif/tests/operator_zoo,
 * clocking_zoo): each builds the smallest design that showed the bug and checks the emitted
 * text. The cocotb tests check behaviour; these fail fast, without a simulator. (Outside the
 * dev.sue.hdl packages on purpose: source locations skip the DSL core's own frames.)
 */
class EmitterRegressionTest {
    private static String top(Supplier<? extends Component> factory) {
        EmittedDesign d = new SvEmitter().emit(Elaboration.elaborate(factory));
        return d.modules().stream().filter(m -> m.name().equals(d.topModule())).map(EmittedModule::text)
                .findFirst().orElseThrow();
    }

    private static int count(String text, String needle) {
        return text.split(Pattern.quote(needle), -1).length - 1;
    }

    /** Ports viewed through Vec.of(list) keep their field names. */
    static final class VecOfPorts extends Component {
        public final UInt a = in(uint(8));
        public final UInt b = in(uint(8));
        public final UInt idx = in(uint(1));
        public final UInt y = out(uint(8));

        VecOfPorts() {
            y.set(Vec.of(List.of(a, b)).get(idx));
        }
    }

    @Test
    void vecOfListKeepsPortNames() {
        String sv = top(VecOfPorts::new);
        assertTrue(sv.contains("input  wire logic [7:0] a,"), sv);
        assertTrue(sv.contains("input  wire logic [7:0] b,"), sv);
    }

    /** Two conditionally assigned outputs. */
    static final class TwoCombs extends Component {
        public final Bool c = in(bool());
        public final UInt a = in(uint(4));
        public final UInt x = out(uint(4));
        public final UInt y = out(uint(4));

        TwoCombs() {
            x.set(0);
            when(c, () -> x.set(a));
            y.set(a);
            when(c, () -> y.set(0));
        }
    }

    @Test
    void eachAlwaysCombHoldsItsOwnSignal() {
        String sv = top(TwoCombs::new);
        assertEquals(2, count(sv, "always_comb"), sv);
        assertEquals(2, count(sv, " x = "), sv);
        assertEquals(2, count(sv, " y = "), sv);
    }

    /** bit(UInt) of a 1-bit value, of a 1-bit expression and of a literal. */
    static final class OneBitSelect extends Component {
        public final UInt a = in(uint(1));
        public final UInt b = in(uint(1));
        public final UInt idx = in(uint(1));
        public final UInt idx3 = in(uint(3));
        public final Bool y = out(bool());
        public final Bool z = out(bool());
        public final Bool l = out(bool());

        OneBitSelect() {
            y.set(a.bit(idx));
            z.set(a.xor(b).bit(idx));
            l.set(U(0x5A, 8).bit(idx3));
        }
    }

    @Test
    void bitSelectOfScalarOrLiteralIsLegal() {
        String sv = top(OneBitSelect::new);
        assertTrue(sv.contains("assign y = (a & ~idx);"), sv);
        assertTrue(sv.contains("assign z = ((a ^ b) & ~idx);"), sv);
        assertTrue(sv.contains("assign l = (|(8'd90 & (8'd1 << idx3)));"), sv);
    }

    /** A sum read only through a slice; a named expression nobody reads. */
    static final class SliceOfSum extends Component {
        public final UInt a = in(uint(8));
        public final UInt b = in(uint(8));
        public final UInt y = out(uint(4));

        SliceOfSum() {
            y.set(a.add(b).slice(5, 2));
            a.xor(b).named("debug_xor");
        }
    }

    @Test
    void unreadBitsOfOperationWiresReachUnusedSink() {
        String sv = top(SliceOfSum::new);
        // Exactly the unread bits, in any order: the whole unread named value and both unread ends of the sum.
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("assign unused_ok = \\^\\{(.*)\\};").matcher(sv);
        assertTrue(m.find(), sv);
        java.util.Set<String> parts = new java.util.HashSet<>(java.util.Arrays.asList(m.group(1).split(", ")));
        assertTrue(parts.equals(java.util.Set.of("debug_xor", "add_0[1:0]", "add_0[7:6]"))
                || parts.equals(java.util.Set.of("debug_xor[7:0]", "add_0[1:0]", "add_0[7:6]")), sv);
    }

    /** A memory in a domain with a clock enable. */
    static final class MemWithCe extends Component {
        public final UInt addr = in(uint(2));
        public final Bool we = in(bool());
        public final Bits d = in(bits(8));
        public final Bits q = out(bits(8));

        MemWithCe() {
            ClockDomain cd = ClockDomain.external("g").withClockEnable();
            inDomain(cd, addr);
            inDomain(cd, we);
            inDomain(cd, d);
            Mem<Bits> m = Mem.of(4, 8).named("m");
            withDomain(cd, () -> {
                m.write(addr, d, we);
                q.set(m.readSync(addr, we.not()));
            });
        }
    }

    @Test
    void memoryPortsHonourClockEnable() {
        String sv = top(MemWithCe::new);
        assertTrue(sv.contains("if (g_ce && we) begin"), sv);
        assertTrue(sv.contains("if (g_ce && (~we)) begin"), sv);
    }

    /** Byte-lane writes of literal data and with a literal byte enable. */
    static final class LiteralLanes extends Component {
        public final UInt addr = in(uint(2));
        public final Bool we = in(bool());
        public final Bits be = in(bits(2));
        public final Bits d = in(bits(16));
        public final Bits q = out(bits(16));

        LiteralLanes() {
            Mem<Bits> m = Mem.of(4, 16).named("m");
            m.write(addr, B(0x1234, 16), we, be);
            m.write(addr, d, we.not(), B(1, 2));
            q.set(m.readAsync(addr));
        }
    }

    @Test
    void literalLaneDataIsSelectable() {
        String sv = top(LiteralLanes::new);
        assertFalse(Pattern.compile("'[dh][0-9a-f]+\\[").matcher(sv).find(), sv);
        assertTrue(sv.contains("localparam logic [15:0] M_WDATA_0 = 16'd4660;"), sv);
        assertTrue(sv.contains("<= M_WDATA_0[8*lane +: 8];"), sv);
        assertTrue(sv.contains("if ((~we) && M_WBE_0[lane]) begin"), sv);
    }

    /** An enum literal wired straight to a sub-component's input. */
    static final class LiteralToChild extends Component {
        public final UInt a = in(uint(8));
        public final UInt y = out(uint(8));

        LiteralToChild() {
            Alu alu = instance(() -> new Alu(8));
            alu.op.set(AluOp.SUB);
            alu.a.set(a);
            alu.b.set(U(3, 8));
            y.set(alu.result);
        }
    }

    @Test
    void enumLiteralOnChildInputIsDeclared() {
        String sv = top(LiteralToChild::new);
        assertTrue(sv.contains("localparam logic [1:0] ALU_OP_SUB = 2'd1;"), sv);
        assertTrue(sv.contains(".op     (ALU_OP_SUB),"), sv);
    }
}
