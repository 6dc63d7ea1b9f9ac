// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import java.util.List;

/**
 * A generator parameter: name, default, and the values it accepts.
 *
 * @param name        parameter name as given on the command line ({@code -p name=value})
 * @param description one line for {@code --list}
 * @param defaultValue value used when the parameter is not given
 * @param min         smallest accepted integer (ignored for booleans and choices)
 * @param max         largest accepted integer
 * @param choices     accepted integers when only specific values make sense (e.g. powers of two); empty = any in range
 * @param bool        true for a boolean parameter
 */
public record ParamSpec(String name, String description, long defaultValue, long min, long max, List<Long> choices,
        boolean bool) {

    public static ParamSpec integer(String name, String description, long defaultValue, long min, long max) {
        return new ParamSpec(name, description, defaultValue, min, max, List.of(), false);
    }

    public static ParamSpec oneOf(String name, String description, long defaultValue, Long... choices) {
        return new ParamSpec(name, description, defaultValue, Long.MIN_VALUE, Long.MAX_VALUE, List.of(choices), false);
    }

    public static ParamSpec flag(String name, String description, boolean defaultValue) {
        return new ParamSpec(name, description, defaultValue ? 1 : 0, 0, 1, List.of(), true);
    }

    /** Parses and validates {@code text}; the exception message names the valid values. */
    public long parse(String text) {
        if (bool) {
            return switch (text.toLowerCase()) {
                case "true", "1", "yes" -> 1;
                case "false", "0", "no" -> 0;
                default -> throw new IllegalArgumentException("parameter '" + name + "' is a flag: use true or false, got '"
                        + text + "'");
            };
        }
        long v;
        try {
            v = Long.decode(text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("parameter '" + name + "' needs an integer, got '" + text + "'; "
                    + validValues());
        }
        if (!choices.isEmpty() ? !choices.contains(v) : v < min || v > max) {
            throw new IllegalArgumentException("parameter '" + name + "' = " + v + " is out of range; " + validValues());
        }
        return v;
    }

    public String validValues() {
        if (bool) {
            return "valid values: true, false";
        }
        if (!choices.isEmpty()) {
            return "valid values: " + choices.stream().map(String::valueOf).reduce((a, b) -> a + ", " + b).orElse("");
        }
        return "valid range: " + min + ".." + max;
    }

    public String defaultText() {
        return bool ? Boolean.toString(defaultValue != 0) : Long.toString(defaultValue);
    }
}
