// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sue.hdl.BaseType;
import dev.sue.hdl.Bits;
import dev.sue.hdl.Component;
import dev.sue.hdl.SInt;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.emit.DesignWriter;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.EmittedModule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The emitted expressions compute what the DSL's semantics say: a combinational design with
 * one output per operation is simulated with Icarus Verilog on edge-case and random inputs and
 * compared with a Java model (skipped when iverilog is not installed).
 */
class SimulationSemanticsTest {
    /** The design's inputs: a, b unsigned 8-bit; s, t signed 8-bit; n a 3-bit amount/index. */
    record In(UInt a, UInt b, SInt s, SInt t, UInt n) {
    }

    /** Input values for the model: a, b in 0..255, s, t in -128..127, n in 0..7. */
    record V(long a, long b, long s, long t, long n) {
    }

    record Case(String name, int width, Function<In, BaseType> hw, ToLongFunction<V> model) {
    }

    private static long sx(long v, int w) {
        long m = 1L << (w - 1);
        v &= (1L << w) - 1;
        return (v ^ m) - m;
    }

    private static long b(boolean x) {
        return x ? 1 : 0;
    }

    static final List<Case> CASES = List.of(
            new Case("add", 8, i -> i.a().add(i.b()), v -> v.a() + v.b()),
            new Case("sub", 8, i -> i.a().sub(i.b()), v -> v.a() - v.b()),
            new Case("add_expand", 9, i -> i.a().addExpand(i.b()), v -> v.a() + v.b()),
            new Case("mul", 16, i -> i.a().mul(i.b()), v -> v.a() * v.b()),
            new Case("s_add_expand", 9, i -> i.s().addExpand(i.t()), v -> v.s() + v.t()),
            new Case("s_mul", 16, i -> i.s().mul(i.t()), v -> v.s() * v.t()),
            new Case("neg", 8, i -> i.s().neg(), v -> -v.s()),
            new Case("ult", 1, i -> i.a().lt(i.b()), v -> b(v.a() < v.b())),
            new Case("uge", 1, i -> i.a().ge(i.b()), v -> b(v.a() >= v.b())),
            new Case("slt", 1, i -> i.s().lt(i.t()), v -> b(v.s() < v.t())),
            new Case("sle", 1, i -> i.s().le(i.t()), v -> b(v.s() <= v.t())),
            new Case("sgt", 1, i -> i.s().gt(i.t()), v -> b(v.s() > v.t())),
            new Case("sge", 1, i -> i.s().ge(i.t()), v -> b(v.s() >= v.t())),
            new Case("slt_minus1", 1, i -> i.s().lt(-1), v -> b(v.s() < -1)),
            new Case("sum_lt", 1, i -> i.a().add(i.b()).lt(i.a()), v -> b(((v.a() + v.b()) & 255) < v.a())),
            new Case("shl_n", 8, i -> i.a().shl(i.n()), v -> v.a() << v.n()),
            new Case("shr_n", 8, i -> i.a().shr(i.n()), v -> v.a() >> v.n()),
            new Case("sra_n", 8, i -> i.s().shr(i.n()), v -> v.s() >> v.n()),
            new Case("sra_3", 8, i -> i.s().shr(3), v -> v.s() >> 3),
            new Case("shr_3", 8, i -> i.a().shr(3), v -> v.a() >> 3),
            new Case("sra_sum", 8, i -> i.s().add(i.t()).shr(1), v -> sx(v.s() + v.t(), 8) >> 1),
            new Case("sext", 12, i -> i.s().resize(12), V::s),
            new Case("sext_sum", 12, i -> i.s().add(i.t()).resize(12), v -> sx(v.s() + v.t(), 8)),
            new Case("zext", 12, i -> i.a().resize(12), V::a),
            new Case("trunc", 4, i -> i.s().resize(4), V::s),
            new Case("to_s_int", 9, i -> i.a().toSInt(), V::a),
            new Case("bit_n", 1, i -> i.a().bit(i.n()), v -> (v.a() >> v.n()) & 1),
            new Case("slice_sum", 5, i -> i.a().add(i.b()).slice(6, 2), v -> (v.a() + v.b()) >> 2),
            new Case("msb_sum", 1, i -> i.a().add(i.b()).msb(), v -> (v.a() + v.b()) >> 7),
            new Case("mux", 8, i -> mux(i.a().lt(i.b()), i.a(), i.b()), v -> Math.min(v.a(), v.b())),
            new Case("vec", 8, i -> Vec.of(List.of(i.a(), i.b(), i.a().add(i.b()), i.a().xor(i.b()))).get(i.n().low(2)),
                    v -> switch ((int) (v.n() & 3)) {
                        case 0 -> v.a();
                        case 1 -> v.b();
                        case 2 -> v.a() + v.b();
                        default -> v.a() ^ v.b();
                    }),
            new Case("parity", 1, i -> i.a().xorR(), v -> Long.bitCount(v.a()) & 1),
            new Case("all_ones", 1, i -> i.a().andR(), v -> b(v.a() == 255)),
            new Case("cat_rep", 12, i -> cat(i.n(), repeat(i.a().msb(), 3), i.b().low(6)),
                    v -> (v.n() << 9) | ((v.a() >> 7) * 7 << 6) | (v.b() & 63)),
            new Case("not_and", 8, i -> i.a().not().and(i.b()), v -> ~v.a() & v.b()),
            new Case("eq_lit", 1, i -> i.s().eq(-128), v -> b(v.s() == -128)));

    static final class ExprSemantics extends Component {
        ExprSemantics() {
            UInt a = in(uint(8)).named("a");
            UInt b = in(uint(8)).named("b");
            SInt s = in(sint(8)).named("s");
            SInt t = in(sint(8)).named("t");
            UInt n = in(uint(3)).named("n");
            In i = new In(a, b, s, t, n);
            for (Case c : CASES) {
                Bits o = out(bits(c.width())).named(c.name());
                o.set(asBits(c.hw().apply(i)));
            }
        }
    }

    private static List<V> vectors() {
        List<V> out = new ArrayList<>();
        long[] edge = {0, 1, 127, 128, 255};
        for (long a : edge) {
            for (long b : edge) {
                out.add(new V(a, b, sx(a, 8), sx(b, 8), (a + b) & 7));
            }
        }
        Random r = new Random(12345);
        for (int k = 0; k < 300; k++) {
            long a = r.nextInt(256);
            long b = r.nextInt(256);
            out.add(new V(a, b, sx(r.nextInt(256), 8), sx(r.nextInt(256), 8), r.nextInt(8)));
        }
        return out;
    }

    /**
     * Compiles {@code tb.sv} in {@code dir} (module {@code tb}) with the design's modules, written
     * there beforehand, in Icarus, runs it and returns the lines it displayed.
     */
    static List<String> simulate(EmittedDesign d, Path dir) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("iverilog", "-g2012", "-s", "tb", "-o", "sim", "tb.sv"));
        for (EmittedModule m : d.modules()) {
            cmd.add(m.fileName());
        }
        run(cmd, dir);
        return run(List.of("vvp", "-n", "sim"), dir).lines()
                .filter(l -> !l.isBlank() && !l.startsWith("VCD") && !l.contains("$finish")).toList();
    }

    static String run(List<String> cmd, Path dir) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail(String.join(" ", cmd) + " failed:\n" + text);
        }
        return text;
    }

    static boolean haveIcarus() {
        try {
            Process p = new ProcessBuilder("iverilog", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void emittedExpressionsMatchTheJavaModel(@TempDir Path dir) throws Exception {
        if (Boolean.getBoolean("hdl.requireTools")) {
            org.junit.jupiter.api.Assertions.assertTrue(haveIcarus(), "hdl.requireTools: iverilog is not installed");
        }
        assumeTrue(haveIcarus(), "iverilog is not installed");
        EmittedDesign d = Emit.design(ExprSemantics::new);
        new DesignWriter().write(d, dir);
        List<V> vectors = vectors();
        StringBuilder hex = new StringBuilder();
        for (V v : vectors) {
            long packed = (v.a() << 27) | (v.b() << 19) | ((v.s() & 255) << 11) | ((v.t() & 255) << 3) | v.n();
            hex.append(Long.toHexString(packed)).append('\n');
        }
        Files.writeString(dir.resolve("vectors.hex"), hex);
        StringBuilder tb = new StringBuilder("module tb;\n    logic [7:0] a, b, s, t;\n    logic [2:0] n;\n");
        StringBuilder conn = new StringBuilder(".a(a), .b(b), .s(s), .t(t), .n(n)");
        StringBuilder fmt = new StringBuilder();
        StringBuilder args = new StringBuilder();
        for (Case c : CASES) {
            tb.append("    logic [").append(c.width() - 1).append(":0] ").append(c.name()).append(";\n");
            conn.append(", .").append(c.name()).append('(').append(c.name()).append(')');
            fmt.append(fmt.length() == 0 ? "" : " ").append("%0h");
            args.append(", ").append(c.name());
        }
        tb.append("    logic [34:0] stimulus [0:").append(vectors.size() - 1).append("];\n");
        tb.append("    ").append(d.topModule()).append(" dut (").append(conn).append(");\n");
        tb.append("    initial begin\n        $readmemh(\"vectors.hex\", stimulus);\n");
        tb.append("        for (int i = 0; i < ").append(vectors.size()).append("; i++) begin\n");
        tb.append("            {a, b, s, t, n} = stimulus[i];\n            #1;\n");
        tb.append("            $display(\"").append(fmt).append('"').append(args).append(");\n");
        tb.append("        end\n        $finish;\n    end\nendmodule\n");
        Files.writeString(dir.resolve("tb.sv"), tb);
        List<String> lines = simulate(d, dir);
        assertEquals(vectors.size(), lines.size(), String.join("\n", lines));
        List<String> problems = new ArrayList<>();
        for (int k = 0; k < vectors.size(); k++) {
            String[] got = lines.get(k).trim().split(" ");
            V v = vectors.get(k);
            for (int j = 0; j < CASES.size(); j++) {
                Case c = CASES.get(j);
                long want = c.model().applyAsLong(v) & ((1L << c.width()) - 1);
                long have = Long.parseLong(got[j], 16);
                if (want != have && problems.size() < 20) {
                    problems.add(c.name() + " for " + v + ": expected " + Long.toHexString(want) + ", simulated "
                            + got[j]);
                }
            }
        }
        if (!problems.isEmpty()) {
            fail("emitted SystemVerilog disagrees with the DSL semantics:\n" + String.join("\n", problems) + "\n"
                    + Emit.module(d, d.topModule()));
        }
    }
}
