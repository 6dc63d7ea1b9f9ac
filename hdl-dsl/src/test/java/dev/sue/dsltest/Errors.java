// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static org.junit.jupiter.api.Assertions.fail;

import dev.sue.hdl.Component;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.ElaborationOptions;
import dev.sue.hdl.HdlError;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Elaborates designs that must fail and finds their errors by source mark:
 * <pre>{@code
 * List<HdlError> errors = Errors.of(() -> new Bad());
 * Errors.expect(errors, "set", "width mismatch", "8 bit(s)");   // at the line tagged // MARK:set
 * }</pre>
 * The mark is looked up in the source file of the test class calling {@code expect}.
 */
public final class Errors {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private Errors() {
    }

    /** Every error of a design that must fail to elaborate. */
    public static List<HdlError> of(Supplier<? extends Component> top) {
        return of(ElaborationOptions.defaults(), top);
    }

    public static List<HdlError> of(ElaborationOptions options, Supplier<? extends Component> top) {
        try {
            Elaboration.elaborate(options, top);
        } catch (ElaborationException e) {
            return e.errors();
        }
        return fail("expected elaboration errors, but the design elaborated cleanly");
    }

    /** The exception of a design that must fail (to inspect its message and cause). */
    public static ElaborationException exception(Supplier<? extends Component> top) {
        try {
            Elaboration.elaborate(top);
        } catch (ElaborationException e) {
            return e;
        }
        return fail("expected elaboration errors, but the design elaborated cleanly");
    }

    /**
     * The single error located at mark {@code mark} (in the calling test's source file) whose
     * message contains every fragment; fails listing all errors otherwise.
     */
    public static HdlError expect(List<HdlError> errors, String mark, String... fragments) {
        Class<?> caller = callerClass();
        String file = Marks.fileOf(caller);
        int line = Marks.line(caller, mark);
        List<HdlError> matches = new ArrayList<>();
        for (HdlError e : errors) {
            if (e.location().file().equals(file) && e.location().line() == line && containsAll(e.message(), fragments)) {
                matches.add(e);
            }
        }
        if (matches.size() != 1) {
            fail((matches.isEmpty() ? "no" : matches.size()) + " error(s) at " + file + ":" + line + " (mark '" + mark
                    + "') containing " + List.of(fragments) + "; errors were:\n" + describe(errors));
        }
        return matches.get(0);
    }

    /** Asserts there is exactly one error and it matches {@code mark} and the fragments. */
    public static HdlError only(List<HdlError> errors, String mark, String... fragments) {
        if (errors.size() != 1) {
            fail("expected exactly one error, got " + errors.size() + ":\n" + describe(errors));
        }
        Class<?> caller = callerClass();
        String file = Marks.fileOf(caller);
        int line = Marks.line(caller, mark);
        HdlError e = errors.get(0);
        if (!e.location().file().equals(file) || e.location().line() != line || !containsAll(e.message(), fragments)) {
            fail("expected one error at " + file + ":" + line + " (mark '" + mark + "') containing " + List.of(fragments)
                    + "; got:\n" + describe(errors));
        }
        return e;
    }

    /** Fails unless no error message contains {@code fragment}. */
    public static void none(List<HdlError> errors, String fragment) {
        for (HdlError e : errors) {
            if (e.message().contains(fragment)) {
                fail("did not expect an error containing '" + fragment + "'; errors were:\n" + describe(errors));
            }
        }
    }

    public static String describe(List<HdlError> errors) {
        return errors.stream().map(e -> "  " + e).collect(Collectors.joining("\n"));
    }

    private static boolean containsAll(String message, String... fragments) {
        for (String f : fragments) {
            if (!message.contains(f)) {
                return false;
            }
        }
        return true;
    }

    private static Class<?> callerClass() {
        return WALKER.walk(s -> s.map(StackWalker.StackFrame::getDeclaringClass)
                .filter(c -> c != Errors.class && c != Marks.class)
                .findFirst()
                .orElseThrow());
    }
}
