package dev.sue.gen.tops;

import dev.sue.hdl.demo.DemoAccumulator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every top and preset the generator knows, in the order {@code --list} shows them.
 * {@code --all} generates each top with its defaults.
 */
public final class Catalog {
    private final Map<String, TopSpec> tops = new LinkedHashMap<>();
    private final Map<String, Preset> presets = new LinkedHashMap<>();

    public static Catalog standard() {
        Catalog c = new Catalog();
        c.add(new TopSpec("demo_accumulator",
                "small demo: ALU sub-component, enum, history RAM; proves the Java -> SV -> Verilator chain",
                List.of(ParamSpec.integer("width", "accumulator width in bits", 8, 1, 64),
                        ParamSpec.oneOf("historyDepth", "entries of the history RAM", 16, 2L, 4L, 8L, 16L, 32L, 64L,
                                128L, 256L, 512L, 1024L)),
                v -> () -> new DemoAccumulator(v.integer("width"), v.integer("historyDepth"))));
        c.add(new Preset("demo", "demo_accumulator", Map.of(), "the demo accumulator with default parameters"));
        c.add(new Preset("demo_wide", "demo_accumulator", Map.of("width", "64", "historyDepth", "1024"),
                "the demo accumulator at its largest"));
        CrcTops.register(c);
        return c;
    }

    public void add(TopSpec top) {
        if (tops.putIfAbsent(top.name(), top) != null) {
            throw new IllegalArgumentException("duplicate top " + top.name());
        }
    }

    public void add(Preset preset) {
        if (!tops.containsKey(preset.top())) {
            throw new IllegalArgumentException("preset " + preset.name() + " names unknown top " + preset.top());
        }
        presets.put(preset.name(), preset);
    }

    public Optional<TopSpec> top(String name) {
        return Optional.ofNullable(tops.get(name));
    }

    public Optional<Preset> preset(String name) {
        return Optional.ofNullable(presets.get(name));
    }

    public List<TopSpec> tops() {
        return List.copyOf(tops.values());
    }

    public List<Preset> presets() {
        return List.copyOf(presets.values());
    }
}
