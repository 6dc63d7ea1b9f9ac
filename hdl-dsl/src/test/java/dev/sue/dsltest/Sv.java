// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;

/**
 * Assertions on emitted SystemVerilog. "Code lines" are the file's lines with the emitter's
 * trailing {@code  // File.java:line} comments and whole-line comments removed, trimmed, blank
 * lines dropped, runs of blanks collapsed to one: tests then depend neither on the line numbers
 * of their own source nor on column alignment (the golden tests cover the exact layout).
 */
public final class Sv {
    private Sv() {
    }

    public static List<String> codeLines(String sv) {
        List<String> out = new ArrayList<>();
        for (String raw : sv.split("\n", -1)) {
            String line = raw.strip();
            if (line.startsWith("//")) {
                continue;
            }
            int c = line.indexOf("  // ");
            if (c >= 0) {
                line = line.substring(0, c).strip();
            }
            if (!line.isEmpty()) {
                out.add(normal(line));
            }
        }
        return out;
    }

    /** Trimmed, with runs of blanks collapsed to one. */
    public static String normal(String line) {
        return line.strip().replaceAll("\\s+", " ");
    }

    /** Some code line equals {@code expected} (up to blanks). */
    public static void assertLine(String sv, String expected) {
        if (!codeLines(sv).contains(normal(expected))) {
            fail("expected a line\n    " + expected.strip() + "\nin\n" + sv);
        }
    }

    /** Consecutive code lines equal {@code expected}, in order. */
    public static void assertLines(String sv, String... expected) {
        List<String> lines = codeLines(sv);
        List<String> want = new ArrayList<>();
        for (String e : expected) {
            want.add(normal(e));
        }
        if (java.util.Collections.indexOfSubList(lines, want) < 0) {
            fail("expected consecutive lines\n    " + String.join("\n    ", want) + "\nin\n" + sv);
        }
    }

    public static void assertNoLine(String sv, String unexpected) {
        if (codeLines(sv).contains(normal(unexpected))) {
            fail("did not expect the line\n    " + unexpected.strip() + "\nin\n" + sv);
        }
    }

    public static void assertContains(String sv, String fragment) {
        if (!sv.contains(fragment)) {
            fail("expected the text\n    " + fragment + "\nin\n" + sv);
        }
    }

    public static void assertNotContains(String sv, String fragment) {
        if (sv.contains(fragment)) {
            fail("did not expect the text\n    " + fragment + "\nin\n" + sv);
        }
    }

    /** The full line (comment included) whose code part equals {@code code}. */
    public static String fullLine(String sv, String code) {
        for (String raw : sv.split("\n", -1)) {
            String line = raw.strip();
            int c = line.indexOf("  // ");
            String codePart = c >= 0 ? line.substring(0, c).strip() : line;
            if (normal(codePart).equals(normal(code))) {
                return line;
            }
        }
        return fail("no line\n    " + code + "\nin\n" + sv);
    }
}
