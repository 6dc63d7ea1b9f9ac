// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

import java.util.ArrayList;
import java.util.List;

/**
 * One register of a block: a 32-bit word at a word offset, or a table of {@code count}
 * consecutive words of the same layout (entries in RAM, one word each).
 *
 * @param name   identifier, unique in the block
 * @param offset word offset in the block
 * @param count  1 for a register, more for a table
 * @param doc    one sentence
 * @param fields at least one, in bit order or not, never overlapping
 */
public record RegisterSpec(String name, long offset, int count, String doc, List<FieldSpec> fields) {
    /** Bits of every register word. */
    public static final int WORD_BITS = 32;
    /** Bytes of a word: byte address = word address x 4. */
    public static final int WORD_BYTES = WORD_BITS / 8;

    public RegisterSpec {
        Names.check("register", name);
        if (offset < 0 || count < 1) {
            throw new IllegalArgumentException("register " + name + " needs offset >= 0 and count >= 1, got "
                    + offset + " and " + count);
        }
        if (fields.isEmpty()) {
            throw new IllegalArgumentException("register " + name + " has no field");
        }
        if (doc == null || doc.isBlank()) {
            throw new IllegalArgumentException("register " + name + " needs a description");
        }
        fields = List.copyOf(fields);
        List<String> seen = new ArrayList<>();
        long used = 0;
        for (FieldSpec f : fields) {
            if (seen.contains(f.name())) {
                throw new IllegalArgumentException("register " + name + " has two fields named " + f.name());
            }
            seen.add(f.name());
            if ((used & f.mask()) != 0) {
                throw new IllegalArgumentException("field " + f.name() + " of register " + name
                        + " overlaps another field");
            }
            used |= f.mask();
        }
    }

    /** The word offset after this register (or table). */
    public long end() {
        return offset + count;
    }

    /** The bits software may write: outside them a written 1 makes the write illegal. */
    public long writableMask() {
        long m = 0;
        for (FieldSpec f : fields) {
            if (f.access().writable()) {
                m |= f.mask();
            }
        }
        return m;
    }

    /** The reset value of the word (fields without one count 0). */
    public long resetWord() {
        long v = 0;
        for (FieldSpec f : fields) {
            if (f.reset() != null) {
                v |= f.reset() << f.lsb();
            }
        }
        return v;
    }

    /** A register of one field named {@code value} at bits {@code width-1:0}. */
    public static RegisterSpec single(String name, long offset, FieldSpec field) {
        return new RegisterSpec(name, offset, 1, field.doc(), List.of(field));
    }
}
