// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The registers of one block, at word offsets inside a window of {@code 2^addrBits} words.
 *
 * @param name      identifier of the block (the prefix of its registers in the exports)
 * @param doc       one sentence
 * @param addrBits  word address bits of the block's window
 * @param registers never overlapping, all inside the window
 */
public record RegisterBlockSpec(String name, String doc, int addrBits, List<RegisterSpec> registers) {
    public RegisterBlockSpec {
        Names.check("register block", name);
        if (addrBits < 1 || addrBits > 30) {
            throw new IllegalArgumentException("register block " + name + " needs 1..30 address bits, got " + addrBits);
        }
        if (doc == null || doc.isBlank()) {
            throw new IllegalArgumentException("register block " + name + " needs a description");
        }
        registers = List.copyOf(registers);
        // Every occupied word once: interleaved tables (stride > 1) may share a span, not a word.
        Map<Long, String> owner = new HashMap<>();
        Set<String> names = new HashSet<>();
        List<RegisterSpec> sorted = new ArrayList<>(registers);
        sorted.sort(Comparator.comparingLong(RegisterSpec::offset));
        for (RegisterSpec r : sorted) {
            if (r.end() > (1L << addrBits)) {
                throw new IllegalArgumentException(String.format("register %s.%s at word 0x%X..0x%X is outside the "
                        + "block's %d address bits", name, r.name(), r.offset(), r.end() - 1, addrBits));
            }
            if (!names.add(r.name())) {
                throw new IllegalArgumentException("block " + name + " has two registers named " + r.name());
            }
            for (int i = 0; i < r.count(); i++) {
                String other = owner.put(r.entry(i), r.name());
                if (other != null) {
                    throw new IllegalArgumentException(String.format("registers %s.%s and %s.%s overlap at word 0x%X",
                            name, other, name, r.name(), r.entry(i)));
                }
            }
        }
    }

    /** Words of the block's window. */
    public long words() {
        return 1L << addrBits;
    }
}
