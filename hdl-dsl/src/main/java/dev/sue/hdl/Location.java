// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import java.util.Optional;

/**
 * Where in the user's Java code something was described.
 *
 * <p>{@code file:line} is the first stack frame outside the DSL core, which is the user's
 * component or a library block. {@code callerFile:callerLine}, when different, is the
 * first frame outside the whole hdl-dsl module, so an error raised inside a library
 * helper also names the user's line that called it.
 */
public record Location(String file, int line, String callerFile, int callerLine) {
    public static final Location UNKNOWN = new Location("<unknown>", 0, null, 0);
    /** For things the DSL creates itself, such as clock and reset ports. */
    public static final Location GENERATED = new Location("<generated>", 0, null, 0);

    private static final StackWalker WALKER = StackWalker.getInstance();

    /** Captures the caller's location; costs one partial stack walk. */
    public static Location here() {
        return WALKER.walk(frames -> {
            StackWalker.StackFrame first = null;
            for (StackWalker.StackFrame f : (Iterable<StackWalker.StackFrame>) frames::iterator) {
                String cls = f.getClassName();
                if (isCore(cls)) {
                    continue;
                }
                if (first == null) {
                    first = f;
                    if (!isLibrary(cls)) {
                        return of(f, null);
                    }
                } else if (!isLibrary(cls)) {
                    return of(first, f);
                }
            }
            return first == null ? UNKNOWN : of(first, null);
        });
    }

    private static Location of(StackWalker.StackFrame f, StackWalker.StackFrame caller) {
        return new Location(String.valueOf(f.getFileName()), f.getLineNumber(),
                caller == null ? null : String.valueOf(caller.getFileName()),
                caller == null ? 0 : caller.getLineNumber());
    }

    private static boolean isCore(String cls) {
        if (cls.startsWith("java.") || cls.startsWith("jdk.") || cls.startsWith("sun.")) {
            return true;
        }
        if (!cls.startsWith("dev.sue.hdl.")) {
            return false;
        }
        return !cls.startsWith("dev.sue.hdl.lib.") && !cls.startsWith("dev.sue.hdl.demo.");
    }

    private static boolean isLibrary(String cls) {
        return cls.startsWith("dev.sue.hdl.lib.");
    }

    public Optional<String> caller() {
        return callerFile == null ? Optional.empty() : Optional.of(callerFile + ":" + callerLine);
    }

    /** {@code File.java:12}, without the caller: used in emitted comments so output does not depend on call sites. */
    public String shortForm() {
        return file + ":" + line;
    }

    @Override
    public String toString() {
        return callerFile == null ? shortForm() : shortForm() + " (called from " + callerFile + ":" + callerLine + ")";
    }
}
