// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Source lines of the tests themselves: a statement tagged with a trailing
 * {@code // MARK:name} comment is found by {@code Marks.line(TestClass.class, "name")}, so
 * expected error locations survive edits to the test file.
 */
public final class Marks {
    private static final Map<Class<?>, List<String>> SOURCES = new ConcurrentHashMap<>();

    private Marks() {
    }

    /** The Java source file name holding {@code cls} (the top-level class's file). */
    public static String fileOf(Class<?> cls) {
        return cls.getNestHost().getSimpleName() + ".java";
    }

    /** The 1-based line of {@code // MARK:name} in {@code cls}'s source file; exactly one must exist. */
    public static int line(Class<?> cls, String name) {
        List<String> lines = SOURCES.computeIfAbsent(cls.getNestHost(), Marks::read);
        String tag = "// MARK:" + name;
        int found = -1;
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            int at = l.indexOf(tag);
            if (at >= 0 && (at + tag.length() == l.length() || !isNameChar(l.charAt(at + tag.length())))) {
                if (found >= 0) {
                    fail("mark '" + name + "' appears twice in " + fileOf(cls));
                }
                found = i + 1;
            }
        }
        if (found < 0) {
            fail("no '" + tag + "' in " + fileOf(cls));
        }
        return found;
    }

    /** {@code File.java:line} of a mark. */
    public static String at(Class<?> cls, String name) {
        return fileOf(cls) + ":" + line(cls, name);
    }

    private static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-' || c == '.';
    }

    private static List<String> read(Class<?> top) {
        Path p = TestPaths.testSources().resolve(top.getPackageName().replace('.', '/')).resolve(top.getSimpleName() + ".java");
        try {
            return Files.readAllLines(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the test's own source " + p.toAbsolutePath(), e);
        }
    }
}
