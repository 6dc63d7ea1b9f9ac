// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;

/**
 * The RAM clear sweep after reset of a queue-manager block: {@link #index} walks 0..n-1, one
 * entry per cycle, while {@link #active}. {@code active} is a register of its own (cleared as
 * the index reaches n-1), not a compare of the index against n: it gates the blocks' ready and
 * take decisions, so a compare there would start their longest paths (issue 13: the packer's
 * {@code state_clear} and the scheduler's {@code clear_idx} fanned out into the close FIFO and
 * the event logic at 10 levels once flattened).
 */
final class ClearSweep {
    /** The entry cleared this cycle (width bitsFor(n): it ends at n). */
    final UInt index;
    /** The sweep runs: {@link #index} is below n. */
    final Bool active;

    /**
     * @param indexName the index register's name
     * @param activeName the flag register's name
     * @param n entries to clear, at least 1
     */
    ClearSweep(String indexName, String activeName, int n) {
        if (n < 1) {
            throw new IllegalArgumentException("clear sweep of " + n + " entries: need at least 1");
        }
        index = reg(indexName, uint(bitsFor(n))).init(0);
        active = reg(activeName, bool()).init(true);
        when(active, () -> {
            index.set(index.add(1));
            when(index.eq(n - 1), () -> active.set(false));
        });
    }
}
