// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sue.hdl.Component;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.demo.DemoAccumulator;
import dev.sue.hdl.emit.DesignWriter;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.EmittedModule;
import dev.sue.hdl.emit.SvEmitter;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every design of this test suite that elaborates cleanly (each nested {@code Component} with a
 * no-argument constructor, plus parameterised ones listed here) is emitted and run through
 * {@code verilator --lint-only -Wall}, {@code iverilog -g2012} and Yosys
 * ({@code hierarchy -check; proc; check -assert}, and {@code read -formal; prep} for the
 * assertions as formal tools see them). A tool that is not installed is skipped;
 * Verilator is taken from the repository's {@code .venv} first.
 */
class ToolLintTest {
    private static Map<String, Supplier<? extends Component>> designs() throws Exception {
        Map<String, Supplier<? extends Component>> out = new LinkedHashMap<>();
        Path classes = Path.of(ToolLintTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/sue/dsltest");
        List<String> names;
        try (Stream<Path> s = Files.list(classes)) {
            names = s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".class") && n.contains("$"))
                    .map(n -> n.substring(0, n.length() - ".class".length())).sorted().toList();
        }
        for (String n : names) {
            Class<?> c = Class.forName("dev.sue.dsltest." + n);
            if (!Component.class.isAssignableFrom(c) || Modifier.isAbstract(c.getModifiers()) || c.isAnonymousClass()) {
                continue;
            }
            Constructor<?> k;
            try {
                k = c.getDeclaredConstructor();
            } catch (NoSuchMethodException e) {
                continue;
            }
            k.setAccessible(true);
            out.put(n, () -> {
                try {
                    return (Component) k.newInstance();
                } catch (java.lang.reflect.InvocationTargetException e) {
                    throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            });
        }
        out.put("EnumUser(ONE_HOT)", () -> new EnumTest.EnumUser(EnumTest.ONE_HOT));
        out.put("EnumUser(GRAY)", () -> new EnumTest.EnumUser(EnumTest.GRAY));
        out.put("User(with source)", () -> new BlackBoxTest.User(true));
        out.put("UsesSynchroniser", () -> new CdcCheckTest.UsesSynchroniser(true));
        out.put("RequestFsm", () -> new GoldenDesigns.RequestFsm(20));
        out.put("DemoAccumulator(64, 1024)", () -> new DemoAccumulator(64, 1024));
        for (int w : new int[] {1, 2, 33, 65}) {
            out.put("OperatorZoo(" + w + ")", () -> new dev.sue.hdl.demo.OperatorZoo(w));
        }
        out.put("ClockingZoo(8, 2)", () -> new dev.sue.hdl.demo.ClockingZoo(8, 2));
        out.put("ClockingZoo(72, 1000)", () -> new dev.sue.hdl.demo.ClockingZoo(72, 1000));
        return out;
    }

    private static String verilator() {
        Path venv = TestPaths.moduleDir().toAbsolutePath().getParent().resolve(".venv/bin/verilator");
        return Files.isExecutable(venv) ? venv.toString() : "verilator";
    }

    private static boolean available(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    private record Result(int status, String output) {
    }

    private static Result exec(List<String> command, Path dir) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(-1, "timed out");
        }
        return new Result(p.exitValue(), text);
    }

    @Test
    void everyCleanTestDesignLintsInVerilatorIcarusAndYosys(@TempDir Path tmp) throws Exception {
        String verilator = verilator();
        boolean haveVerilator = available(verilator, "--version");
        boolean haveIcarus = available("iverilog", "-V");
        boolean haveYosys = available("yosys", "-V");
        if (Boolean.getBoolean("hdl.requireTools")) {
            // make test sets this: in CI a missing tool must fail the run, not skip the check.
            org.junit.jupiter.api.Assertions.assertTrue(haveVerilator && haveIcarus && haveYosys,
                    "hdl.requireTools: verilator " + haveVerilator + ", iverilog " + haveIcarus + ", yosys " + haveYosys);
        }
        assumeTrue(haveVerilator || haveIcarus || haveYosys, "none of verilator, iverilog, yosys is installed");
        List<java.util.concurrent.Callable<String>> jobs = new ArrayList<>();
        int linted = 0;
        for (Map.Entry<String, Supplier<? extends Component>> d : designs().entrySet()) {
            EmittedDesign e;
            try {
                e = new SvEmitter().emit(Elaboration.elaborate(d.getValue()));
            } catch (ElaborationException expected) {
                continue; // a design written to fail a check
            }
            linted++;
            Path dir = tmp.resolve("d" + linted);
            new DesignWriter().write(e, dir);
            List<String> files = e.modules().stream().map(EmittedModule::fileName).toList();
            String top = e.topModule();
            List<List<String>> commands = new ArrayList<>();
            if (haveVerilator) {
                List<String> c = new ArrayList<>(List.of(verilator, "--lint-only", "-Wall", "--top-module", top));
                c.addAll(files);
                commands.add(c);
            }
            if (haveIcarus) {
                List<String> c = new ArrayList<>(List.of("iverilog", "-g2012", "-s", top, "-o", "/dev/null"));
                c.addAll(files);
                commands.add(c);
            }
            if (haveYosys) {
                commands.add(List.of("yosys", "-q", "-p", "read_verilog -sv " + String.join(" ", files)
                        + "; hierarchy -check -top " + top + "; proc; check -assert"));
                // The assertions as formal tools read them (FORMAL defined, SYNTHESIS not).
                commands.add(List.of("yosys", "-q", "-p", "read -formal " + String.join(" ", files)
                        + "; prep -top " + top));
            }
            for (List<String> c : commands) {
                String name = d.getKey();
                jobs.add(() -> {
                    Result r = exec(c, dir);
                    String lower = r.output().toLowerCase();
                    if (r.status() != 0 || lower.contains("%warning") || lower.contains("%error")
                            || lower.contains("warning:") || lower.contains("error:")) {
                        return name + " (" + c.get(0) + ", exit " + r.status() + "):\n" + r.output().strip()
                                + "\n--- " + top + ".sv:\n" + Files.readString(dir.resolve(top + ".sv"));
                    }
                    return null;
                });
            }
        }
        List<String> problems = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Math.max(2, Runtime.getRuntime().availableProcessors()));
        try {
            for (java.util.concurrent.Future<String> f : pool.invokeAll(jobs)) {
                if (f.get() != null) {
                    problems.add(f.get());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        if (linted < 40) {
            fail("only " + linted + " designs were linted; did the class scan break?");
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " lint problem(s):\n\n" + String.join("\n\n", problems));
        }
    }
}
