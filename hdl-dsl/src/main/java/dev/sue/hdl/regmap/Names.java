// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

import java.util.Set;
import java.util.regex.Pattern;

/** Register, field and block names: identifiers every export (SystemRDL, C, Python) accepts. */
final class Names {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z][A-Za-z0-9_]*");
    /**
     * Python and C keywords: a register or block name becomes a Python attribute or class and a C
     * identifier. (SystemRDL keywords are escaped by {@link SystemRdlWriter} instead.)
     */
    private static final Set<String> RESERVED = Set.of("False", "None", "True", "and", "as", "assert", "async",
            "await", "break", "class", "continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
            "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return",
            "try", "while", "with", "yield", "auto", "case", "char", "const", "default", "do", "double", "enum",
            "extern", "float", "goto", "inline", "int", "long", "register", "restrict", "short", "signed",
            "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile");

    private Names() {
    }

    static void check(String kind, String name) {
        if (name == null || !IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException(kind + " name '" + name
                    + "' must be a letter followed by letters, digits or '_'");
        }
        if (RESERVED.contains(name)) {
            throw new IllegalArgumentException(kind + " name '" + name + "' is a Python or C keyword: choose another");
        }
    }
}
