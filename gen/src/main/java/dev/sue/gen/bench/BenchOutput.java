// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.bench;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes benchmark records: {@code <dir>/<name>.json} holds this run's records as a JSON array;
 * {@code <dir>/history.jsonl} gets the same records appended with a timestamp, so figures
 * can be tracked over time.
 */
public final class BenchOutput {
    private BenchOutput() {
    }

    public static void write(Path dir, String name, List<BenchRecord> records) {
        ObjectMapper mapper = new ObjectMapper();
        DefaultPrettyPrinter pp = new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"))
                .withArrayIndenter(new DefaultIndenter("  ", "\n"));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (BenchRecord r : records) {
            rows.add(r.asMap());
        }
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve(name + ".json"), mapper.writer(pp).writeValueAsString(rows) + "\n",
                    StandardCharsets.UTF_8);
            StringBuilder lines = new StringBuilder();
            String now = Instant.now().toString();
            for (Map<String, Object> row : rows) {
                Map<String, Object> stamped = new LinkedHashMap<>(row);
                stamped.put("time", now);
                lines.append(mapper.writeValueAsString(stamped)).append('\n');
            }
            Files.writeString(dir.resolve("history.jsonl"), lines.toString(), StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
