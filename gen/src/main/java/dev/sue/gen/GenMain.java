package dev.sue.gen;

import dev.sue.gen.bench.ScalingBench;
import dev.sue.gen.tops.Catalog;
import dev.sue.gen.tops.ParamSpec;
import dev.sue.gen.tops.Preset;
import dev.sue.gen.tops.TopSpec;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.Naming;
import dev.sue.hdl.emit.EmitOptions;
import java.io.PrintWriter;
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
 * a JSON report. Exit status: 0 success, 1 design errors (each printed with its Java line),
 * 2 bad command line or parameters, 3 internal error.
 */
@Command(name = "sue-gen", mixinStandardHelpOptions = true, version = "sue-gen 0.1.0",
        description = "Generate SystemVerilog from the SUE generator's tops.",
        subcommands = {ScalingBench.class},
        footer = {"", "Examples:", "  sue-gen --list", "  sue-gen demo_accumulator -p width=16 --out-dir out/acc16",
                "  sue-gen --preset demo_wide", "  sue-gen --all --out-root out"})
public final class GenMain implements Callable<Integer> {
    @Parameters(index = "0", arity = "0..1", paramLabel = "TOP", description = "top to generate (see --list)")
    String top;

    @Option(names = {"-p", "--param"}, paramLabel = "NAME=VALUE", description = "set a parameter (repeatable)")
    Map<String, String> params = new LinkedHashMap<>();

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

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    private final Catalog catalog;

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
            if (all) {
                for (TopSpec t : catalog.tops()) {
                    generate(t, Map.of(), outRoot.resolve(t.name()), new Generator.TopName(t.name(), Map.of(), null), out);
                }
                return 0;
            }
            if (preset != null) {
                Preset p = catalog.preset(preset).orElseThrow(() -> new IllegalArgumentException(
                        "unknown preset '" + preset + "'; known presets: " + String.join(", ",
                                catalog.presets().stream().map(Preset::name).toList())));
                Map<String, String> merged = new LinkedHashMap<>(p.params());
                merged.putAll(params);
                TopSpec t = catalog.top(p.top()).orElseThrow();
                generate(t, merged, outDir != null ? outDir : outRoot.resolve(p.name()),
                        new Generator.TopName(p.name(), p.params(), topName), out);
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
                    new Generator.TopName(t.name(), Map.of(), topName), out);
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("sue-gen: " + e.getMessage().replace("\n", "\nsue-gen: "));
            return 2;
        } catch (ElaborationException e) {
            for (HdlError error : e.errors()) {
                err.println(error);
            }
            err.println("sue-gen: " + e.errors().size() + " error(s); nothing was written");
            if (debug && e.getCause() != null) {
                e.getCause().printStackTrace(err);
            }
            return 1;
        }
    }

    private void generate(TopSpec t, Map<String, String> given, Path dir, Generator.TopName name, PrintWriter out) {
        Generator.Result r = new Generator().generate(t, given, dir, prefix, name);
        out.printf("%s: %d module(s), %d IR nodes -> %s (%.2f s)%n", t.name(), r.emitted().modules().size(),
                r.emitted().design().nodeCount(), dir, r.seconds());
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
