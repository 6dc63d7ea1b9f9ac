// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

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
        DemoTops.register(c);
        StreamTops.register(c);
        StreamOpsTops.register(c);
        SueEncapTops.register(c);
        SueXpuTops.register(c);
        SueQueueTops.register(c);
        SueTxQueueTops.register(c);
        SueRxTops.register(c);
        CrcTops.register(c);
        RegsTops.register(c);
        SueFrameTops.register(c);
        SueTxTops.register(c);
        SueMgmtTops.register(c);
        SueAxiTops.register(c);
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
