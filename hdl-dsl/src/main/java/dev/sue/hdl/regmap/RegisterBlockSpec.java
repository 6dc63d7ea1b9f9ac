// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

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
        List<RegisterSpec> sorted = new ArrayList<>(registers);
        sorted.sort(Comparator.comparingLong(RegisterSpec::offset));
        for (int i = 0; i < sorted.size(); i++) {
            RegisterSpec r = sorted.get(i);
            if (r.end() > (1L << addrBits)) {
                throw new IllegalArgumentException(String.format("register %s.%s at word 0x%X..0x%X is outside the "
                        + "block's %d address bits", name, r.name(), r.offset(), r.end() - 1, addrBits));
            }
            if (i > 0 && sorted.get(i - 1).end() > r.offset()) {
                throw new IllegalArgumentException(String.format("registers %s.%s and %s.%s overlap at word 0x%X",
                        name, sorted.get(i - 1).name(), name, r.name(), r.offset()));
            }
            for (int j = 0; j < i; j++) {
                if (sorted.get(j).name().equals(r.name())) {
                    throw new IllegalArgumentException("block " + name + " has two registers named " + r.name());
                }
            }
        }
    }

    /** Words of the block's window. */
    public long words() {
        return 1L << addrBits;
    }
}
