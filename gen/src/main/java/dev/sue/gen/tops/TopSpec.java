package dev.sue.gen.tops;

import dev.sue.hdl.Component;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A design the generator can build: its name, what it is, its parameters and how to
 * construct it from validated values.
 */
public record TopSpec(String name, String description, List<ParamSpec> params,
        Function<ParamValues, Supplier<Component>> factory) {

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
