// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
            // Interleaved tables (stride > 1) are the columns of a table of records: SystemRDL
            // forbids overlapping arrays, so each record becomes a regfile array.
            Map<Long, List<RegisterSpec>> records = new LinkedHashMap<>();
            for (RegisterSpec r : b.registers()) {
                if (r.count() > 1 && r.stride() > 1) {
                    records.computeIfAbsent(recordBase(r), k -> new ArrayList<>()).add(r);
                } else {
                    reg(s, "        ", r, r.offset());
                }
            }
            for (Map.Entry<Long, List<RegisterSpec>> e : records.entrySet()) {
                RegisterSpec first = e.getValue().get(0);
                long start = e.getValue().stream().mapToLong(RegisterSpec::offset).min().orElseThrow();
                s.append("        regfile {\n");
                for (RegisterSpec r : e.getValue()) {
                    if (r.count() != first.count() || r.stride() != first.stride()) {
                        throw new IllegalArgumentException("table " + r.name() + " shares the record at word 0x"
                                + Long.toHexString(e.getKey()) + " with " + first.name() + " but not its count and stride");
                    }
                    reg(s, "            ", r.withCount(1), r.offset() - start);
                }
                s.append("        } ").append(recordName(start)).append('[').append(first.count()).append("] @ 0x")
                        .append(Long.toHexString(start * RegisterSpec.WORD_BYTES)).append(" += 0x")
                        .append(Integer.toHexString(first.stride() * RegisterSpec.WORD_BYTES)).append(";\n");
            }
            s.append("    } ").append(id(b.name())).append(" @ 0x")
                    .append(Long.toHexString(p.base() * RegisterSpec.WORD_BYTES)).append(";\n");
        }
        s.append("};\n");
        return s.toString();
    }

    /** One register (or a table of consecutive entries) at word {@code offset} of its parent. */
    private static void reg(StringBuilder s, String indent, RegisterSpec r, long offset) {
        s.append(indent).append("reg {\n");
        s.append(indent).append("    desc = \"").append(quote(r.doc())).append("\";\n");
        for (FieldSpec f : r.fields()) {
            s.append(indent).append("    field { ").append(f.access().systemRdl());
            s.append(" desc = \"").append(quote(fieldDoc(f))).append("\"; } ");
            s.append(id(f.name())).append('[').append(f.msb()).append(':').append(f.lsb()).append(']');
            if (f.reset() != null) {
                s.append(" = 0x").append(Long.toHexString(f.reset()));
            }
            s.append(";\n");
        }
        s.append(indent).append("} ").append(id(r.name()));
        if (r.count() > 1) {
            s.append('[').append(r.count()).append(']');
        }
        s.append(" @ 0x").append(Long.toHexString(offset * RegisterSpec.WORD_BYTES));
        if (r.count() > 1) {
            s.append(" += 0x").append(Integer.toHexString(RegisterSpec.WORD_BYTES));
        }
        s.append(";\n");
    }

    /** Word offset of entry 0 of the record a strided table's column belongs to. */
    private static long recordBase(RegisterSpec r) {
        return r.offset() - r.offset() % r.stride();
    }

    /** The regfile array of the record whose first column is at word {@code start}: {@code record_4000}. */
    public static String recordName(long start) {
        return "record_" + Long.toHexString(start);
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
