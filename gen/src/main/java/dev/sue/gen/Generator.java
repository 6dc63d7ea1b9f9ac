package dev.sue.gen;

import dev.sue.gen.tops.TopSpec;
import dev.sue.gen.tops.ParamValues;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.emit.DesignWriter;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.SvEmitter;
import java.nio.file.Path;
import java.util.Map;

/** Elaborates one top with validated parameters and writes its SystemVerilog, filelist and report. */
public final class Generator {
    /** What one generation produced. */
    public record Result(EmittedDesign emitted, Path directory, double seconds) {
    }

    public Result generate(TopSpec top, Map<String, String> params, Path directory) {
        ParamValues values = top.resolve(params);
        long t0 = System.nanoTime();
        Design design = Elaboration.elaborate(top.factory().apply(values));
        EmittedDesign emitted = new SvEmitter().emit(design);
        new DesignWriter().write(emitted, directory);
        return new Result(emitted, directory, (System.nanoTime() - t0) / 1e9);
    }
}
