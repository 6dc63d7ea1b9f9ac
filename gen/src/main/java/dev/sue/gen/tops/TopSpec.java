// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.hdl.Component;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A design the generator can build: its name, what it is, its parameters, how to construct it
 * from validated values, and the logic-depth budget its default configuration must meet.
 */
public record TopSpec(String name, String description, List<ParamSpec> params,
        Function<ParamValues, Supplier<Component>> factory, DepthBudget depthBudget) {

    /** A library top (depth budget {@link DepthBudget#LIBRARY}). */
    public TopSpec(String name, String description, List<ParamSpec> params,
            Function<ParamValues, Supplier<Component>> factory) {
        this(name, description, params, factory, DepthBudget.LIBRARY);
    }

    /** A SUE top (depth budget {@link DepthBudget#SUE}). */
    public static TopSpec sue(String name, String description, List<ParamSpec> params,
            Function<ParamValues, Supplier<Component>> factory) {
        return new TopSpec(name, description, params, factory, DepthBudget.SUE);
    }

    /** Validates {@code given} (name to text) against the declared parameters; fills in defaults. */
    public ParamValues resolve(Map<String, String> given) {
        Map<String, Long> values = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        for (String key : given.keySet()) {
            if (params.stream().noneMatch(p -> p.name().equals(key))) {
                problems.add("unknown parameter '" + key + "' for top '" + name + "'; valid parameters: "
                        + String.join(", ", params.stream().map(ParamSpec::name).toList()));
            }
        }
        for (ParamSpec p : params) {
            String text = given.get(p.name());
            try {
                values.put(p.name(), text == null ? p.defaultValue() : p.parse(text));
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("\n", problems));
        }
        return new ParamValues(values);
    }
}
