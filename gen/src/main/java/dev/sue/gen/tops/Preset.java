// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * A named configuration: a top with chosen parameter values.
 *
 * @param name        preset name ({@code --preset name})
 * @param top         the top it configures
 * @param params      parameter values (as they would be given with {@code -p}), kept sorted by name so
 *                    that {@code --list} prints the same text on every run ({@code Map.of} iterates in
 *                    an order that changes from one JVM to the next)
 * @param description one line for {@code --list}
 */
public record Preset(String name, String top, Map<String, String> params, String description) {
    public Preset {
        params = Collections.unmodifiableMap(new TreeMap<>(params));
    }
}
