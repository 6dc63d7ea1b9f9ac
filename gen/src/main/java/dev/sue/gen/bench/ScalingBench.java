// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.bench;

import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.emit.DesignWriter;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.SvEmitter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Generator scaling benchmark: elaboration + checks + emission (files written) of a
 * synthetic design at 1x, 4x and 16x size in one JVM after a warm-up. Linear cost means a
 * 16x/1x time ratio near 16; the target is at most 20. Each size is the best of several runs
 * (the machine is shared); CPU-time ratios are reported beside the wall-time one.
 *
 * <p>Run it in a JVM with a fixed, pre-touched heap ({@code make bench} passes
 * {@code -Xms4g -Xmx4g -XX:+AlwaysPreTouch}): otherwise the kernel's first-touch cost of the
 * heap growing to about 1 GiB at 16x lands on the generator thread and makes a linear
 * algorithm look superlinear (measured: 4x to 16x cost 5.6x without, 4.0x with).
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure generator time and heap at 1x, 4x and 16x design size; write JSON records.")
public final class ScalingBench implements Callable<Integer> {
    @Option(names = "--out", defaultValue = "out/bench", description = "output directory (default: ${DEFAULT-VALUE})")
    Path out;

    @Option(names = "--lanes", defaultValue = "16", description = "lanes at 1x (default: ${DEFAULT-VALUE})")
    int lanes;

    @Option(names = "--stages", defaultValue = "600", description = "register stages per lane (default: ${DEFAULT-VALUE})")
    int stages;

    /**
     * One measured size. {@code cpuSeconds} is the process CPU time (our thread, GC and JIT):
     * the same work as wall time, but not inflated when the shared machine deschedules us.
     */
    record Run(int scale, int nodes, double seconds, double cpuSeconds, double threadCpuSeconds, double peakHeapMb,
            int modules) {
    }

    @Override
    public Integer call() {
        // Warm up past JIT compilation (which runs on other threads and would count as process
        // CPU time of the first, smallest runs, flattering the ratio).
        measure(1, out.resolve("scaling_tmp"));
        measure(4, out.resolve("scaling_tmp"));
        measure(1, out.resolve("scaling_tmp"));
        // The machine is shared: each size is the best of several runs, so one noisy sample
        // does not decide the ratio.
        List<Run> runs = new ArrayList<>();
        runs.add(best(1, 3));
        runs.add(best(4, 3));
        runs.add(best(16, 2));
        List<BenchRecord> records = new ArrayList<>();
        for (Run r : runs) {
            Map<String, Object> cfg = Map.of("design", "synthetic", "scale", r.scale(), "ir_nodes", r.nodes(),
                    "modules", r.modules());
            records.add(new BenchRecord("gen.seconds", cfg, r.seconds(), "s", null));
            records.add(new BenchRecord("gen.cpu_seconds", cfg, r.cpuSeconds(), "s", null));
            records.add(new BenchRecord("gen.peak_heap_mb", cfg, r.peakHeapMb(), "MiB", null));
            records.add(new BenchRecord("gen.nodes_per_second", cfg, r.nodes() / r.seconds(), "nodes/s", null));
            records.add(new BenchRecord("gen.thread_cpu_seconds", cfg, r.threadCpuSeconds(), "s", null));
            System.out.printf("scale %2dx: %8d IR nodes, %4d modules, %6.2f s wall, %6.2f s process CPU, %6.2f s "
                    + "generator-thread CPU, peak heap %7.1f MiB%n", r.scale(), r.nodes(), r.modules(), r.seconds(),
                    r.cpuSeconds(), r.threadCpuSeconds(), r.peakHeapMb());
        }
        double ratio = runs.get(2).seconds() / runs.get(0).seconds();
        double threadRatio = runs.get(2).threadCpuSeconds() / runs.get(0).threadCpuSeconds();
        double processRatio = runs.get(2).cpuSeconds() / runs.get(0).cpuSeconds();
        records.add(new BenchRecord("gen.scaling_16x_ratio", Map.of("design", "synthetic", "nodes_1x",
                runs.get(0).nodes(), "nodes_16x", runs.get(2).nodes(), "time", "wall"), ratio, "ratio", 20.0));
        records.add(new BenchRecord("gen.scaling_16x_thread_cpu_ratio", Map.of("design", "synthetic",
                "time", "generator thread CPU"), threadRatio, "ratio", null));
        records.add(new BenchRecord("gen.scaling_16x_process_cpu_ratio", Map.of("design", "synthetic",
                "time", "process CPU"), processRatio, "ratio", null));
        System.out.printf("16x/1x time ratio: %.2f wall (target <= 20); %.2f generator-thread CPU, %.2f process CPU%n",
                ratio, threadRatio, processRatio);
        BenchOutput.write(out, "gen_scaling", records);
        return 0;
    }

    private Run best(int scale, int tries) {
        Run best = null;
        for (int i = 0; i < tries; i++) {
            Run r = measure(scale, out.resolve("scaling_tmp"));
            best = best == null || r.seconds() < best.seconds() ? r : best;
        }
        return best;
    }

    private Run measure(int scale, Path dir) {
        System.gc();
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long cpu0 = os.getProcessCpuTime();
        long thread0 = ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
        long t0 = System.nanoTime();
        Design d = Elaboration.elaborate(() -> new SyntheticDesign(lanes * scale, stages));
        dev.sue.hdl.PhaseTimer timer = new dev.sue.hdl.PhaseTimer();
        EmittedDesign e = new SvEmitter().emit(d);
        timer.done("emission");
        new DesignWriter().write(e, dir);
        timer.done("writing");
        double s = (System.nanoTime() - t0) / 1e9;
        double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
        double threadCpu = (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() - thread0) / 1e9;
        long peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        return new Run(scale, d.nodeCount(), s, cpu, threadCpu, peak / (1024.0 * 1024.0), e.modules().size());
    }
}
