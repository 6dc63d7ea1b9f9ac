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
     * A RAM written at the clock edge and read asynchronously at the read pointer (LUT RAM on
     * FPGAs, 32 or 64 entries per LUT): the timing of {@link #REGISTERS} (first-word latency 1
     * cycle, the head one LUT level after the read pointer) for a fraction of the flip-flops and
     * of the read multiplexer. Best for wide FIFOs of a few to 64 entries (e.g. a 512-bit beat
     * queue of 8: 4,616 flip-flops as registers, about 100 LUT RAM cells here). An ASIC flow
     * builds it from its register-file or latch-array generator, or as registers.
     */
    LUT_RAM,
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
