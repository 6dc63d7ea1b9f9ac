// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import java.util.Collections;
import java.util.Map;

/** Validated parameter values of one top, defaults filled in. */
public final class ParamValues {
    private final Map<String, Long> values;

    ParamValues(Map<String, Long> values) {
        this.values = Collections.unmodifiableMap(values);
    }

    public int integer(String name) {
        return Math.toIntExact(get(name));
    }

    public long get(String name) {
        Long v = values.get(name);
        if (v == null) {
            throw new IllegalStateException("top asked for undeclared parameter '" + name + "'");
        }
        return v;
    }

    public boolean flag(String name) {
        return get(name) != 0;
    }

    public Map<String, Long> asMap() {
        return values;
    }
}
