// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import java.util.Set;

/** Identifier rules shared by naming and emission. */
public final class Naming {
    private Naming() {
    }

    /**
     * IEEE 1800-2017 Annex B reserved words plus the Verilog-2005 ones; a port or signal with one
     * of these names would not parse, so the DSL rejects them at elaboration.
     */
    public static final Set<String> SV_KEYWORDS = Set.of(
            "accept_on", "alias", "always", "always_comb", "always_ff", "always_latch", "and", "assert",
            "assign", "assume", "automatic", "before", "begin", "bind", "bins", "binsof", "bit", "break",
            "buf", "bufif0", "bufif1", "byte", "case", "casex", "casez", "cell", "chandle", "checker",
            "class", "clocking", "cmos", "config", "const", "constraint", "context", "continue", "cover",
            "covergroup", "coverpoint", "cross", "deassign", "default", "defparam", "design", "disable",
            "dist", "do", "edge", "else", "end", "endcase", "endchecker", "endclass", "endclocking",
            "endconfig", "endfunction", "endgenerate", "endgroup", "endinterface", "endmodule",
            "endpackage", "endprimitive", "endprogram", "endproperty", "endspecify", "endsequence",
            "endtable", "endtask", "enum", "event", "eventually", "expect", "export", "extends", "extern",
            "final", "first_match", "for", "force", "foreach", "forever", "fork", "forkjoin", "function",
            "generate", "genvar", "global", "highz0", "highz1", "if", "iff", "ifnone", "ignore_bins",
            "illegal_bins", "implements", "implies", "import", "incdir", "include", "initial", "inout",
            "input", "inside", "instance", "int", "integer", "interconnect", "interface", "intersect",
            "join", "join_any", "join_none", "large", "let", "liblist", "library", "local", "localparam",
            "logic", "longint", "macromodule", "matches", "medium", "modport", "module", "nand",
            "negedge", "nettype", "new", "nexttime", "nmos", "nor", "noshowcancelled", "not", "notif0",
            "notif1", "null", "or", "output", "package", "packed", "parameter", "pmos", "posedge",
            "primitive", "priority", "program", "property", "protected", "pull0", "pull1", "pulldown",
            "pullup", "pulsestyle_ondetect", "pulsestyle_onevent", "pure", "rand", "randc", "randcase",
            "randsequence", "rcmos", "real", "realtime", "ref", "reg", "reject_on", "release", "repeat",
            "restrict", "return", "rnmos", "rpmos", "rtran", "rtranif0", "rtranif1", "s_always",
            "s_eventually", "s_nexttime", "s_until", "s_until_with", "scalared", "sequence", "shortint",
            "shortreal", "showcancelled", "signed", "small", "soft", "solve", "specify", "specparam",
            "static", "string", "strong", "strong0", "strong1", "struct", "super", "supply0", "supply1",
            "sync_accept_on", "sync_reject_on", "table", "tagged", "task", "this", "throughout", "time",
            "timeprecision", "timeunit", "tran", "tranif0", "tranif1", "tri", "tri0", "tri1", "triand",
            "trior", "trireg", "type", "typedef", "union", "unique", "unique0", "unsigned", "until",
            "until_with", "untyped", "use", "uwire", "var", "vectored", "virtual", "void", "wait",
            "wait_order", "wand", "weak", "weak0", "weak1", "while", "wildcard", "wire", "with", "within",
            "wor", "xnor", "xor");

    /** {@code txValid -> tx_valid}, {@code CRCEngine -> crc_engine}, {@code crc32Out -> crc32_out}. */
    public static String toSnakeCase(String camel) {
        StringBuilder sb = new StringBuilder(camel.length() + 8);
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c)) {
                boolean prevLowerOrDigit = i > 0 && (Character.isLowerCase(camel.charAt(i - 1))
                        || Character.isDigit(camel.charAt(i - 1)));
                boolean acronymEnd = i > 0 && Character.isUpperCase(camel.charAt(i - 1))
                        && i + 1 < camel.length() && Character.isLowerCase(camel.charAt(i + 1));
                if ((prevLowerOrDigit || acronymEnd) && sb.length() > 0 && sb.charAt(sb.length() - 1) != '_') {
                    sb.append('_');
                }
                sb.append(Character.toLowerCase(c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** True for a plain SystemVerilog identifier that needs no escaping. */
    public static boolean isLegalIdentifier(String name) {
        if (name == null || name.isEmpty() || !(Character.isLetter(name.charAt(0)) || name.charAt(0) == '_')) {
            return false;
        }
        for (int i = 1; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c < 128 && (Character.isLetterOrDigit(c) || c == '_' || c == '$'))) {
                return false;
            }
        }
        return true;
    }

    public static boolean isKeyword(String name) {
        return SV_KEYWORDS.contains(name);
    }
}
