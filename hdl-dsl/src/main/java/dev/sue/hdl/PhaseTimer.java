// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

/**
 * Prints how long each elaboration phase took when the JVM runs with {@code -Dhdl.timing=true};
 * silent otherwise. For finding which pass stops scaling linearly, not for benchmarks.
 */
public final class PhaseTimer {
    private static final boolean ENABLED = Boolean.getBoolean("hdl.timing");
    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();
    private long last = System.nanoTime();
    private long lastCpu = THREADS.getCurrentThreadCpuTime();

    public void done(String phase) {
        long now = System.nanoTime();
        long cpu = THREADS.getCurrentThreadCpuTime();
        if (ENABLED) {
            System.err.printf("hdl.timing: %-14s %8.1f ms wall %8.1f ms thread CPU%n", phase, (now - last) / 1e6,
                    (cpu - lastCpu) / 1e6);
        }
        last = now;
        lastCpu = cpu;
    }
}
