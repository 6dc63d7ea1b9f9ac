// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.demo.DemoAccumulator;
import org.junit.jupiter.api.Test;

/**
 * Complete emitted SystemVerilog of small designs, byte for byte. Update with
 * {@code mvn -q test -pl hdl-dsl -Dgolden.update=true} and review the diff.
 */
class GoldenTest {
    @Test
    void demoAccumulator() {
        Golden.check("demo_accumulator", () -> new DemoAccumulator(8, 16));
    }

    @Test
    void requestFsmWithAnEnum() {
        Golden.check("request_fsm", () -> new GoldenDesigns.RequestFsm(20));
    }

    @Test
    void twoClockDomainsAndAnAsyncResetDomain() {
        Golden.check("two_domain_bridge", GoldenDesigns.TwoDomainBridge::new);
    }

    @Test
    void memoryWithByteEnables() {
        Golden.check("byte_enable_ram", GoldenDesigns.ByteEnableRam::new);
    }

    @Test
    void theDiffMessageShowsTheFirstDifferenceWithContext() {
        String d = Golden.diff("x/y.sv", "a\nb\nc\nd\n", "a\nb\nX\nd\n");
        assertTrue(d.startsWith("golden x/y.sv differs from the emitted text at line 3:\n"), d);
        assertEquals("golden x/y.sv differs from the emitted text at line 3:\n--- golden\n+++ emitted\n"
                + "  a\n  b\n- c\n+ X\n  d\n  \n", d);
    }
}
