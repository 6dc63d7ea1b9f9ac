// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The shared XOR networks compute exactly the matrix product, within their gate and depth bounds. */
class XorPlanTest {
    private static void assertComputes(Gf2Matrix m, XorPlan p, Random rnd) {
        for (int t = 0; t < 50; t++) {
            long[] x = new long[Gf2Matrix.words(m.cols())];
            for (int i = 0; i < x.length; i++) {
                x[i] = rnd.nextLong();
            }
            int extra = m.cols() & 63;
            if (extra != 0) {
                x[x.length - 1] &= (1L << extra) - 1;
            }
            assertArrayEquals(m.apply(x), p.evaluate(x));
        }
    }

    private static void assertShape(XorPlan p, int k, int root) {
        int inputsAndNodes = p.inputs();
        for (int[] ops : p.nodes()) {
            assertTrue(ops.length >= 2 && ops.length <= k, "gate with " + ops.length + " inputs");
            for (int o : ops) {
                assertTrue(o < inputsAndNodes, "operand defined later: " + o);
            }
            inputsAndNodes++;
        }
        for (int r = 0; r < p.rows(); r++) {
            assertTrue(p.rowOperands(r).length <= root, "row " + r + " has " + p.rowOperands(r).length);
        }
    }

    @Test
    void crcNetworksAreExactSmallerAndNoDeeper() {
        Random rnd = new Random(7);
        for (int bits : new int[] {8, 64, 512, 2048}) {
            Gf2Matrix m = CrcMatrices.step(CrcSpec.CRC32, bits);
            XorPlan flat = XorPlan.flat(m, 6);
            XorPlan shared = XorPlan.shared(m, 6, 2);
            assertComputes(m, flat, rnd);
            assertComputes(m, shared, rnd);
            assertShape(shared, 6, 6);
            assertTrue(shared.depth() <= flat.depth(), bits + ": deeper than flat");
            assertTrue(shared.gates() <= flat.gates(), bits + ": more gates than flat");
            if (bits >= 512) {
                assertTrue(shared.gates() * 2 < flat.gates(), bits + ": sharing should halve the gates, "
                        + shared.gates() + " vs " + flat.gates());
            }
        }
    }

    @Test
    void flatDepthIsTheLogBound() {
        // one row of n ones: ceil(log6(n)) levels
        int[][] cases = {{2, 1}, {6, 1}, {7, 2}, {36, 2}, {37, 3}, {216, 3}, {217, 4}, {554, 4}};
        for (int[] c : cases) {
            Gf2Matrix m = Gf2Matrix.zero(1, c[0]);
            for (int i = 0; i < c[0]; i++) {
                m = m.with(0, i, true);
            }
            XorPlan p = XorPlan.flat(m, 6);
            assertEquals(c[1], p.depth(), c[0] + " inputs");
            assertEquals((c[0] - 1 + 4) / 5, p.gates(), c[0] + " inputs: gates");
        }
    }

    @Test
    void rootInputsLeaveRoomForMoreLogic() {
        Random rnd = new Random(8);
        Gf2Matrix u = CrcMatrices.zeroBytesAdvance(CrcSpec.CRC32, 8).inverse();
        XorPlan p = XorPlan.shared(u, 6, 2, 4);
        assertShape(p, 6, 4);
        assertComputes(u, p, rnd);
    }

    @Test
    void randomMatricesAndDeterminism() {
        Random rnd = new Random(9);
        for (int t = 0; t < 20; t++) {
            int rows = 1 + rnd.nextInt(32);
            int cols = 1 + rnd.nextInt(300);
            Gf2Matrix m = Gf2Matrix.zero(rows, cols);
            for (int r = 0; r < rows; r++) {
                for (int c = 0; c < cols; c++) {
                    if (rnd.nextInt(3) == 0) {
                        m = m.with(r, c, true);
                    }
                }
            }
            for (int k : new int[] {2, 4, 6}) {
                XorPlan p = XorPlan.shared(m, k, 2);
                assertComputes(m, p, rnd);
                assertShape(p, k, k);
                XorPlan again = XorPlan.shared(m, k, 2);
                assertEquals(p.nodes().size(), again.nodes().size());
                for (int j = 0; j < p.nodes().size(); j++) {
                    assertArrayEquals(p.nodes().get(j), again.nodes().get(j));
                }
            }
        }
    }
}
