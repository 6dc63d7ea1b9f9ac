// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The generator's version and the commit of its sources, read from {@code version.properties}
 * (filled in by Maven; the Makefile passes the commit). Stamped into every generated file and
 * report so a netlist can be traced to the generator that wrote it.
 */
public final class Version {
    /** {@code 0.1.0-SNAPSHOT}. */
    public static final String VERSION;
    /** The last commit that changed the generator's sources, {@code -dirty} if built from changes; or {@code unknown}. */
    public static final String COMMIT;

    static {
        Properties p = new Properties();
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        VERSION = clean(p.getProperty("version"));
        COMMIT = clean(p.getProperty("commit"));
    }

    private Version() {
    }

    /** An unfiltered placeholder (a build outside Maven) reads as unknown. */
    private static String clean(String value) {
        return value == null || value.isBlank() || value.startsWith("${") ? "unknown" : value.strip();
    }

    /** {@code sue-gen 0.1.0-SNAPSHOT (commit 1a2b3c4d5e6f)}. */
    public static String stamp() {
        return "sue-gen " + VERSION + " (commit " + COMMIT + ")";
    }
}
