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
 * 16x/1x time ratio near 16; the target is at most 20.
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

    /** One measured size. */
    record Run(int scale, int nodes, double seconds, double peakHeapMb, int modules) {
    }

    @Override
    public Integer call() {
        measure(1, out.resolve("scaling_tmp"));
        List<Run> runs = new ArrayList<>();
        Run best1 = null;
        for (int i = 0; i < 3; i++) {
            Run r = measure(1, out.resolve("scaling_tmp"));
            best1 = best1 == null || r.seconds() < best1.seconds() ? r : best1;
        }
        runs.add(best1);
        runs.add(measure(4, out.resolve("scaling_tmp")));
        runs.add(measure(16, out.resolve("scaling_tmp")));
        List<BenchRecord> records = new ArrayList<>();
        for (Run r : runs) {
            Map<String, Object> cfg = Map.of("design", "synthetic", "scale", r.scale(), "ir_nodes", r.nodes(),
                    "modules", r.modules());
            records.add(new BenchRecord("gen.seconds", cfg, r.seconds(), "s", null));
            records.add(new BenchRecord("gen.peak_heap_mb", cfg, r.peakHeapMb(), "MiB", null));
            records.add(new BenchRecord("gen.nodes_per_second", cfg, r.nodes() / r.seconds(), "nodes/s", null));
            System.out.printf("scale %2dx: %8d IR nodes, %4d modules, %6.2f s, peak heap %7.1f MiB%n", r.scale(),
                    r.nodes(), r.modules(), r.seconds(), r.peakHeapMb());
        }
        double ratio = runs.get(2).seconds() / runs.get(0).seconds();
        records.add(new BenchRecord("gen.scaling_16x_ratio", Map.of("design", "synthetic",
                "nodes_1x", runs.get(0).nodes(), "nodes_16x", runs.get(2).nodes()), ratio, "ratio", 20.0));
        System.out.printf("16x/1x time ratio: %.2f (target <= 20)%n", ratio);
        BenchOutput.write(out, "gen_scaling", records);
        return 0;
    }

    private Run measure(int scale, Path dir) {
        System.gc();
        List<MemoryPoolMXBean> heap = ManagementFactory.getMemoryPoolMXBeans().stream()
                .filter(p -> p.getType() == MemoryType.HEAP).toList();
        heap.forEach(MemoryPoolMXBean::resetPeakUsage);
        long t0 = System.nanoTime();
        Design d = Elaboration.elaborate(() -> new SyntheticDesign(lanes * scale, stages));
        EmittedDesign e = new SvEmitter().emit(d);
        new DesignWriter().write(e, dir);
        double s = (System.nanoTime() - t0) / 1e9;
        long peak = heap.stream().mapToLong(p -> p.getPeakUsage().getUsed()).sum();
        return new Run(scale, d.nodeCount(), s, peak / (1024.0 * 1024.0), e.modules().size());
    }
}
