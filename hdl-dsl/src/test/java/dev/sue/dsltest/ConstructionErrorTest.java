// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.EnumType;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.HwEnum;
import dev.sue.hdl.UInt;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Errors while the user's constructors run: misuse of the API, require(...), Java exceptions. */
class ConstructionErrorTest {
    static final class Leaf extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        Leaf() {
            y.set(a.not());
        }
    }

    static final class NewWithoutInstance extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        NewWithoutInstance() {
            Leaf leaf = new Leaf(); // MARK:new
            leaf.a.set(a);
            y.set(leaf.y);
        }
    }

    @Test
    void aComponentCreatedWithNewAloneIsReportedWithoutFollowUpErrors() {
        Errors.only(Errors.of(NewWithoutInstance::new), "new", "Leaf was created with 'new' alone; create "
                + "sub-components with instance(() -> new Leaf(...)) so the DSL knows their parent");
    }

    static final class Checked extends Component {
        final UInt y;

        Checked(int width) {
            require(width <= 16, "width must be at most 16, got " + width); // MARK:require
            y = out(uint(width));
            y.set(0);
        }
    }

    static final class RequireAfterOtherErrors extends Component {
        final UInt y = out(uint(4));

        RequireAfterOtherErrors() {
            y.set(U(99, 4)); // MARK:before-require
            Checked c = instance(() -> new Checked(20));
            y.set(c.y.resize(4)); // MARK:after-require
        }
    }

    @Test
    void requireReportsItsMessageAtItsLine() {
        Errors.only(Errors.of(() -> new Checked(17)), "require", "width must be at most 16, got 17");
    }

    @Test
    void requireStopsTheDesignButKeepsEarlierErrors() {
        List<HdlError> errors = Errors.of(RequireAfterOtherErrors::new);
        Errors.expect(errors, "before-require", "UInt literal 99 does not fit in 4 unsigned bit(s)");
        Errors.expect(errors, "require", "width must be at most 16, got 20");
        assertEquals(2, errors.size(), Errors.describe(errors));
    }

    static final class Throws extends Component {
        final Bool y = out(bool());

        Throws(String text) {
            y.set(false);
            int n = Integer.parseInt(text); // MARK:throw
            y.set(n > 0);
        }
    }

    static final class ThrowsInChild extends Component {
        final Bool y = out(bool());

        ThrowsInChild() {
            y.set(U(16, 4).orR()); // MARK:child-before
            Throws t = instance(() -> new Throws("x"));
            y.set(t.y);
        }
    }

    @Test
    void aJavaExceptionInUserCodeIsReportedAtTheUsersLine() {
        ElaborationException e = Errors.exception(() -> new Throws("twelve"));
        Errors.only(e.errors(), "throw", "elaboration stopped by java.lang.NumberFormatException: For input string: "
                + "\"twelve\"");
        assertInstanceOf(NumberFormatException.class, e.getCause());
    }

    @Test
    void aJavaExceptionInAChildKeepsTheErrorsFoundBefore() {
        List<HdlError> errors = Errors.of(ThrowsInChild::new);
        Errors.expect(errors, "child-before", "UInt literal 16 does not fit in 4 unsigned bit(s)");
        Errors.expect(errors, "throw", "elaboration stopped by java.lang.NumberFormatException");
        assertEquals(2, errors.size(), Errors.describe(errors));
    }

    static final class Misuse extends Component {
        final UInt a = in(uint(4));
        final UInt y = out(uint(4));
        final Bool z = out(bool());

        Misuse() {
            UInt notHardware = uint(4);
            y.set(notHardware.add(a)); // MARK:type-as-value
            a.add(1).set(a); // MARK:assign-expression
            UInt twice = out(a); // MARK:bind-twice
            z.set(a.bit(0).and(twice.lsb()));
            UInt lit = U(3, 4).named("three"); // MARK:name-literal
        }
    }

    @Test
    void misusingTypesAndValuesIsReportedAtTheLine() {
        List<HdlError> errors = Errors.of(Misuse::new);
        Errors.expect(errors, "type-as-value", "UInt(4) is a hardware type, not a signal: declare it with in(), out(), "
                + "wire() or reg() before using it");
        Errors.expect(errors, "assign-expression", "cannot assign to an expression or literal; assign to a wire(), reg() "
                + "or out() instead");
        Errors.expect(errors, "bind-twice", "this UInt(4) is already hardware; pass a fresh type such as uint(4) to "
                + "in()/out()/wire()/reg()");
        Errors.expect(errors, "name-literal", "a literal cannot be named; declare a wire and assign the literal to it");
    }

    static final class ZeroWidth extends Component {
        final UInt y = out(uint(0)); // MARK:zero-width
    }

    @Test
    void aZeroWidthTypeStopsTheDesign() {
        Errors.only(Errors.of(ZeroWidth::new), "zero-width", "width must be at least 1 bit, got 0");
    }

    enum Color { RED, GREEN }

    enum Size { SMALL, LARGE }

    static final EnumType<Color> COLOR = EnumType.of(Color.class);

    static final class BadSwitch extends Component {
        final UInt sel = in(uint(2));
        final HwEnum<Color> color = in(enumOf(COLOR));
        final UInt y = out(uint(2));
        final UInt z = out(uint(2));

        BadSwitch() {
            y.set(0);
            switchOn(sel, s -> {
                s.is(1, () -> y.set(1));
                s.is(1, () -> y.set(2)); // MARK:duplicate-case
                s.otherwise(() -> y.set(3));
                s.is(2, () -> y.set(2)); // MARK:case-after-otherwise
                s.is(4, () -> y.set(2)); // MARK:case-out-of-range
            });
            z.set(0);
            switchOn(color, s -> s.is(Size.LARGE, () -> z.set(1))); // MARK:wrong-enum
        }
    }

    @Test
    void switchMisuse() {
        List<HdlError> errors = Errors.of(BadSwitch::new);
        Errors.expect(errors, "duplicate-case", "duplicate case value 1 in switchOn");
        Errors.expect(errors, "case-after-otherwise", "case after otherwise(): put otherwise() last");
        Errors.expect(errors, "case-out-of-range", "case literal 4 does not fit in 2 unsigned bit(s)");
        Errors.expect(errors, "wrong-enum", "case LARGE does not match the selector type Color");
    }

    static final class ShapeMismatch extends Component {
        final UInt a = in(uint(4));
        final dev.sue.hdl.SInt y = out(sint(4));
        final Bool z = out(bool());

        ShapeMismatch() {
            connect(y, a); // MARK:connect-types
            assignFromBits(z, a.asBits()); // MARK:from-bits
        }
    }

    @Test
    void connectAndAssignHelpersCheckTypesAndWidths() {
        List<HdlError> errors = Errors.of(ShapeMismatch::new);
        Errors.expect(errors, "connect-types", "cannot assign UInt(4) to SInt(4); convert explicitly (asBits(), asUInt(), ...)");
        Errors.expect(errors, "from-bits", "assignFromBits(): value is 4 bits, target needs 1");
    }

    @Test
    void theExceptionMessageListsEveryErrorWithItsLocation() {
        ElaborationException e = Errors.exception(RequireAfterOtherErrors::new);
        assertEquals("2 error(s):\n"
                + Marks.at(ConstructionErrorTest.class, "before-require") + ": error: UInt literal 99 does not fit in 4 "
                + "unsigned bit(s) (range 0..15)\n"
                + Marks.at(ConstructionErrorTest.class, "require") + ": error: width must be at most 16, got 20",
                e.getMessage());
        assertTrue(e.errors().get(1).toString().startsWith(Marks.at(ConstructionErrorTest.class, "require") + ": error: "));
    }

    static final class LibraryMisuse extends Component {
        final dev.sue.hdl.lib.stream.Stream<UInt> in = slave(dev.sue.hdl.lib.stream.Stream.of(() -> uint(8)));
        final dev.sue.hdl.lib.stream.Stream<UInt> out = master(dev.sue.hdl.lib.stream.Stream.of(() -> uint(8)));

        LibraryMisuse() {
            out.connectFrom(in.map(() -> uint(8), p -> p.resize(9))); // MARK:lib-call
        }
    }

    @Test
    void anErrorInsideALibraryHelperAlsoNamesTheUsersLine() {
        List<HdlError> errors = Errors.of(LibraryMisuse::new);
        assertEquals(1, errors.size(), Errors.describe(errors));
        HdlError e = errors.get(0);
        assertEquals("Stream.java", e.location().file());
        assertEquals(java.util.Optional.of(Marks.at(ConstructionErrorTest.class, "lib-call")), e.location().caller());
        assertTrue(e.toString().contains(" (called from " + Marks.at(ConstructionErrorTest.class, "lib-call") + "): error: "
                + "width mismatch"), e.toString());
    }

    @Test
    void hardwareOutsideAnElaborationIsAClearJavaError() {
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> in(bool()));
        assertEquals("hardware can only be described while Elaboration.elaborate(() -> new Top(...)) runs",
                e.getMessage());
        IllegalArgumentException lit = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> U(256, 8));
        assertEquals("UInt literal 256 does not fit in 8 unsigned bit(s) (range 0..255)", lit.getMessage());
    }

    @Test
    void aFailedElaborationLeavesNothingBehind() {
        Errors.of(() -> new Checked(99));
        Emit.elaborate(() -> new Checked(8));
    }
}
