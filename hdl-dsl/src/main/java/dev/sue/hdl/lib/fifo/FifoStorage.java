// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.fifo;

/** Where a {@link StreamFifo} keeps its entries. */
public enum FifoStorage {
    /**
     * One register per entry, read through a multiplexer: first-word latency 1 cycle. Best for
     * small depths (a few entries), where a RAM would waste a block and add a cycle.
     */
    REGISTERS,
    /**
     * A RAM with a registered read port (block RAM on FPGAs), whose read register doubles as the
     * output stage: first-word latency 2 cycles. Best for deep or wide FIFOs.
     */
    RAM;

    /** The default for {@code depth}: registers up to 8 entries, RAM above. */
    public static FifoStorage forDepth(int depth) {
        return depth <= 8 ? REGISTERS : RAM;
    }
}
