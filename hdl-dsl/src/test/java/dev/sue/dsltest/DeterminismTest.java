// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.demo.DemoAccumulator;
import dev.sue.hdl.emit.DesignWriter;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.SvEmitter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output must be byte-identical across runs: the same design emitted twice, and two fresh
 * elaborations of it, give the same SV files, filelist and JSON report. Designs with many
 * temporaries and several errors make hash-order leaks likely to show.
 */
class DeterminismTest {
    /** Many shared sub-expressions (temporaries), slices of expressions, memories and children. */
    static final class Busy extends Component {
        final Bits a = in(bits(16));
        final Bits b = in(bits(16));
        final UInt addr = in(uint(3));
        final Bool we = in(bool());
        final Bits y = out(bits(16));
        final Bits z = out(bits(16));
        final Bits q = out(bits(16));

        Busy() {
            Bits acc = a;
            Bits other = b;
            for (int i = 0; i < 12; i++) {
                Bits x = acc.xor(other);
                Bits n = x.not();
                acc = cat(x.slice(7, 0), n.slice(15, 8));
                other = x.and(n.shl(1));
            }
            y.set(acc);
            z.set(other.or(acc));
            Mem<Bits> m = Mem.of(8, 16).named("m");
            m.write(addr, a.xor(b), we, b.not().slice(1, 0));
            q.set(m.readAsync(addr).and(a.or(b)));
        }
    }

    private static Map<String, String> files(Supplier<? extends Component> top, Path dir) throws IOException {
        Design d = Emit.elaborate(top);
        EmittedDesign e = new SvEmitter().emit(d);
        new DesignWriter().write(e, dir);
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                out.put(p.getFileName().toString(), Files.readString(p));
            }
        }
        return out;
    }

    private static void assertDeterministic(Supplier<? extends Component> top, Path tmp) throws IOException {
        Map<String, String> first = files(top, tmp.resolve("a"));
        for (int run = 0; run < 5; run++) {
            Map<String, String> again = files(top, tmp.resolve("b" + run));
            assertEquals(first.keySet(), again.keySet());
            for (String f : first.keySet()) {
                assertEquals(first.get(f), again.get(f), f + " differs between elaborations");
            }
        }
    }

    @Test
    void freshElaborationsWriteIdenticalFiles(@TempDir Path tmp) throws IOException {
        assertDeterministic(Busy::new, tmp.resolve("busy"));
        assertDeterministic(() -> new DemoAccumulator(8, 16), tmp.resolve("demo"));
        assertDeterministic(GoldenDesigns.TwoDomainBridge::new, tmp.resolve("domains"));
    }

    @Test
    void emittingOneElaborationTwiceGivesIdenticalText() {
        Design d = Emit.elaborate(Busy::new);
        EmittedDesign one = new SvEmitter().emit(d);
        EmittedDesign two = new SvEmitter().emit(d);
        assertEquals(one.modules().size(), two.modules().size());
        for (int i = 0; i < one.modules().size(); i++) {
            assertEquals(one.modules().get(i).text(), two.modules().get(i).text());
        }
        assertEquals(DesignWriter.report(one).toString(), DesignWriter.report(two).toString());
    }

    @Test
    void writingTwiceIntoTheSameDirectoryGivesIdenticalFiles(@TempDir Path tmp) throws IOException {
        Map<String, String> first = files(Busy::new, tmp);
        Map<String, String> second = files(Busy::new, tmp);
        assertEquals(first, second);
        assertEquals(List.of("busy.core", "busy.f", "busy.json", "busy.sv", "busy_inst.svh"), List.copyOf(first.keySet()));
        assertEquals("busy.sv\n", first.get("busy.f"));
    }

    /** Ten latches and ten undriven wires, reported in the same order every time. */
    static final class ManyErrors extends Component {
        final Bool c = in(bool());

        ManyErrors() {
            for (int i = 0; i < 10; i++) {
                UInt w = wire("latch_" + i, uint(4));
                when(c, () -> w.set(1));
                wire("undriven_" + i, uint(4));
            }
        }
    }

    @Test
    void errorsAreReportedInTheSameOrderEveryTime() {
        List<String> first = Errors.of(ManyErrors::new).stream().map(HdlError::toString).toList();
        assertEquals(20, first.size());
        for (int run = 0; run < 5; run++) {
            assertEquals(first, Errors.of(ManyErrors::new).stream().map(HdlError::toString).toList());
        }
    }
}
