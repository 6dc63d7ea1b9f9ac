// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.emit;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.ir.ComponentIr;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.regmap.MarkdownRegsWriter;
import dev.sue.hdl.regmap.PythonRegsWriter;
import dev.sue.hdl.regmap.RegisterMap;
import dev.sue.hdl.regmap.SystemRdlWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Writes an emitted design to a directory: one {@code .sv} per module, a filelist
 * {@code <top>.f} in dependency order (names relative to the directory), and a JSON report
 * {@code <top>.json} describing modules, ports, clocks, parameters and, when elaboration estimated
 * it, the logic depth ({@code depth}: worst paths with the Java line of each step). Output is
 * byte-identical for identical designs: fixed ordering, LF line endings, no timestamps.
 */
public final class DesignWriter {
    private final ObjectWriter json;

    public DesignWriter() {
        DefaultPrettyPrinter pp = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        this.json = new ObjectMapper().writer(pp);
    }

    /** Suffixes of the register map exports written beside a top that exports a map. */
    static final String RDL = ".rdl";
    static final String PY_REGS = "_regs.py";
    static final String MD_REGS = "_regs.md";

    private static Path writeText(Path p, String text) throws IOException {
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    /** Writes the files, the filelist and report named after the top module; returns the paths written. */
    public List<Path> write(EmittedDesign design, Path dir) {
        return write(design, dir, design.topModule());
    }

    /**
     * Writes one {@code .sv} per module, then beside them, named {@code designName}: the filelist
     * {@code .f}, an instantiation template {@code _inst.svh}, a FuseSoC core {@code .core} and the
     * report {@code .json} (last). Returns the paths written in that order.
     */
    public List<Path> write(EmittedDesign design, Path dir, String designName) {
        try {
            Files.createDirectories(dir);
            removeStaleOutputs(dir);
            List<Path> written = new ArrayList<>();
            StringBuilder filelist = new StringBuilder();
            for (EmittedModule m : design.modules()) {
                Path p = dir.resolve(m.fileName());
                Files.writeString(p, m.text(), StandardCharsets.UTF_8);
                written.add(p);
                filelist.append(m.fileName()).append('\n');
            }
            Path f = dir.resolve(designName + ".f");
            Files.writeString(f, filelist.toString(), StandardCharsets.UTF_8);
            written.add(f);
            Path inst = dir.resolve(designName + "_inst.svh");
            Files.writeString(inst, IntegrationFiles.instantiationTemplate(design), StandardCharsets.UTF_8);
            written.add(inst);
            Path core = dir.resolve(designName + ".core");
            Files.writeString(core, IntegrationFiles.fusesocCore(design), StandardCharsets.UTF_8);
            written.add(core);
            RegisterMap map = design.design().top().ir().exportedMap();
            if (map != null) {
                RegisterMap named = new RegisterMap(designName, map.doc(), map.addrBits(), map.blocks());
                String header = IntegrationFiles.registerMapHeader(design);
                written.add(writeText(dir.resolve(designName + RDL), SystemRdlWriter.write(named, header)));
                written.add(writeText(dir.resolve(designName + PY_REGS), PythonRegsWriter.write(named, header)));
                written.add(writeText(dir.resolve(designName + MD_REGS), MarkdownRegsWriter.write(named, header)));
            }
            Path r = dir.resolve(designName + ".json");
            Files.writeString(r, json.writeValueAsString(report(design)) + "\n", StandardCharsets.UTF_8);
            written.add(r);
            return written;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + dir + ": " + e.getMessage(), e);
        }
    }

    /**
     * Deletes what an earlier run wrote here: every {@code X.f} beside an {@code X.json} report
     * written by hdl-dsl, the files that filelist names, and its template and core file. Other files (hand-written RTL in
     * a shared directory) are left alone.
     */
    private static void removeStaleOutputs(Path dir) throws IOException {
        List<Path> stale = new ArrayList<>();
        try (DirectoryStream<Path> lists = Files.newDirectoryStream(dir, "*.f")) {
            for (Path f : lists) {
                String base = f.getFileName().toString();
                Path report = dir.resolve(base.substring(0, base.length() - 2) + ".json");
                if (!Files.isRegularFile(report)
                        || !Files.readString(report, StandardCharsets.UTF_8).contains("\"generator\" : \"hdl-dsl\"")) {
                    continue;
                }
                for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                    if (!line.isBlank() && !line.contains("/") && !line.contains("\\")) {
                        stale.add(dir.resolve(line.strip()));
                    }
                }
                String name = base.substring(0, base.length() - 2);
                stale.add(f);
                stale.add(dir.resolve(name + "_inst.svh"));
                stale.add(dir.resolve(name + ".core"));
                stale.add(dir.resolve(name + RDL));
                stale.add(dir.resolve(name + PY_REGS));
                stale.add(dir.resolve(name + MD_REGS));
                stale.add(report);
            }
        }
        for (Path p : stale) {
            Files.deleteIfExists(p);
        }
    }

    /** The JSON report as ordered maps (also used by tests and the generator's summary). */
    public static Map<String, Object> report(EmittedDesign design) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("top_module", design.topModule());
        r.put("generator", "hdl-dsl");
        if (design.options().stamp() != null) {
            r.put("generated_by", design.options().stamp());
        }
        List<String> files = new ArrayList<>();
        for (EmittedModule m : design.modules()) {
            files.add(m.fileName());
        }
        r.put("files", files);
        Component top = design.design().top();
        List<Map<String, Object>> clocks = new ArrayList<>();
        for (Map.Entry<ClockDomain, ComponentIr.DomainPorts> e : top.ir().domainPorts().entrySet()) {
            ClockDomain d = e.getKey();
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("name", d.name().isEmpty() ? "default" : d.name());
            c.put("clock", d.clockPortName());
            c.put("reset", d.reset() == ClockDomain.Reset.NONE ? null : d.resetPortName());
            c.put("reset_kind", d.reset().name().toLowerCase());
            c.put("reset_active_low", d.resetActiveLow());
            c.put("clock_enable", d.hasClockEnable() ? d.enablePortName() : null);
            c.put("frequency_mhz", d.frequencyMhz() > 0 ? d.frequencyMhz() : null);
            clocks.add(c);
        }
        r.put("clock_domains", clocks);
        List<Map<String, Object>> modules = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (EmittedModule m : design.modules()) {
            if (m.blackBox() || !seen.add(m.name())) {
                continue;
            }
            modules.add(module(m, design));
        }
        r.put("modules", modules);
        Map<String, Object> stats = new LinkedHashMap<>();
        stats.put("ir_nodes", design.design().nodeCount());
        stats.put("component_instances", design.design().components().size());
        stats.put("modules", design.modules().size());
        r.put("stats", stats);
        RegisterMap map = top.ir().exportedMap();
        if (map != null) {
            r.put("register_map_spec", map.toJson());
        }
        if (design.design().depth() != null) {
            r.put("depth", design.design().depth().toJson());
        }
        return r;
    }

    private static Map<String, Object> module(EmittedModule m, EmittedDesign design) {
        Component c = m.representative();
        ComponentIr ir = c.ir();
        Map<String, Object> mod = new LinkedHashMap<>();
        mod.put("name", m.name());
        mod.put("class", c.getClass().getName());
        Map<String, Object> params = new LinkedHashMap<>();
        for (Map.Entry<String, Object> p : ir.parameters().entrySet()) {
            Object v = p.getValue();
            params.put(p.getKey(), v instanceof Number || v instanceof Boolean ? v : String.valueOf(v));
        }
        mod.put("parameters", params);
        mod.put("latency_cycles", ir.latency());
        if (!ir.registerMap().isEmpty()) {
            List<Map<String, Object>> regs = new ArrayList<>();
            for (ComponentIr.RegisterEntry e : ir.registerMap()) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("address", e.address());
                r.put("name", e.name());
                r.put("access", e.access());
                r.put("description", e.description());
                regs.add(r);
            }
            mod.put("register_map", regs);
        }
        List<Map<String, Object>> ports = new ArrayList<>();
        for (Signal s : ir.ports()) {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("name", s.name());
            p.put("direction", s.kind().name().equals("IN") ? "input" : "output");
            p.put("width", s.width());
            ports.add(p);
        }
        mod.put("ports", ports);
        List<Map<String, Object>> instances = new ArrayList<>();
        for (Component child : ir.children()) {
            Map<String, Object> i = new LinkedHashMap<>();
            i.put("name", child.ir().instanceName());
            i.put("module", design.moduleOf().get(child));
            instances.add(i);
        }
        mod.put("instances", instances);
        return mod;
    }
}
