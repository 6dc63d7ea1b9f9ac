// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.sue.gen.tops.Catalog;
import dev.sue.gen.tops.ParamSpec;
import dev.sue.gen.tops.TopSpec;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sue-gen command line: exit status, messages on stdout/stderr, files written. */
class GenMainTest {
    /** Exit status and everything printed. */
    record Run(int status, String out, String err) {
    }

    private static Run run(Catalog catalog, String... args) {
        PrintStream oldOut = System.out;
        PrintStream oldErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            int status = catalog == null ? GenMain.run(args) : GenMain.run(catalog, args);
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(oldOut);
            System.setErr(oldErr);
        }
    }

    private static Run run(String... args) {
        return run(null, args);
    }

    private static void assertNoStackTrace(Run r) {
        assertFalse(r.err().contains("\tat "), "no stack trace expected:\n" + r.err());
        assertFalse(r.out().contains("\tat "), "no stack trace expected:\n" + r.out());
    }

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void help() {
        Run r = run("--help");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("Usage: sue-gen "), r.out());
        assertTrue(r.out().contains("--preset=NAME"), r.out());
        assertTrue(r.out().contains("Examples:"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void listShowsTopsParametersWithRangesAndPresets() {
        Run r = run("--list");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("Tops:\n  demo_accumulator "), r.out());
        assertTrue(r.out().contains("-p width=<int>  accumulator width in bits (default 8; valid range: 1..64)"), r.out());
        assertTrue(r.out().contains("-p historyDepth=<int>  entries of the history RAM (default 16; valid values: 2, 4, "),
                r.out());
        assertTrue(r.out().contains("Presets:\n  demo "), r.out());
        assertTrue(r.out().contains("demo_wide"), r.out());
    }

    @Test
    void listPrintsPresetParametersInNameOrder() {
        // Map.of iterates in an order salted per JVM: the listing must not depend on it.
        Run r = run("--list");
        assertTrue(r.out().contains("(top sue_tx {cells=128, dataWidth=256, vcs=4, xpus=6})"), r.out());
    }

    @Test
    void generatesIntoTheOutputDirectory(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("acc16");
        Run r = run("demo_accumulator", "-p", "width=16", "--out-dir", dir.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        assertTrue(r.out().startsWith("demo_accumulator: 2 module(s), "), r.out());
        assertTrue(r.out().contains(" -> " + dir), r.out());
        JsonNode report = new ObjectMapper().readTree(dir.resolve("demo_accumulator.json").toFile());
        // Not the default width: the top module's name carries a suffix from the parameters, the
        // module below it one from its content, both the prefix.
        String top = report.at("/top_module").asText();
        assertTrue(top.matches("sue_demo_accumulator_[0-9a-f]{8}"), top);
        String alu = report.at("/modules/0/name").asText();
        assertTrue(alu.matches("sue_alu_[0-9a-f]{8}"), alu);
        assertEquals(List.of("demo_accumulator.core", "demo_accumulator.f", "demo_accumulator.json",
                "demo_accumulator_inst.svh", alu + ".sv", top + ".sv"), files(dir));
        assertEquals(alu + ".sv\n" + top + ".sv\n", Files.readString(dir.resolve("demo_accumulator.f")));
        assertEquals(16, report.at("/modules/1/parameters/width").asInt());
        assertTrue(Files.readString(dir.resolve(top + ".sv")).contains("//   width = 16\n"));
    }

    @Test
    void defaultParametersNameTheTopPlainlyAndThePrefixIsAnOption(@TempDir Path tmp) throws IOException {
        Run r = run("demo_accumulator", "--out-dir", tmp.resolve("a").toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(Files.isRegularFile(tmp.resolve("a").resolve("sue_demo_accumulator.sv")));
        r = run("demo_accumulator", "--prefix", "acme_", "--top-name", "my_acc", "--out-dir", tmp.resolve("b").toString());
        assertEquals(0, r.status(), r.err());
        List<String> names = files(tmp.resolve("b"));
        assertTrue(names.contains("my_acc.sv"), names.toString());
        assertTrue(names.stream().anyMatch(n -> n.matches("acme_alu_[0-9a-f]{8}\\.sv")), names.toString());
    }

    @Test
    void badPrefixOrTopNameExitsTwo() {
        for (String[] args : new String[][] {{"--prefix", "3d_"}, {"--prefix", "logic"}, {"--top-name", "a-b"},
                {"--all", "--top-name", "x"}}) {
            List<String> cmd = new java.util.ArrayList<>(List.of(args));
            if (!cmd.contains("--all")) {
                cmd.add(0, "demo_accumulator");
            }
            Run r = run(cmd.toArray(new String[0]));
            assertEquals(2, r.status(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().startsWith("sue-gen: "), r.err());
            assertEquals("", r.out());
        }
    }

    @Test
    void presetWithAnOverride(@TempDir Path tmp) throws IOException {
        Path dir = tmp.resolve("wide");
        Run r = run("--preset", "demo_wide", "-p", "width=32", "--out-dir", dir.toString());
        assertEquals(0, r.status(), r.err());
        JsonNode report = new ObjectMapper().readTree(dir.resolve("demo_wide.json").toFile());
        assertTrue(report.at("/top_module").asText().matches("sue_demo_wide_[0-9a-f]{8}"), report.toString());
        assertEquals(32, report.at("/modules/1/parameters/width").asInt());
        assertEquals(1024, report.at("/modules/1/parameters/historyDepth").asInt());
    }

    @Test
    void presetWithoutOutDirUsesOutRootAndThePresetName(@TempDir Path tmp) throws IOException {
        Run r = run("--preset", "demo", "--out-root", tmp.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(Files.isRegularFile(tmp.resolve("demo").resolve("sue_demo.sv")));
    }

    @Test
    void allGeneratesEveryTopUnderTheOutRoot(@TempDir Path tmp) throws IOException {
        Run r = run("--all", "--out-root", tmp.toString());
        assertEquals(0, r.status(), r.err());
        List<String> tops = Catalog.standard().tops().stream().map(TopSpec::name).sorted().toList();
        assertEquals(tops, files(tmp));
        assertTrue(files(tmp.resolve("demo_accumulator")).contains("sue_demo_accumulator.sv"));
        assertEquals(tops.size(), r.out().lines().count(), r.out());
    }

    @Test
    void unknownTop() {
        Run r = run("no_such_top");
        assertEquals(2, r.status());
        assertEquals("sue-gen: unknown top 'no_such_top'; known tops: " + String.join(", ",
                Catalog.standard().tops().stream().map(TopSpec::name).toList()) + "\n", r.err());
        assertEquals("", r.out());
    }

    @Test
    void unknownPreset() {
        Run r = run("--preset", "nope");
        assertEquals(2, r.status());
        assertEquals("sue-gen: unknown preset 'nope'; known presets: " + String.join(", ",
                Catalog.standard().presets().stream().map(dev.sue.gen.tops.Preset::name).toList()) + "\n", r.err());
    }

    @Test
    void unknownParameter() {
        Run r = run("demo_accumulator", "-p", "depth=4");
        assertEquals(2, r.status());
        assertEquals("sue-gen: unknown parameter 'depth' for top 'demo_accumulator'; valid parameters: width, "
                + "historyDepth\n", r.err());
    }

    @Test
    void outOfRangeParameterNamesTheValidRange() {
        Run r = run("demo_accumulator", "-p", "width=65");
        assertEquals(2, r.status());
        assertEquals("sue-gen: parameter 'width' = 65 is out of range; valid range: 1..64\n", r.err());
        Run choice = run("demo_accumulator", "-p", "historyDepth=12");
        assertEquals(2, choice.status());
        assertTrue(choice.err().startsWith("sue-gen: parameter 'historyDepth' = 12 is out of range; valid values: 2, 4, 8,"),
                choice.err());
    }

    @Test
    void badInteger() {
        Run r = run("demo_accumulator", "-p", "width=eight");
        assertEquals(2, r.status());
        assertEquals("sue-gen: parameter 'width' needs an integer, got 'eight'; valid range: 1..64\n", r.err());
    }

    @Test
    void everyParameterProblemIsReportedAtOnce() {
        Run r = run("demo_accumulator", "-p", "width=0", "-p", "historyDepth=x", "-p", "speed=1");
        assertEquals(2, r.status());
        assertEquals(3, r.err().lines().count(), r.err());
        assertTrue(r.err().lines().allMatch(l -> l.startsWith("sue-gen: ")), r.err());
    }

    @Test
    void integersMayBeHexOrUseUnderscores(@TempDir Path tmp) {
        assertEquals(0, run("demo_accumulator", "-p", "width=0x10", "-p", "historyDepth=1_024", "--out-dir",
                tmp.toString()).status());
    }

    @Test
    void noTopIsAUsageError() {
        Run r = run();
        assertEquals(2, r.status());
        assertEquals("sue-gen: name a top, --preset, --all or --list (see --help)\n", r.err());
    }

    @Test
    void unknownOptionIsAUsageError() {
        Run r = run("--frobnicate");
        assertEquals(2, r.status());
        assertTrue(r.err().startsWith("Unknown option: '--frobnicate'"), r.err());
    }

    // ---- logic depth ---------------------------------------------------------------------------

    static final class Deep extends Component {
        final UInt a = in(uint(16));
        final UInt b = in(uint(16));
        final Bool y = out(bool());

        Deep() {
            UInt ra = reg("ra", uint(16));
            UInt rb = reg("rb", uint(16));
            ra.set(a);
            rb.set(b);
            UInt sum = ra.add(rb).named("sum"); // MARK:deep-sum
            Bool r = reg("r", bool());
            r.set(sum.gt(rb)); // MARK:deep-r
            y.set(r);
        }
    }

    private static Catalog deep() {
        Catalog c = new Catalog();
        c.add(new TopSpec("deep", "an adder then a comparison: 1 + 1 + 1 + 1 = 4 levels", List.of(), v -> Deep::new));
        return c;
    }

    @Test
    void maxDepthTurnsADeepPathIntoAnErrorNamingItsJavaLines(@TempDir Path tmp) throws IOException {
        Run r = run(deep(), "deep", "--max-depth", "3", "--out-dir", tmp.resolve("d").toString());
        assertEquals(1, r.status(), r.err());
        assertNoStackTrace(r);
        String err = r.err();
        assertTrue(err.startsWith("GenMainTest.java:" + lineOf("// MARK:deep-r") + ": error: logic depth 4 levels "
                + "(estimate) exceeds the limit 3 on the path to register r: ra (GenMainTest.java:"), err);
        assertTrue(err.contains("sum (GenMainTest.java:" + lineOf("// MARK:deep-sum") + ", 2)"), err);
        assertTrue(err.contains("r (GenMainTest.java:" + lineOf("// MARK:deep-r") + ", 4)"), err);
        assertTrue(err.contains("sue-gen: 1 error(s); nothing was written"), err);
        assertFalse(Files.exists(tmp.resolve("d")));
        assertEquals(0, run(deep(), "deep", "--max-depth", "4", "--out-dir", tmp.resolve("d").toString()).status());
    }

    @Test
    void reportDepthPrintsTheWorstPathsAndTheJsonReportHasThem(@TempDir Path tmp) throws IOException {
        Run r = run(deep(), "deep", "--report-depth=1", "--out-dir", tmp.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("depth 4 levels (estimate)"), r.out());
        assertTrue(r.out().contains("worst path 4 levels (estimate), fmax ~417 MHz (estimate)"), r.out());
        assertTrue(r.out().contains("GenMainTest.java:" + lineOf("// MARK:deep-sum")), r.out());
        JsonNode report = new ObjectMapper().readTree(tmp.resolve("deep.json").toFile());
        assertEquals(4.0, report.at("/depth/worst_levels").asDouble());
        assertEquals("r", report.at("/depth/paths/0/steps/2/signal").asText(), report.toString());
        assertEquals("GenMainTest.java:" + lineOf("// MARK:deep-r"), report.at("/depth/paths/0/steps/2/at").asText());
    }

    @Test
    void badDepthOptionsExitTwoWithTheValidRange(@TempDir Path tmp) {
        for (String bad : List.of("--max-depth=x", "--max-depth=0", "--max-depth=-3", "--max-depth=1e9",
                "--max-depth=NaN")) {
            Run r = run(deep(), "deep", bad, "--out-dir", tmp.toString());
            assertEquals(2, r.status(), bad);
            assertTrue(r.err().contains("valid range: 0 < LEVELS <= 1000"), bad + ": " + r.err());
        }
        for (String bad : List.of("--report-depth=x", "--report-depth=0", "--report-depth=2.5", "--report-depth=100000")) {
            Run r = run(deep(), "deep", bad, "--out-dir", tmp.toString());
            assertEquals(2, r.status(), bad);
            assertTrue(r.err().contains("valid range: 1..1000"), bad + ": " + r.err());
        }
    }

    @Test
    void everyRatchetCeilingNamesATopOverItsBudget() {
        Catalog c = Catalog.standard();
        for (var e : dev.sue.gen.tops.DepthRatchet.ceilings().entrySet()) {
            TopSpec t = c.top(e.getKey()).orElseThrow(() -> new AssertionError("no top " + e.getKey()));
            assertTrue(e.getValue() > t.depthBudget().levels(), e.getKey() + " is within its budget: delete its line");
        }
    }

    // ---- design errors -------------------------------------------------------------------------

    static final class Broken extends Component {
        final UInt a = in(uint(4));
        final UInt y = out(uint(3));
        final Bool z = out(bool());

        Broken() {
            y.set(a); // MARK:broken-set
        }
    }

    static final class Throwing extends Component {
        final Bool y = out(bool());

        Throwing() {
            y.set(true);
            Object o = null;
            o.hashCode();
        }
    }

    private static Catalog broken() {
        Catalog c = new Catalog();
        c.add(new TopSpec("broken", "a design with two errors", List.of(), v -> Broken::new));
        c.add(new TopSpec("throwing", "a design whose Java code throws", List.of(), v -> Throwing::new));
        c.add(new TopSpec("factory_fails", "a top whose factory throws", List.of(ParamSpec.integer("n", "n", 1, 0, 9)),
                v -> {
                    throw new IllegalStateException("factory bug");
                }));
        return c;
    }

    private static int lineOf(String needle) throws IOException {
        List<String> lines = Files.readAllLines(Path.of(System.getProperty("basedir", "."))
                .resolve("src/test/java/dev/sue/gen/GenMainTest.java"));
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(needle)) {
                return i + 1;
            }
        }
        throw new AssertionError("no line containing " + needle);
    }

    @Test
    void designErrorsExitWithOneAndNameTheJavaLine(@TempDir Path tmp) throws IOException {
        Run r = run(broken(), "broken", "--out-dir", tmp.resolve("b").toString());
        assertEquals(1, r.status());
        int set = lineOf("// MARK:broken-set");
        int z = lineOf("final Bool z = out(bool());");
        List<String> lines = r.err().lines().toList();
        assertEquals(3, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith("GenMainTest.java:" + set + ": error: width mismatch: "), r.err());
        assertTrue(lines.get(1).startsWith("GenMainTest.java:" + z + ": error: 'z' at GenMainTest.java:" + z
                + " is never driven"), r.err());
        assertEquals("sue-gen: 2 error(s); nothing was written", lines.get(2));
        assertNoStackTrace(r);
        assertFalse(Files.exists(tmp.resolve("b")), "nothing may be written for a broken design");
    }

    @Test
    void aJavaExceptionInTheDesignIsADesignErrorWithItsLine() throws IOException {
        Run r = run(broken(), "throwing");
        assertEquals(1, r.status());
        int line = lineOf("o.hashCode();");
        assertTrue(r.err().startsWith("GenMainTest.java:" + line + ": error: elaboration stopped by "
                + "java.lang.NullPointerException"), r.err());
        assertNoStackTrace(r);
    }

    @Test
    void debugAddsTheStackTraceOfAJavaException() {
        Run r = run(broken(), "throwing", "--debug");
        assertEquals(1, r.status());
        assertTrue(r.err().contains("java.lang.NullPointerException"), r.err());
        assertTrue(r.err().contains("\tat dev.sue.gen.GenMainTest$Throwing.<init>(GenMainTest.java:"), r.err());
    }

    @Test
    void internalErrorsExitWithThreeAndHideTheStackTraceUnlessDebug() {
        Run r = run(broken(), "factory_fails");
        assertEquals(3, r.status());
        assertEquals("sue-gen: internal error: java.lang.IllegalStateException: factory bug\n"
                + "(run again with --debug for the stack trace)\n", r.err());
        Run debug = run(broken(), "factory_fails", "--debug");
        assertEquals(3, debug.status());
        assertTrue(debug.err().contains("\tat "), debug.err());
    }

    @Test
    void contradictoryOrRepeatedOptionsExitTwoBeforeElaborating(@TempDir Path tmp) {
        String[][] cases = {
                {"demo_accumulator", "--preset", "demo_wide"},
                {"--all", "--out-dir", tmp.resolve("x").toString()},
                {"--all", "--preset", "demo_wide"},
                {"--all", "-p", "width=8"},
                {"demo_accumulator", "-p", "width=8", "-p", "width=16"},
                {"demo_accumulator", "-p", "width"},
        };
        String[] messages = {"not both", "use --out-root instead of --out-dir", "takes no top or --preset",
                "-p needs one top or --preset", "'width' is given twice (width=8 and width=16)", "expected NAME=VALUE"};
        for (int i = 0; i < cases.length; i++) {
            Run r = run(cases[i]);
            assertEquals(2, r.status(), String.join(" ", cases[i]) + ": " + r.err());
            assertTrue(r.err().contains(messages[i]), r.err());
            assertEquals("", r.out());
        }
    }

    @Test
    void aValueTheDesignRefusesExitsTwoWithItsMessage(@TempDir Path tmp) {
        Run r = run("sue_endpoint", "-p", "vcs=3", "--out-dir", tmp.toString());
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("'vcs' = 3 is out of range; valid values: 1, 2, 4"), r.err());
        // Inside the listed range (1..4194304) but not a whole number of buffer words per VC.
        r = run("sue_rx", "-p", "rxBufBytes=5000", "--out-dir", tmp.toString());
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().contains("bufBytes must be vcs * B * 2^k"), r.err());
        assertTrue(r.err().contains(".java:"), "the refusing line is named: " + r.err());
        assertFalse(r.err().contains("Exception"), r.err());
    }

    @Test
    void anUnwritableOutputDirectoryExitsTwo(@TempDir Path tmp) throws IOException {
        Path file = Files.writeString(tmp.resolve("a-file"), "not a directory\n");
        Run r = run("demo_accumulator", "--out-dir", file.resolve("sub").toString());
        assertEquals(2, r.status(), r.err());
        assertTrue(r.err().startsWith("sue-gen: cannot write "), r.err());
        assertTrue(r.err().contains("--out-dir"), r.err());
    }

    @Test
    void everyFileAndTheReportNameTheGeneratorVersionAndCommit(@TempDir Path tmp) throws IOException {
        Run v = run("--version");
        assertEquals(0, v.status());
        assertTrue(v.out().matches("sue-gen \\S+ \\(commit \\S+\\)\\n"), v.out());
        String stamp = v.out().strip();
        Run r = run("demo_accumulator", "--out-dir", tmp.toString());
        assertEquals(0, r.status(), r.err());
        for (String f : files(tmp)) {
            if (f.endsWith(".sv") || f.endsWith(".svh")) {
                assertTrue(Files.readString(tmp.resolve(f)).contains("\n// Generator: " + stamp + "\n"), f);
            }
        }
        assertTrue(Files.readString(tmp.resolve("demo_accumulator.core")).contains("# Generator: " + stamp + "\n"));
        JsonNode report = new ObjectMapper().readTree(tmp.resolve("demo_accumulator.json").toFile());
        assertEquals(stamp, report.at("/generated_by").asText());
    }
}
