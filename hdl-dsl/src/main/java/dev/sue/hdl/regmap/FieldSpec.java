// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

/**
 * One field of a register word.
 *
 * @param name   identifier (legal in SystemRDL, C and Python), unique in its register
 * @param lsb    lowest bit in the 32-bit word
 * @param width  bits, 1..32, ending at or below bit 31
 * @param access how software reaches it
 * @param reset  value after reset, or null when the hardware drives it (RO state) or it has none
 *               (a table entry in RAM)
 * @param min    smallest legal written value (writable fields; 0 for the whole range)
 * @param max    largest legal written value (2^width - 1 for the whole range); a write outside
 *               [min, max] is illegal: ignored and answered with an error
 * @param doc    one sentence for the documentation
 */
public record FieldSpec(String name, int lsb, int width, Access access, Long reset, long min, long max, String doc) {
    public FieldSpec {
        Names.check("field", name);
        if (width < 1 || lsb < 0 || lsb + width > RegisterSpec.WORD_BITS) {
            throw new IllegalArgumentException("field " + name + " [" + (lsb + width - 1) + ":" + lsb
                    + "] does not fit a " + RegisterSpec.WORD_BITS + "-bit word");
        }
        long full = fullRange(width);
        if (min < 0 || max > full || min > max) {
            throw new IllegalArgumentException("field " + name + " has the legal range " + min + ".." + max
                    + ", which is not inside 0.." + full + " (" + width + " bits)");
        }
        if (reset != null && (reset < min || reset > max)) {
            throw new IllegalArgumentException("field " + name + " resets to " + reset
                    + ", outside its legal range " + min + ".." + max);
        }
        if (doc == null || doc.isBlank()) {
            throw new IllegalArgumentException("field " + name + " needs a description");
        }
    }

    /** A field with the whole range of its width legal. */
    public static FieldSpec of(String name, int lsb, int width, Access access, Long reset, String doc) {
        return new FieldSpec(name, lsb, width, access, reset, 0, fullRange(width), doc);
    }

    /** The same field with the legal written range {@code min..max}. */
    public FieldSpec range(long newMin, long newMax) {
        return new FieldSpec(name, lsb, width, access, reset, newMin, newMax, doc);
    }

    /** 2^width - 1. */
    public static long fullRange(int width) {
        return width >= 63 ? Long.MAX_VALUE : (1L << width) - 1;
    }

    /** Highest bit. */
    public int msb() {
        return lsb + width - 1;
    }

    /** Every value of the width is legal. */
    public boolean fullyLegal() {
        return min == 0 && max == fullRange(width);
    }

    /** The field's bits within the word. */
    public long mask() {
        return fullRange(width) << lsb;
    }
}
