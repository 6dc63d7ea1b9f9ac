// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.emit;

import dev.sue.hdl.Naming;

/**
 * How the emitter names modules.
 *
 * <p>{@link #PLAIN} names a module after its class ({@code stream_fifo}) and numbers the variants
 * of one class in the order they are met ({@code stream_fifo_2}): short and readable, but two
 * designs generated separately reuse names for different contents, so they cannot be compiled
 * together. {@link #integration} makes every name safe to drop into a larger design: each module
 * carries {@code prefix}, and each module below the top ends in a stable suffix taken from its
 * content ({@code sue_stream_fifo_9f31c0aa}: the first 32 bits of the SHA-256 of its class and body,
 * which names its children, so a change anywhere below changes the name; the body is hashed without
 * Java source locations, so moving code in Java renames nothing). Equal content gives an
 * equal name in every configuration, so two designs that share a module define it identically.
 *
 * @param prefix        prepended to every module name that does not already start with it
 * @param topName       the top module's name, or null for the prefixed class name
 * @param contentSuffix whether modules below the top carry the content suffix
 * @param stamp         who generated the files (tool, version, commit), written into every file
 *                      header (a line beginning {@value #STAMP_LINE}) and the report; null for none
 */
public record EmitOptions(String prefix, String topName, boolean contentSuffix, String stamp) {
    /** Class names, numbered variants, no prefix, no stamp: for unit tests and golden files. */
    public static final EmitOptions PLAIN = new EmitOptions("", null, false, null);

    /**
     * How the stamp line of a file header begins. Build caches that key on file content skip
     * this one line: it names the generator's commit, which changes no hardware.
     */
    public static final String STAMP_LINE = "// Generator: ";

    public EmitOptions {
        String problem = prefixProblem(prefix);
        if (problem != null) {
            throw new IllegalArgumentException(problem);
        }
        if (topName != null && (!Naming.isLegalIdentifier(topName) || Naming.isKeyword(topName))) {
            throw new IllegalArgumentException("top module name '" + topName
                    + "' is not a plain SystemVerilog identifier (a letter or _ then letters, digits, _ or $; not a keyword)");
        }
    }

    /** Prefixed names with content suffixes; {@code topName} may be null. */
    public static EmitOptions integration(String prefix, String topName) {
        return new EmitOptions(prefix, topName, true, null);
    }

    /** These options with {@code stamp} (tool, version and commit) in every header and the report. */
    public EmitOptions withStamp(String stamp) {
        if (stamp != null && (stamp.contains("\n") || stamp.contains("\r"))) {
            throw new IllegalArgumentException("the stamp must be one line, got: " + stamp);
        }
        return new EmitOptions(prefix, topName, contentSuffix, stamp);
    }

    /**
     * Why {@code prefix} cannot start module names, or null when it can. The empty prefix is
     * allowed (no prefix).
     */
    public static String prefixProblem(String prefix) {
        if (prefix == null) {
            return "the module prefix must not be null (use \"\" for none)";
        }
        if (prefix.isEmpty()) {
            return null;
        }
        if (!Naming.isLegalIdentifier(prefix)) {
            return "module prefix '" + prefix + "' cannot start a SystemVerilog identifier: it must be a letter or _"
                    + " followed by letters, digits, _ or $ (for example sue_ or acme_sue_)";
        }
        if (Naming.isKeyword(prefix)) {
            return "module prefix '" + prefix + "' is a SystemVerilog keyword; add a separator (for example "
                    + prefix + "_)";
        }
        return null;
    }

    /** {@code base} with the prefix, unless it already starts with it. */
    String prefixed(String base) {
        return base.startsWith(prefix) ? base : prefix + base;
    }
}
