// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import java.nio.file.Path;

/** Paths of the hdl-dsl module, for tests that read their own sources or golden files. */
public final class TestPaths {
    private TestPaths() {
    }

    /** The module directory: Surefire sets {@code basedir}; IDEs usually run tests from it. */
    public static Path moduleDir() {
        return Path.of(System.getProperty("basedir", "."));
    }

    public static Path testSources() {
        return moduleDir().resolve("src/test/java");
    }

    public static Path goldenDir() {
        return moduleDir().resolve("src/test/resources/golden");
    }
}
