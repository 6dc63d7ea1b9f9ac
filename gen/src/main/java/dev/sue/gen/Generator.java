// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen;

import dev.sue.gen.tops.ParamValues;
import dev.sue.gen.tops.TopSpec;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationOptions;
import dev.sue.hdl.emit.DesignWriter;
import dev.sue.hdl.emit.EmitOptions;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.SvEmitter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

/**
 * Elaborates one top with validated parameters, estimates its logic depth, and writes its
 * SystemVerilog, filelist and report.
 */
public final class Generator {
    /** The module prefix when none is given: every module of a generated design starts with it. */
    public static final String DEFAULT_PREFIX = "sue_";
    /** How many worst paths the JSON report lists when the caller does not ask for more. */
    public static final int DEFAULT_DEPTH_PATHS = 10;

    /** What one generation produced. */
    public record Result(EmittedDesign emitted, Path directory, double seconds) {
    }

    /**
     * How the top module is named.
     *
     * @param base      the name of the top or preset ({@code sue_endpoint})
     * @param reference parameters under which {@code base} alone names the design (the top's
     *                  defaults, or a preset's values); any other values add a suffix
     * @param explicit  a name the user chose ({@code --top-name}), used as it is; null for none
     */
    public record TopName(String base, Map<String, String> reference, String explicit) {
    }

    public Result generate(TopSpec top, Map<String, String> params, Path directory, String prefix, TopName name) {
        return generate(top, params, directory, prefix, name, DEFAULT_DEPTH_PATHS, null);
    }

    /**
     * Generates {@code top}, keeping its {@code depthPaths} worst paths in the report; a path over
     * {@code maxDepth} (when not null) is an elaboration error.
     */
    public Result generate(TopSpec top, Map<String, String> params, Path directory, String prefix, TopName name,
            int depthPaths, Double maxDepth) {
        ParamValues values = top.resolve(params);
        String topName = name.explicit() != null ? name.explicit()
                : topModuleName(prefix, name.base(), values, top.resolve(name.reference()));
        EmitOptions options = EmitOptions.integration(prefix, topName).withStamp(Version.stamp());
        long t0 = System.nanoTime();
        ElaborationOptions elaboration = ElaborationOptions.defaults().withDepth(depthPaths, maxDepth);
        Design design = Elaboration.elaborate(elaboration, top.factory().apply(values));
        EmittedDesign emitted = new SvEmitter(options).emit(design);
        new DesignWriter().write(emitted, directory, name.base());
        return new Result(emitted, directory, (System.nanoTime() - t0) / 1e9);
    }

    /**
     * {@code base} with the prefix; when the values differ from {@code reference}, also
     * {@code _} and 32 bits of the SHA-256 of the values in name order, so two configurations of
     * one top never define one module name differently.
     */
    static String topModuleName(String prefix, String base, ParamValues values, ParamValues reference) {
        String name = base.startsWith(prefix) ? base : prefix + base;
        if (values.asMap().equals(reference.asMap())) {
            return name;
        }
        StringBuilder canonical = new StringBuilder();
        new TreeMap<>(values.asMap()).forEach((k, v) -> canonical.append(k).append('=').append(v).append('\n'));
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(canonical.toString().getBytes(StandardCharsets.UTF_8));
            return name + "_" + HexFormat.of().formatHex(digest).substring(0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
