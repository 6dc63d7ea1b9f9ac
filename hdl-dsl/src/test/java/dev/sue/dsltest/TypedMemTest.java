// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.dsltest.Sv.assertLines;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.emit.DesignWriter;
import dev.sue.hdl.emit.EmittedDesign;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Typed memories ({@code Mem<T>}): words of any hardware type read by field, the emitted
 * shape, one always_ff for every write of a memory (later write wins, checked in Icarus against
 * a Java model), and the misuse errors at the user's line.
 */
class TypedMemTest {
    /** 16 bits: {count[15:11], flag[10], tag[9:0]}. */
    static final class Entry extends Bundle {
        final UInt count = uint(5);
        final Bool flag = bool();
        final Bits tag = bits(10);

        @Override
        public Entry copyType() {
            return new Entry();
        }
    }

    /** Same fields as {@link Entry}, another class. */
    static final class Lookalike extends Bundle {
        final UInt count = uint(5);
        final Bool flag = bool();
        final Bits tag = bits(10);
    }

    /** A bundle with a constructor parameter and no copyType(). */
    static final class Sized extends Bundle {
        final Bits value;

        Sized(int width) {
            value = bits(width);
        }
    }

    /**
     * Two write ports (the second writes count + 1 and the inverted flag of the same input,
     * and wins on a common address), an asynchronous and a synchronous read.
     */
    static final class EntryRam extends Component {
        final UInt waddr = in(uint(3));
        final Entry wdata = in(new Entry());
        final Bool we = in(bool());
        final UInt baddr = in(uint(3));
        final Bool bwe = in(bool());
        final UInt raddr = in(uint(3));
        final UInt rcount = out(uint(5));
        final Bool rflag = out(bool());
        final Bits rtag = out(bits(10));
        final UInt scount = out(uint(5));
        final Bool sflag = out(bool());

        EntryRam() {
            Mem<Entry> entries = Mem.of(8, new Entry()).named("entries");
            entries.write(waddr, wdata, we); // MARK:first-write
            Entry bumped = wire("bumped", new Entry());
            bumped.count.set(wdata.count.add(1));
            bumped.flag.set(wdata.flag.not());
            bumped.tag.set(wdata.tag);
            entries.write(baddr, bumped, bwe); // MARK:second-write
            Entry now = entries.readAsync(raddr);
            rcount.set(now.count);
            rflag.set(now.flag);
            rtag.set(now.tag);
            Entry held = entries.readSync(raddr).named("held");
            scount.set(held.count);
            sflag.set(held.flag);
        }
    }

    @Test
    void aBundleWordIsOneVectorReadByFieldWires() {
        String sv = Emit.sv(EntryRam::new);
        assertLine(sv, "logic [15:0] entries [0:7];");
        assertLine(sv, "assign entries_rdata_0 = entries[raddr];");
        assertLine(sv, "assign entries_rdata_0_count = entries_rdata_0[15:11];");
        assertLine(sv, "assign entries_rdata_0_flag = entries_rdata_0[10];");
        assertLine(sv, "assign entries_rdata_0_tag = entries_rdata_0[9:0];");
        assertLine(sv, "assign rcount = entries_rdata_0_count;");
        // A read value named by the user names its fields.
        assertLine(sv, "entries_rdata_1 <= entries[raddr];");
        assertLine(sv, "assign held_count = entries_rdata_1[15:11];");
        assertLine(sv, "assign scount = held_count;");
    }

    @Test
    void everyWriteOfOneMemoryIsInOneAlwaysFfInSourceOrder() {
        String sv = Emit.sv(EntryRam::new);
        assertLines(sv,
                "always_ff @(posedge clk) begin",
                "if (we) begin",
                "entries[waddr] <= {wdata_count, wdata_flag, wdata_tag};",
                "end",
                "if (bwe) begin",
                "entries[baddr] <= {bumped_count, bumped_flag, bumped_tag};",
                "end",
                "end");
        assertContains(sv, "    // write port at TypedMemTest.java:" + Marks.line(TypedMemTest.class, "first-write") + "\n"
                + "        if (we) begin");
        assertContains(sv, "    // write port at TypedMemTest.java:" + Marks.line(TypedMemTest.class, "second-write") + "\n"
                + "        if (bwe) begin");
        long writers = Sv.codeLines(sv).stream().filter(l -> l.startsWith("always_ff")).count();
        assertEquals(2, writers, "one always_ff for the writes, one for the registered read:\n" + sv);
    }

    static final class LeafWords extends Component {
        final UInt addr = in(uint(2));
        final Bool flag = in(bool());
        final UInt count = in(uint(6));
        final Bool we = in(bool());
        final Bool bitOut = out(bool());
        final UInt countOut = out(uint(6));
        final Bits lanes = out(bits(8));

        LeafWords() {
            Mem<Bool> flags = Mem.of(4, bool()).named("flags");
            flags.write(addr, flag.not(), we);
            bitOut.set(flags.readAsync(addr).xor(flag));
            Mem<UInt> counters = Mem.of(4, uint(6)).named("counters");
            counters.write(addr, counters.readAsync(addr).add(count), we);
            countOut.set(counters.readSync(addr));
            Mem<Vec<Bits>> bytes = Mem.of(4, Vec.of(2, i -> bits(4))).named("nibbles");
            bytes.write(addr, Vec.of(2, i -> count.asBits().resize(8).slice(4 * i + 3, 4 * i)), we);
            Vec<Bits> word = bytes.readAsync(addr);
            lanes.set(cat(word.get(0), word.get(1)));
        }
    }

    @Test
    void leafWordsNeedNoFieldWiresAndVecWordsAreReadByElement() {
        String sv = Emit.sv(LeafWords::new);
        assertLine(sv, "logic flags [0:3];");
        assertLine(sv, "assign bit_out = flags_rdata ^ flag;");
        assertLine(sv, "logic [5:0] counters [0:3];");
        assertLine(sv, "assign count_out = counters_rdata_1;");
        assertLine(sv, "logic [7:0] nibbles [0:3];");
        // Vec element 0 sits at the least significant end of the word.
        assertLine(sv, "assign nibbles_rdata_0 = nibbles_rdata[3:0];");
        assertLine(sv, "assign nibbles_rdata_1 = nibbles_rdata[7:4];");
    }

    static final class ByteLanes extends Component {
        final UInt addr = in(uint(1));
        final Entry data = in(new Entry());
        final Bits be = in(bits(2));
        final Bits tag = out(bits(10));

        ByteLanes() {
            Mem<Entry> m = Mem.of(2, new Entry()).named("m");
            m.write(addr, data, TRUE, be);
            tag.set(m.readAsync(addr).tag);
        }
    }

    @Test
    void aBundleWordOfWholeBytesTakesByteEnables() {
        String sv = Emit.sv(ByteLanes::new);
        assertContains(sv, "if (be[lane]) begin");
        assertContains(sv, "[8*lane +: 8];");
    }

    static final class FromSupplier extends Component {
        final UInt addr = in(uint(2));
        final Sized data = in(new Sized(12));
        final Bits q = out(bits(12));

        FromSupplier() {
            Mem<Sized> m = Mem.ofFactory(4, () -> new Sized(12)).named("m");
            m.write(addr, data, TRUE);
            q.set(m.readAsync(addr).value);
        }
    }

    @Test
    void aSupplierMakesWordsOfBundlesWithoutCopyType() {
        assertLine(Emit.sv(FromSupplier::new), "assign m_rdata_value = m_rdata[11:0];");
    }

    // ---- misuse ------------------------------------------------------------------------------

    static final class WrongWrites extends Component {
        final UInt addr = in(uint(3));
        final Lookalike other = in(new Lookalike());
        final Sized narrow = in(new Sized(4));
        final Bool we = in(bool());

        @SuppressWarnings({"unchecked", "rawtypes"})
        WrongWrites() {
            Mem<Entry> entries = Mem.of(8, new Entry()).named("entries");
            Mem raw = entries; // what a generic helper could hand over
            raw.write(addr, other, we); // MARK:other-class
            entries.write(addr, new Entry(), we); // MARK:type-written
            Mem<Sized> wide = Mem.ofFactory(8, () -> new Sized(8)).named("wide");
            wide.write(addr, narrow, we); // MARK:other-shape
            Mem<Sized> noCopy = Mem.of(8, new Sized(8)).named("no_copy");
            noCopy.readAsync(addr); // MARK:no-copy-type
        }
    }

    @Test
    void writesOfAnotherTypeOrShapeAndUnboundValuesAreErrorsAtTheirLine() {
        List<HdlError> errors = Errors.of(WrongWrites::new);
        Errors.expect(errors, "other-class", "write to a memory of Entry (16 bits)", "value is Lookalike (16 bits)");
        Errors.expect(errors, "type-written", "the value is a type, not hardware");
        Errors.expect(errors, "other-shape", "value.value is Bits(4), the word needs Bits(8)");
        Errors.expect(errors, "no-copy-type", "Sized does not override copyType()");
    }

    static final class HardwareAsType extends Component {
        final UInt port = in(uint(4));

        HardwareAsType() {
            Mem.of(4, port); // MARK:hardware-type
        }
    }

    @Test
    void hardwarePassedAsTheWordTypeIsAnError() {
        Errors.only(Errors.of(HardwareAsType::new), "hardware-type",
                "the word type of a memory must be a fresh type", "UInt(4) is already hardware");
    }

    static final class OneWord extends Component {
        OneWord() {
            Mem.of(1, new Entry()); // MARK:typed-depth
        }
    }

    @Test
    void aTypedMemoryNeedsTwoWords() {
        Errors.only(Errors.of(OneWord::new), "typed-depth", "a memory needs depth >= 2, got depth 1");
    }

    static final class TwoDomains extends Component {
        final UInt addr = in(uint(2));
        final Bits data = in(bits(8));
        final Bool we = in(bool());

        TwoDomains() {
            ClockDomain other = ClockDomain.external("b");
            Mem<Bits> m = Mem.of(4, 8).named("m");
            m.write(addr, data, we);
            withDomain(other, () -> m.write(addr, data, we)); // MARK:second-domain
        }
    }

    @Test
    void writesFromTwoClockDomainsAreAnError() {
        Errors.expect(Errors.of(TwoDomains::new), "second-domain",
                "is written in default clock domain at TypedMemTest.java:", "and here in clock domain 'b'",
                "a true dual-clock RAM needs its own template");
    }

    // ---- behaviour ---------------------------------------------------------------------------

    @Test
    void writesAndReadsMatchAJavaModelInIcarus(@TempDir Path dir) throws Exception {
        if (Boolean.getBoolean("hdl.requireTools")) {
            assertTrue(SimulationSemanticsTest.haveIcarus(), "hdl.requireTools: iverilog is not installed");
        }
        assumeTrue(SimulationSemanticsTest.haveIcarus(), "iverilog is not installed");
        EmittedDesign d = Emit.design(EntryRam::new);
        new DesignWriter().write(d, dir);
        // Per cycle: waddr(3) count(5) flag(1) tag(10) we(1) baddr(3) bwe(1) raddr(3) = 27 bits.
        Random rnd = new Random(12);
        List<long[]> cycles = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            boolean fill = i < 8; // every word written once before it is checked
            cycles.add(new long[] {fill ? i : rnd.nextInt(8), rnd.nextInt(32), rnd.nextInt(2), rnd.nextInt(1024),
                fill || rnd.nextInt(3) != 0 ? 1 : 0, rnd.nextInt(rnd.nextBoolean() ? 2 : 8), fill ? 0 : rnd.nextInt(2),
                rnd.nextInt(8)});
        }
        StringBuilder hex = new StringBuilder();
        for (long[] c : cycles) {
            long packed = c[0] << 24 | c[1] << 19 | c[2] << 18 | c[3] << 8 | c[4] << 7 | c[5] << 4 | c[6] << 3 | c[7];
            hex.append(Long.toHexString(packed)).append('\n');
        }
        Files.writeString(dir.resolve("vectors.hex"), hex);
        Files.writeString(dir.resolve("tb.sv"), """
                module tb;
                    logic clk = 0;
                    logic rst = 0;
                    logic [2:0] waddr, baddr, raddr;
                    logic [4:0] wdata_count, rcount, scount;
                    logic wdata_flag, we, bwe, rflag, sflag;
                    logic [9:0] wdata_tag, rtag;
                    logic [26:0] stimulus [0:%d];
                    %s dut (.*);
                    initial begin
                        $readmemh("vectors.hex", stimulus);
                        for (int i = 0; i < %d; i++) begin
                            {waddr, wdata_count, wdata_flag, wdata_tag, we, baddr, bwe, raddr} = stimulus[i];
                            #1;
                            $display("%%0h %%0h %%0h %%0h %%0h", rcount, rflag, rtag, scount, sflag);
                            clk = 1;
                            #1;
                            clk = 0;
                        end
                        $finish;
                    end
                endmodule
                """.formatted(cycles.size() - 1, d.topModule(), cycles.size()));
        List<String> lines = SimulationSemanticsTest.simulate(d, dir);
        assertEquals(cycles.size(), lines.size(), String.join("\n", lines));

        long[][] mem = new long[8][]; // {count, flag, tag}; null until written
        long[] held = null;
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < cycles.size(); i++) {
            long[] c = cycles.get(i);
            String[] got = lines.get(i).trim().split(" ");
            long[] now = mem[(int) c[7]];
            if (now != null && !(hex(now[0]).equals(got[0]) && hex(now[1]).equals(got[1]) && hex(now[2]).equals(got[2]))) {
                problems.add("cycle " + i + " async read of " + c[7] + ": expected " + List.of(hex(now[0]), hex(now[1]),
                        hex(now[2])) + ", simulated " + List.of(got[0], got[1], got[2]));
            }
            if (held != null && !(hex(held[0]).equals(got[3]) && hex(held[1]).equals(got[4]))) {
                problems.add("cycle " + i + " registered read: expected " + List.of(hex(held[0]), hex(held[1]))
                        + ", simulated " + List.of(got[3], got[4]));
            }
            held = now; // the registered read returns the word before this edge's writes
            if (c[4] == 1) {
                mem[(int) c[0]] = new long[] {c[1], c[2], c[3]};
            }
            if (c[6] == 1) { // described later: wins on a common address
                mem[(int) c[5]] = new long[] {(c[1] + 1) & 31, c[2] ^ 1, c[3]};
            }
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems.subList(0, Math.min(20, problems.size()))));
        }
    }

    private static String hex(long v) {
        return Long.toHexString(v);
    }

    private static void assertContains(String sv, String fragment) {
        Sv.assertContains(sv, fragment);
    }
}
