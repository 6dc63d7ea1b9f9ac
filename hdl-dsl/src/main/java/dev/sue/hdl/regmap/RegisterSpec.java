// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

import java.util.ArrayList;
import java.util.List;

/**
 * One register of a block: a 32-bit word at a word offset, or a table of {@code count} words of the
 * same layout, entry i at {@code offset + i * stride} (entries in RAM, one word each; a stride
 * above 1 interleaves the columns of a table of records, such as a per-destination table whose
 * entry d holds several registers).
 *
 * @param name   identifier, unique in the block
 * @param offset word offset in the block
 * @param count  1 for a register, more for a table
 * @param stride words from one entry to the next (1 for consecutive entries; 1 for a register)
 * @param doc    one sentence
 * @param fields at least one, in bit order or not, never overlapping
 */
public record RegisterSpec(String name, long offset, int count, int stride, String doc, List<FieldSpec> fields) {
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
        if (stride < 1) {
            throw new IllegalArgumentException("register " + name + " needs a stride >= 1, got " + stride);
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

    /** A register or a table of consecutive entries (stride 1). */
    public RegisterSpec(String name, long offset, int count, String doc, List<FieldSpec> fields) {
        this(name, offset, count, 1, doc, fields);
    }

    /** The word offset after the last entry of this register (or table). */
    public long end() {
        return offset + (long) (count - 1) * stride + 1;
    }

    /** The same register with {@code newCount} entries (a record's column as one word). */
    public RegisterSpec withCount(int newCount) {
        return new RegisterSpec(name, offset, newCount, newCount == 1 ? 1 : stride, doc, fields);
    }

    /** The word offset of entry {@code i}. */
    public long entry(int i) {
        return offset + (long) i * stride;
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
