// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.ElaborationOptions;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.timing.DepthPath;
import dev.sue.hdl.timing.DepthReport;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The logic-depth estimate on small designs whose depth after LUT6 mapping is known by hand:
 * a LUT6 takes 6 inputs, a carry chain costs one propagate LUT and 0.25 per CARRY4 of 4 bits.
 */
class DepthEstimateTest {
    private static DepthReport depth(Supplier<? extends Component> top) {
        return Emit.elaborate(ElaborationOptions.defaults().withDepth(10, null), top).depth();
    }

    /** The worst path's step names, start first. */
    private static List<String> names(DepthPath p) {
        return p.steps().stream().map(DepthPath.Step::signal).toList();
    }

    static final class WideAnd extends Component {
        final Bool y = out(bool());

        WideAnd(int bits) {
            Bits a = reg("a", bits(bits));
            a.set(in(bits(bits)).named("a_in"));
            Bool r = reg("r", bool());
            r.set(a.andR());
            y.set(r);
        }
    }

    @Test
    void aTwelveInputAndIsTwoLevelsASixInputOneOne() {
        assertEquals(2.0, depth(() -> new WideAnd(12)).worstLevels());
        assertEquals(1.0, depth(() -> new WideAnd(6)).worstLevels());
        assertEquals(2.0, depth(() -> new WideAnd(36)).worstLevels());
        assertEquals(3.0, depth(() -> new WideAnd(37)).worstLevels());
    }

    /** An OR accumulated bit by bit in a Java loop: a chain of two-input ORs in the IR. */
    static final class LoopOr extends Component {
        final Bool y = out(bool());

        LoopOr(int bits) {
            Bits a = reg("a", bits(bits));
            a.set(in(bits(bits)).named("a_in"));
            Bool any = a.bit(0);
            for (int i = 1; i < bits; i++) {
                any = any.or(a.bit(i));
            }
            Bool r = reg("r", bool());
            r.set(any);
            y.set(r);
        }
    }

    @Test
    void anOrChainBuiltInALoopIsBalancedLikeAReduction() {
        assertEquals(1.0, depth(() -> new LoopOr(6)).worstLevels());
        assertEquals(2.0, depth(() -> new LoopOr(36)).worstLevels(), "36 inputs: two LUT levels, not one per 5 inputs");
        assertEquals(3.0, depth(() -> new LoopOr(216)).worstLevels());
        assertEquals(depth(() -> new WideAnd(100)).worstLevels(), depth(() -> new LoopOr(100)).worstLevels());
    }

    static final class Adder extends Component {
        final UInt y = out(uint(32));

        Adder() {
            UInt a = reg("a", uint(32));
            UInt b = reg("b", uint(32));
            a.set(in(uint(32)).named("a_in"));
            b.set(in(uint(32)).named("b_in"));
            UInt sum = reg("sum", uint(32));
            sum.set(a.add(b)); // MARK:sum
            y.set(sum);
        }
    }

    @Test
    void aThirtyTwoBitAdderIsOneLutAndEightCarry4() {
        DepthReport r = depth(Adder::new);
        assertEquals(3.0, r.worstLevels());
        DepthPath worst = r.paths().get(0);
        assertEquals("register", worst.end());
        assertEquals("sum", names(worst).get(names(worst).size() - 1));
        assertEquals(Marks.line(Adder.class, "sum"), worst.steps().get(worst.steps().size() - 1).location().line());
    }

    static final class MuxTree extends Component {
        final Bits y = out(bits(8));

        MuxTree(int n) {
            Vec<Bits> words = Vec.of(n, i -> reg("w" + i, bits(8)));
            for (int i = 0; i < n; i++) {
                words.get(i).set(in(bits(8)).named("w" + i + "_in"));
            }
            UInt sel = reg("sel", uint(log2Up(n)));
            sel.set(in(uint(log2Up(n))).named("sel_in"));
            Bits q = reg("q", bits(8));
            q.set(words.get(sel));
            y.set(q);
        }
    }

    @Test
    void muxTreesPackFourToOnePerLutUpToSixteenChoices() {
        assertEquals(1.0, depth(() -> new MuxTree(4)).worstLevels(), "4:1 = 6 inputs, one LUT6");
        assertEquals(2.0, depth(() -> new MuxTree(16)).worstLevels(), "16:1 = 20 inputs, two levels");
        // yosys synth_xilinx -nowidelut maps 64:1 and 128:1 of 8-bit registers in 4 levels, as a
        // case or as a shift alike (the 4:1 tree would be 3 and 4)
        assertEquals(4.0, depth(() -> new MuxTree(64)).worstLevels(), "64:1 as ABC maps it");
        assertEquals(4.0, depth(() -> new MuxTree(128)).worstLevels(), "128:1");
    }

    static final class Inner extends Component {
        final Bits a = in(bits(3));
        final Bool y = out(bool());

        Inner() {
            y.set(a.andR()); // MARK:inner-y
        }
    }

    static final class Outer extends Component {
        final Bool q = out(bool());

        Outer() {
            Bits a = reg("a", bits(3));
            a.set(in(bits(3)).named("a_in"));
            Bool b = reg("b", bool());
            b.set(in(bool()).named("b_in"));
            Inner inner = instance("inner", Inner::new);
            inner.a.set(a); // MARK:inner-a
            Bool r = reg("r", bool());
            r.set(inner.y.and(b)); // MARK:outer-r
            q.set(r);
        }
    }

    @Test
    void pathsCrossInstancePortsAndPackAcrossThem() {
        DepthReport r = depth(Outer::new);
        // a0 & a1 & a2 inside the instance and & b outside: 4 inputs, one LUT for the whole path.
        assertEquals(1.0, r.worstLevels());
        DepthPath worst = r.paths().get(0);
        assertEquals(List.of("a", "inner.a", "inner.y", "r"), names(worst));
        String file = Marks.fileOf(Outer.class);
        assertEquals(file, worst.steps().get(2).location().file());
        assertEquals(Marks.line(Inner.class, "inner-a"), worst.steps().get(1).location().line());
        assertEquals(Marks.line(Inner.class, "inner-y"), worst.steps().get(2).location().line());
        assertEquals(Marks.line(Outer.class, "outer-r"), worst.steps().get(3).location().line());
    }

    static final class RamRead extends Component {
        final UInt addr = in(uint(4));
        final Bool q = out(bool());
        final Mem<Bits> store = Mem.of(16, 32);

        RamRead() {
            UInt waddr = reg("waddr", uint(4));
            waddr.set(addr);
            store.write(waddr, B(0, 32), TRUE);
            Bits data = wire("data", bits(32));
            data.set(store.readSync(addr, TRUE));
            Bool r = reg("r", bool());
            r.set(data.orR());
            q.set(r);
        }
    }

    @Test
    void synchronousReadDataStartsAPathAndTheAddressEndsOne() {
        DepthReport r = depth(RamRead::new);
        assertEquals(2.0, r.worstLevels(), "a 32-input OR after the RAM");
        DepthPath worst = r.paths().get(0);
        assertEquals("store_rdata", names(worst).get(0));
        assertTrue(r.paths().stream().anyMatch(p -> p.end().equals("memory write port")), r.text(10));
    }

    /** A LUT RAM (read asynchronously) written under a condition computed from registers. */
    static final class LutRamWrite extends Component {
        final Bits q = out(bits(8));

        LutRamWrite(int words) {
            int ab = Integer.numberOfTrailingZeros(words);
            Mem<Bits> store = Mem.of(words, 8);
            UInt waddr = reg("waddr", uint(ab));
            waddr.set(in(uint(ab)).named("waddr_in"));
            Bits go = reg("go", bits(2));
            go.set(in(bits(2)).named("go_in"));
            store.write(waddr, B(0, 8), go.andR());
            Bits r = reg("r", bits(8));
            r.set(store.readAsync(waddr));
            q.set(r);
        }
    }

    @Test
    void aDeepLutRamsWriteEnablesPassItsBankDecoder() {
        // 64 words: one RAM64 per bit, the enable's AND is its WE: one level. 1024 words: 16
        // primitives, the AND and the bank bits in one LUT, then a second demultiplexer level.
        DepthReport one = depth(() -> new LutRamWrite(64));
        assertTrue(one.paths().stream().noneMatch(p -> p.end().equals("memory write enable")), one.text(10));
        DepthReport deep = depth(() -> new LutRamWrite(1024));
        DepthPath enable = deep.paths().stream().filter(p -> p.end().equals("memory write enable")).findFirst().orElseThrow();
        assertEquals(2.0, enable.levels(), deep.text(10));
    }

    static final class Enabled extends Component {
        final UInt y = out(uint(8));

        Enabled() {
            UInt x = reg("x", uint(8));
            x.set(in(uint(8)).<UInt>named("x_in").not());
            Bool en = reg("en", bool());
            en.set(in(bool()).named("en_in"));
            UInt r = reg("r", uint(8));
            when(en, () -> r.set(x));
            y.set(r);
        }
    }

    @Test
    void aRegisterConditionDrivesItsClockEnableNotItsData() {
        // r <= x under en: an FDRE with CE = en and D = x, no LUT in between. x <= ~input: one LUT.
        DepthReport r = depth(Enabled::new);
        assertEquals(1.0, r.worstLevels());
        assertEquals("x", names(r.paths().get(0)).get(names(r.paths().get(0)).size() - 1));
        assertEquals(0.0, r.paths().get(1).levels(), r.text(10));
    }

    @Test
    void aPathOverTheBudgetIsAnErrorNamingEveryStepsJavaLine() {
        ElaborationException e = assertThrows(ElaborationException.class,
                () -> Elaboration.elaborate(ElaborationOptions.defaults().withDepth(10, 0.5), Outer::new));
        HdlError error = e.errors().get(0);
        assertEquals(Marks.line(Outer.class, "outer-r"), error.location().line());
        String file = Marks.fileOf(Outer.class);
        assertTrue(error.message().startsWith("logic depth 1 levels (estimate) exceeds the limit 0.5 on the path to "
                + "register r: a ("), error.message());
        assertTrue(error.message().contains("inner.y (" + file + ":" + Marks.line(Inner.class, "inner-y") + ", 1)"),
                error.message());
        assertTrue(error.message().contains("r (" + file + ":" + Marks.line(Outer.class, "outer-r") + ", 1)"),
                error.message());
    }

    @Test
    void theReportFormatsPathsAndTheFmaxEstimate() {
        DepthReport r = depth(Adder::new);
        String text = r.text(1);
        assertTrue(text.startsWith("worst path 3 levels (estimate), fmax ~513 MHz (estimate)"), text);
        assertTrue(text.contains("sum"), text);
        assertEquals(1000 / (0.45 * 3 + 0.6), DepthReport.fmaxEstimateMhz(3), 1e-9);
        assertEquals(3.0, r.toJson().get("worst_levels"));
    }
}
