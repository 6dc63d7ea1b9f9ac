package dev.sue.gen;

import dev.sue.gen.tops.TopSpec;
import dev.sue.gen.tops.ParamValues;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationOptions;
import dev.sue.hdl.emit.DesignWriter;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.SvEmitter;
import java.nio.file.Path;
import java.util.Map;

/**
 * Elaborates one top with validated parameters, estimates its logic depth, and writes its
 * SystemVerilog, filelist and report.
 */
public final class Generator {
    /** How many worst paths the JSON report lists when the caller does not ask for more. */
    public static final int DEFAULT_DEPTH_PATHS = 10;

    /** What one generation produced. */
    public record Result(EmittedDesign emitted, Path directory, double seconds) {
    }

    public Result generate(TopSpec top, Map<String, String> params, Path directory) {
        return generate(top, params, directory, DEFAULT_DEPTH_PATHS, null);
    }

    /**
     * Generates {@code top}, keeping its {@code depthPaths} worst paths in the report; a path over
     * {@code maxDepth} (when not null) is an elaboration error.
     */
    public Result generate(TopSpec top, Map<String, String> params, Path directory, int depthPaths, Double maxDepth) {
        ParamValues values = top.resolve(params);
        long t0 = System.nanoTime();
        ElaborationOptions options = ElaborationOptions.defaults().withDepth(depthPaths, maxDepth);
        Design design = Elaboration.elaborate(options, top.factory().apply(values));
        EmittedDesign emitted = new SvEmitter().emit(design);
        new DesignWriter().write(emitted, directory);
        return new Result(emitted, directory, (System.nanoTime() - t0) / 1e9);
    }
}
