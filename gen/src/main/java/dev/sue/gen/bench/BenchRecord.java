// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One benchmark figure, as written to {@code out/bench/*.json}.
 *
 * @param metric dotted metric name, e.g. {@code gen.seconds}
 * @param config what was measured (block, scale, width, ...)
 * @param value  the measured value
 * @param unit   unit of the value
 * @param target the value we aim for, or null
 */
public record BenchRecord(String metric, Map<String, Object> config, double value, String unit, Double target) {
    public Map<String, Object> asMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("metric", metric);
        m.put("config", config);
        m.put("value", value);
        m.put("unit", unit);
        m.put("target", target);
        return m;
    }
}
