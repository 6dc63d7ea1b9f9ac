// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.cdc;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.UInt;

/** The flip-flop chain shared by the synchronisers (only they may sample foreign signals). */
final class SyncChain {
    private SyncChain() {
    }

    /**
     * Registers {@code input} through {@code stages} flip-flops named {@code sync_0} (the
     * metastable one) to {@code sync_<stages-1>}, all reset to 0, and returns the last.
     */
    static UInt build(UInt input, int stages) {
        UInt previous = input;
        for (int i = 0; i < stages; i++) {
            UInt stage = reg("sync_" + i, uint(input.width())).init(0);
            stage.set(previous);
            previous = stage;
        }
        return previous;
    }
}
