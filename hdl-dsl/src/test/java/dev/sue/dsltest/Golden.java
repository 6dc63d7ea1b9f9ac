// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static org.junit.jupiter.api.Assertions.fail;

import dev.sue.hdl.Component;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.EmittedModule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * Golden-file comparison: every emitted module ({@code <module>.sv}) and the filelist
 * ({@code <top>.f}) of a design must equal the files in {@code src/test/resources/golden/<case>/}
 * byte for byte. Run with {@code -Dgolden.update=true} to (re)write the files instead; review
 * the diff before committing.
 */
public final class Golden {
    public static final String UPDATE_PROPERTY = "golden.update";

    private Golden() {
    }

    public static boolean updating() {
        return Boolean.getBoolean(UPDATE_PROPERTY);
    }

    /** The files a design's golden directory holds: module texts, then the filelist. */
    public static Map<String, String> files(EmittedDesign d) {
        Map<String, String> files = new LinkedHashMap<>();
        StringBuilder filelist = new StringBuilder();
        for (EmittedModule m : d.modules()) {
            files.put(m.fileName(), m.text());
            filelist.append(m.fileName()).append('\n');
        }
        files.put(d.topModule() + ".f", filelist.toString());
        return files;
    }

    public static void check(String caseName, Supplier<? extends Component> top) {
        Map<String, String> actual = files(Emit.design(top));
        Path dir = TestPaths.goldenDir().resolve(caseName);
        try {
            if (updating()) {
                write(dir, actual);
                return;
            }
            compare(caseName, dir, actual);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(Path dir, Map<String, String> actual) throws IOException {
        Files.createDirectories(dir);
        try (Stream<Path> old = Files.list(dir)) {
            for (Path p : old.toList()) {
                if (!actual.containsKey(p.getFileName().toString())) {
                    Files.delete(p);
                }
            }
        }
        for (Map.Entry<String, String> f : actual.entrySet()) {
            Files.writeString(dir.resolve(f.getKey()), f.getValue(), StandardCharsets.UTF_8);
        }
    }

    private static void compare(String caseName, Path dir, Map<String, String> actual) throws IOException {
        String hint = "\n(if the change is intended: mvn -q test -pl hdl-dsl -D" + UPDATE_PROPERTY
                + "=true, then review and commit the golden files)";
        if (!Files.isDirectory(dir)) {
            fail("no golden files for '" + caseName + "' in " + dir + hint);
        }
        TreeSet<String> expectedNames = new TreeSet<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.forEach(p -> expectedNames.add(p.getFileName().toString()));
        }
        if (!expectedNames.equals(new TreeSet<>(actual.keySet()))) {
            fail("golden '" + caseName + "': files differ; expected " + expectedNames + ", emitted "
                    + new TreeSet<>(actual.keySet()) + hint);
        }
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> f : actual.entrySet()) {
            String expected = Files.readString(dir.resolve(f.getKey()), StandardCharsets.UTF_8);
            if (!expected.equals(f.getValue())) {
                problems.add(diff(caseName + "/" + f.getKey(), expected, f.getValue()));
            }
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems) + hint);
        }
    }

    /** A short description of the first difference, with context, in unified-diff style. */
    static String diff(String name, String expected, String actual) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        int first = 0;
        while (first < e.length && first < a.length && e[first].equals(a[first])) {
            first++;
        }
        int lastE = e.length - 1;
        int lastA = a.length - 1;
        while (lastE > first && lastA > first && e[lastE].equals(a[lastA])) {
            lastE--;
            lastA--;
        }
        StringBuilder sb = new StringBuilder();
        sb.append("golden ").append(name).append(" differs from the emitted text at line ").append(first + 1)
                .append(":\n--- golden\n+++ emitted\n");
        int from = Math.max(0, first - 3);
        for (int i = from; i < first; i++) {
            sb.append("  ").append(e[i]).append('\n');
        }
        int shown = 0;
        for (int i = first; i <= lastE && i < e.length && shown < 40; i++, shown++) {
            sb.append("- ").append(e[i]).append('\n');
        }
        shown = 0;
        for (int i = first; i <= lastA && i < a.length && shown < 40; i++, shown++) {
            sb.append("+ ").append(a[i]).append('\n');
        }
        for (int i = lastE + 1; i < Math.min(e.length, lastE + 4); i++) {
            sb.append("  ").append(e[i]).append('\n');
        }
        return sb.toString();
    }
}
