// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

/** Writes a {@link RegisterMap} as Markdown tables, one per block, for a design's documentation. */
public final class MarkdownRegsWriter {
    private MarkdownRegsWriter() {
    }

    public static String write(RegisterMap map, String header) {
        StringBuilder s = new StringBuilder();
        s.append("<!-- ").append(header.replace("\n", " ")).append(" -->\n\n");
        s.append("# Register map of `").append(map.name()).append("`\n\n").append(map.doc()).append("\n\n");
        s.append("Byte addresses on the 32-bit register bus (word address = byte address / 4). A write to a "
                + "read-only field, a value outside a field's legal range or a 1 in a bit no field writes is "
                + "ignored and answered with SLVERR; an address no register holds with DECERR.\n");
        for (RegisterMap.Placement p : map.blocks()) {
            RegisterBlockSpec b = p.block();
            s.append(String.format("%n## `%s` at 0x%04X%n%n%s%n%n", b.name(), p.base() * RegisterSpec.WORD_BYTES, b.doc()));
            s.append("| byte address | register | bits | field | access | reset | legal | description |\n");
            s.append("|---|---|---|---|---|---|---|---|\n");
            for (RegisterSpec r : b.registers()) {
                long addr = (p.base() + r.offset()) * RegisterSpec.WORD_BYTES;
                String where = r.count() > 1
                        ? String.format("0x%04X + %di, i < %d", addr, r.stride() * RegisterSpec.WORD_BYTES, r.count()) : String.format("0x%04X", addr);
                boolean first = true;
                for (FieldSpec f : r.fields()) {
                    s.append("| ").append(first ? where : "").append(" | ")
                            .append(first ? "`" + r.name() + "`" + (r.count() > 1 ? "[i]" : "") : "").append(" | ")
                            .append(f.width() == 1 ? Integer.toString(f.lsb()) : f.msb() + ":" + f.lsb()).append(" | ")
                            .append(f.name()).append(" | ").append(f.access().code()).append(" | ")
                            .append(f.reset() == null ? "-" : Long.toString(f.reset())).append(" | ")
                            .append(f.access().writable() ? f.min() + ".." + f.max() : "-").append(" | ")
                            .append(first && !r.doc().equals(f.doc()) ? r.doc() + " " : "").append(f.doc())
                            .append(" |\n");
                    first = false;
                }
            }
        }
        return s.toString();
    }
}
