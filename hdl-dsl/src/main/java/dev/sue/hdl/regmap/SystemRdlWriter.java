// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

import java.util.Set;

/**
 * Writes a {@link RegisterMap} as SystemRDL 2.0 (Accellera): an {@code addrmap} of one
 * {@code regfile} per block, byte addressed, tables as register arrays. PeakRDL and any other
 * SystemRDL tool compile it into C headers, documentation or UVM models.
 */
public final class SystemRdlWriter {
    /** SystemRDL 2.0 keywords (clause 4.4): a name equal to one is written escaped, {@code \\level}. */
    private static final Set<String> KEYWORDS = Set.of("abstract", "accesstype", "addressingtype", "addrmap",
            "alias", "all", "bit", "boolean", "bothedge", "compact", "component", "componentwidth", "constraint",
            "default", "encode", "enum", "external", "false", "field", "fullalign", "hw", "inside", "internal",
            "level", "longint", "mem", "na", "negedge", "nonsticky", "number", "onreadtype", "onwritetype",
            "posedge", "property", "r", "rclr", "ref", "reg", "regalign", "regfile", "rset", "ruser", "rw", "rw1",
            "signal", "string", "struct", "sw", "this", "true", "type", "unsigned", "w", "w1", "wclr", "woclr",
            "woset", "wot", "wr", "wset", "wuser", "wzc", "wzs", "wzt");

    private SystemRdlWriter() {
    }

    public static String write(RegisterMap map, String header) {
        StringBuilder s = new StringBuilder();
        for (String line : header.split("\n")) {
            s.append("// ").append(line).append('\n');
        }
        s.append("addrmap ").append(id(map.name())).append(" {\n");
        s.append("    desc = \"").append(quote(map.doc())).append("\";\n");
        s.append("    default regwidth = ").append(RegisterSpec.WORD_BITS).append(";\n");
        s.append("    default accesswidth = ").append(RegisterSpec.WORD_BITS).append(";\n");
        for (RegisterMap.Placement p : map.blocks()) {
            RegisterBlockSpec b = p.block();
            s.append("\n    regfile {\n");
            s.append("        desc = \"").append(quote(b.doc())).append("\";\n");
            for (RegisterSpec r : b.registers()) {
                s.append("        reg {\n");
                s.append("            desc = \"").append(quote(r.doc())).append("\";\n");
                for (FieldSpec f : r.fields()) {
                    s.append("            field { ").append(f.access().systemRdl());
                    s.append(" desc = \"").append(quote(fieldDoc(f))).append("\"; } ");
                    s.append(id(f.name())).append('[').append(f.msb()).append(':').append(f.lsb()).append(']');
                    if (f.reset() != null) {
                        s.append(" = 0x").append(Long.toHexString(f.reset()));
                    }
                    s.append(";\n");
                }
                s.append("        } ").append(id(r.name()));
                if (r.count() > 1) {
                    s.append('[').append(r.count()).append(']');
                }
                s.append(" @ 0x").append(Long.toHexString(r.offset() * RegisterSpec.WORD_BYTES));
                if (r.count() > 1) {
                    s.append(" += 0x").append(Integer.toHexString(r.stride() * RegisterSpec.WORD_BYTES));
                }
                s.append(";\n");
            }
            s.append("    } ").append(id(b.name())).append(" @ 0x")
                    .append(Long.toHexString(p.base() * RegisterSpec.WORD_BYTES)).append(";\n");
        }
        s.append("};\n");
        return s.toString();
    }

    private static String id(String name) {
        return KEYWORDS.contains(name.toLowerCase()) ? "\\" + name : name;
    }

    private static String fieldDoc(FieldSpec f) {
        if (f.access().writable() && !f.fullyLegal()) {
            return f.doc() + (f.doc().endsWith(".") ? "" : ".") + " Legal values " + f.min() + ".." + f.max() + "; a write outside them is ignored"
                    + " and answered with SLVERR.";
        }
        return f.doc();
    }

    private static String quote(String text) {
        return text.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
