// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen;

import dev.sue.gen.bench.ScalingBench;
import dev.sue.gen.tops.Catalog;
import dev.sue.gen.tops.DepthRatchet;
import dev.sue.gen.tops.ParamSpec;
import dev.sue.gen.tops.Preset;
import dev.sue.gen.tops.TopSpec;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.timing.DepthReport;
import dev.sue.hdl.Naming;
import dev.sue.hdl.emit.EmitOptions;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code sue-gen}: elaborates a named top (or preset) and writes SystemVerilog, a filelist and
 * a JSON report with the logic-depth estimate. Exit status: 0 success, 1 design errors (each
 * printed with its Java line; a path over --max-depth, or with --all over the top's depth limit,
 * is one), 2 bad command line or parameters, 3 internal error.
 */
@Command(name = "sue-gen", mixinStandardHelpOptions = true, versionProvider = GenMain.VersionProvider.class,
        description = "Generate SystemVerilog from the SUE generator's tops.",
        subcommands = {ScalingBench.class},
        footer = {"", "Examples:", "  sue-gen --list", "  sue-gen demo_accumulator -p width=16 --out-dir out/acc16",
                "  sue-gen --preset demo_wide", "  sue-gen --all --out-root out"})
public final class GenMain implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "TOP", description = "top to generate (see --list)")
    String top;

    @Option(names = {"-p", "--param"}, paramLabel = "NAME=VALUE", description = "set a parameter (repeatable; each name once)")
    List<String> paramArgs = new java.util.ArrayList<>();

    /** {@link #paramArgs} by name, filled by {@link #parseParams}. */
    private final Map<String, String> params = new LinkedHashMap<>();

    @Option(names = "--preset", paramLabel = "NAME", description = "generate a named preset (see --list)")
    String preset;

    @Option(names = "--out-dir", paramLabel = "DIR", description = "output directory (default: <out-root>/<top or preset>)")
    Path outDir;

    @Option(names = "--out-root", paramLabel = "DIR", defaultValue = "out", description = "root for default output directories (default: ${DEFAULT-VALUE})")
    Path outRoot;

    @Option(names = "--all", description = "generate every top with its default parameters")
    boolean all;

    @Option(names = "--list", description = "list tops, their parameters and presets")
    boolean list;

    @Option(names = "--prefix", paramLabel = "PREFIX", defaultValue = Generator.DEFAULT_PREFIX,
            description = "prepended to every module name (default: ${DEFAULT-VALUE}; '' for none); modules below the"
                    + " top also end in a suffix from their content, so designs generated apart compile together")
    String prefix;

    @Option(names = "--top-name", paramLabel = "NAME", description = "name of the top module (default: the top or"
            + " preset name with the prefix, plus a suffix from the parameters when they are not the defaults)")
    String topName;

    @Option(names = "--debug", description = "print Java stack traces for internal errors")
    boolean debug;

    @Option(names = "--max-depth", paramLabel = "LEVELS", description = "fail (exit 1) when the estimated logic depth "
            + "of a register-to-register path exceeds LEVELS weighted LUT6 levels (" + DepthLimits.MAX_DEPTH_RANGE
            + "); with --all it replaces every top's budget")
    String maxDepth;

    @Option(names = "--report-depth", arity = "0..1", fallbackValue = "" + Generator.DEFAULT_DEPTH_PATHS,
            paramLabel = "N", description = "print the N worst register-to-register paths with the Java line of each "
            + "step (default N " + Generator.DEFAULT_DEPTH_PATHS + "; " + DepthLimits.REPORT_RANGE + ")")
    String reportDepth;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final Catalog catalog;

    /** {@code --version}: the generator's version and the commit of its sources. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {Version.stamp()};
        }
    }

    public GenMain() {
        this(Catalog.standard());
    }

    /** A generator over another catalog (tests use one with deliberately broken designs). */
    GenMain(Catalog catalog) {
        this.catalog = catalog;
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit status (for tests). */
    public static int run(String... args) {
        return run(Catalog.standard(), args);
    }

    static int run(Catalog catalog, String... args) {
        CommandLine cl = new CommandLine(new GenMain(catalog));
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            GenMain main = cmd.getCommand() instanceof GenMain g ? g : null;
            cmd.getErr().println("sue-gen: internal error: " + ex);
            if (main != null && main.debug || List.of(parsed.originalArgs().toArray()).contains("--debug")) {
                ex.printStackTrace(cmd.getErr());
            } else {
                cmd.getErr().println("(run again with --debug for the stack trace)");
            }
            return 3;
        });
        return cl.execute(args);
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (list) {
            printList(out);
            return 0;
        }
        String prefixProblem = EmitOptions.prefixProblem(prefix);
        if (prefixProblem != null) {
            err.println("sue-gen: " + prefixProblem);
            return 2;
        }
        if (topName != null && (all || !Naming.isLegalIdentifier(topName) || Naming.isKeyword(topName))) {
            err.println("sue-gen: " + (all ? "--top-name names one top; it cannot be used with --all"
                    : "--top-name '" + topName + "' is not a plain SystemVerilog identifier (a letter or _, then"
                            + " letters, digits, _ or $; not a keyword)"));
            return 2;
        }
        try {
            checkCombinations();
            parseParams();
            DepthLimits depth = DepthLimits.parse(maxDepth, reportDepth);
            if (all) {
                return generateAll(depth, out, err);
            }
            if (preset != null) {
                Preset p = catalog.preset(preset).orElseThrow(() -> new IllegalArgumentException(
                        "unknown preset '" + preset + "'; known presets: " + String.join(", ",
                                catalog.presets().stream().map(Preset::name).toList())));
                Map<String, String> merged = new LinkedHashMap<>(p.params());
                merged.putAll(params);
                TopSpec t = catalog.top(p.top()).orElseThrow();
                generate(t, merged, outDir != null ? outDir : outRoot.resolve(p.name()),
                        new Generator.TopName(p.name(), p.params(), topName), depth, depth.maxDepth(), out);
                return 0;
            }
            if (top == null) {
                err.println("sue-gen: name a top, --preset, --all or --list (see --help)");
                return 2;
            }
            TopSpec t = catalog.top(top).orElseThrow(() -> new IllegalArgumentException(
                    "unknown top '" + top + "'; known tops: " + String.join(", ",
                            catalog.tops().stream().map(TopSpec::name).toList())));
            generate(t, params, outDir != null ? outDir : outRoot.resolve(t.name()),
                    new Generator.TopName(t.name(), Map.of(), topName), depth, depth.maxDepth(), out);
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("sue-gen: " + e.getMessage().replace("\n", "\nsue-gen: "));
            return 2;
        } catch (UncheckedIOException e) {
            err.println("sue-gen: " + e.getMessage() + " (choose a writable directory with --out-dir or --out-root)");
            return 2;
        } catch (ElaborationException e) {
            printErrors(e, err);
            return refusedParameters(e) ? 2 : 1;
        }
    }

    /** Options that contradict each other: refused before anything is elaborated. */
    private void checkCombinations() {
        if (top != null && preset != null) {
            throw new IllegalArgumentException("give a top or --preset, not both (--preset " + preset
                    + " already names its top); override the preset's parameters with -p");
        }
        if (all && (top != null || preset != null)) {
            throw new IllegalArgumentException("--all generates every top with its defaults; it takes no top or --preset");
        }
        if (all && outDir != null) {
            throw new IllegalArgumentException("--all writes each top to <out-root>/<top>; use --out-root instead of --out-dir");
        }
        if (all && !paramArgs.isEmpty()) {
            throw new IllegalArgumentException("--all generates every top with its defaults; -p needs one top or --preset");
        }
    }

    /** {@code -p NAME=VALUE} arguments by name; a name given twice is refused rather than the last one silently winning. */
    private void parseParams() {
        params.clear();
        for (String arg : paramArgs) {
            int eq = arg.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("-p '" + arg + "': expected NAME=VALUE, for example -p dataWidth=512");
            }
            String name = arg.substring(0, eq);
            String previous = params.put(name, arg.substring(eq + 1));
            if (previous != null) {
                throw new IllegalArgumentException("parameter '" + name + "' is given twice (" + name + "=" + previous
                        + " and " + arg + "); give each parameter once");
            }
        }
    }

    /**
     * True when every error is a refused parameter ({@code require} in a design): a value inside
     * the listed range that the design does not support is a bad argument (exit 2), not a design
     * error (exit 1).
     */
    private static boolean refusedParameters(ElaborationException e) {
        return !e.errors().isEmpty() && e.errors().stream().allMatch(HdlError::parameter);
    }

    private void printErrors(ElaborationException e, PrintWriter err) {
        for (HdlError error : e.errors()) {
            err.println(error);
        }
        err.println("sue-gen: " + e.errors().size() + " error(s); nothing was written");
        if (debug && e.getCause() != null) {
            e.getCause().printStackTrace(err);
        }
    }

    /**
     * Every top with its defaults, each held to its depth limit (max of its budget and its
     * {@link DepthRatchet} ceiling, or --max-depth); goes on after a failing top so one run
     * shows every top over its limit.
     */
    private int generateAll(DepthLimits depth, PrintWriter out, PrintWriter err) {
        List<String> failed = new java.util.ArrayList<>();
        for (TopSpec t : catalog.tops()) {
            double limit = depth.maxDepth() != null ? depth.maxDepth() : DepthRatchet.limit(t);
            try {
                Generator.Result r = generate(t, Map.of(), outRoot.resolve(t.name()),
                        new Generator.TopName(t.name(), Map.of(), null), depth, limit, out);
                if (depth.maxDepth() == null) {
                    ratchetNote(t, r.emitted().design().depth(), out);
                }
            } catch (ElaborationException e) {
                err.println("sue-gen: " + t.name() + ":");
                printErrors(e, err);
                failed.add(t.name());
            }
        }
        if (!failed.isEmpty()) {
            err.println("sue-gen: " + failed.size() + " top(s) failed: " + String.join(", ", failed));
            return 1;
        }
        return 0;
    }

    /** Says when a top has got shallower than its ratchet ceiling, so the ceiling can come down. */
    private static void ratchetNote(TopSpec t, DepthReport depth, PrintWriter out) {
        DepthRatchet.ceiling(t.name()).ifPresent(ceiling -> {
            double budget = t.depthBudget().levels();
            if (depth.worstLevels() <= budget) {
                out.printf("note: %s is within its budget of %s levels (estimate %s): delete its line in DepthRatchet.java%n",
                        t.name(), DepthReport.format(budget), DepthReport.format(depth.worstLevels()));
            } else if (depth.worstLevels() < ceiling) {
                out.printf("note: %s is at %s levels, under its ceiling %s: lower the ceiling in DepthRatchet.java%n",
                        t.name(), DepthReport.format(depth.worstLevels()), DepthReport.format(ceiling));
            }
        });
    }

    private Generator.Result generate(TopSpec t, Map<String, String> given, Path dir, Generator.TopName name,
            DepthLimits depth, Double limit, PrintWriter out) {
        Generator.Result r = new Generator().generate(t, given, dir, prefix, name, depth.paths(), limit);
        DepthReport d = r.emitted().design().depth();
        out.printf("%s: %d module(s), %d IR nodes, depth %s levels (estimate) -> %s (%.2f s)%n", t.name(),
                r.emitted().modules().size(), r.emitted().design().nodeCount(), DepthReport.format(d.worstLevels()),
                dir, r.seconds());
        if (depth.report() != null) {
            out.print(d.text(depth.report()));
            out.flush();
        }
        return r;
    }

    private void printList(PrintWriter out) {
        out.println("Tops:");
        for (TopSpec t : catalog.tops()) {
            out.printf("  %-24s %s%n", t.name(), t.description());
            for (ParamSpec p : t.params()) {
                out.printf("      -p %s=<%s>  %s (default %s; %s)%n", p.name(), p.bool() ? "bool" : "int",
                        p.description(), p.defaultText(), p.validValues());
            }
        }
        out.println("Presets:");
        for (Preset p : catalog.presets()) {
            out.printf("  %-24s %s (top %s %s)%n", p.name(), p.description(), p.top(), p.params());
        }
    }
}
