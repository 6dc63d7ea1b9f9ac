package dev.sue.gen.tops;

import java.util.Map;

/**
 * A named configuration: a top with chosen parameter values.
 *
 * @param name        preset name ({@code --preset name})
 * @param top         the top it configures
 * @param params      parameter values (as they would be given with {@code -p})
 * @param description one line for {@code --list}
 */
public record Preset(String name, String top, Map<String, String> params, String description) {
}
