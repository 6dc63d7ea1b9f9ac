// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.UInt;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Undriven outputs, wires, registers and child inputs; two unconditional drivers in one block. */
class DriverCheckTest {
    private static String at(String mark) {
        return Marks.at(DriverCheckTest.class, mark);
    }

    static final class Child extends Component {
        final Bool a = in(bool()); // MARK:child-a
        final Bool b = in(bool());
        final Bool y = out(bool());

        Child() {
            y.set(a.and(b));
        }
    }

    static final class Undriven extends Component {
        final Bool x = in(bool());
        final UInt y = out(uint(4)); // MARK:out
        final Bool z = out(bool());

        Undriven() {
            Bool w = wire("w", bool()); // MARK:wire
            UInt r = reg("r", uint(4)).init(0); // MARK:reg
            Child c = instance("c", Child::new); // MARK:instance
            c.b.set(x);
            z.set(w.or(c.y).or(r.orR()));
        }
    }

    @Test
    void everyOutputWireRegisterAndChildInputMustBeDriven() {
        List<HdlError> errors = Errors.of(Undriven::new);
        Errors.expect(errors, "out", "'y' at " + at("out") + " is never driven; assign it with set(...)");
        Errors.expect(errors, "wire", "'w' at " + at("wire") + " is never driven; assign it with set(...)");
        Errors.expect(errors, "reg", "'r' at " + at("reg") + " is never driven; a register that is never assigned "
                + "only ever holds its reset value");
        Errors.expect(errors, "child-a", "input 'a' at " + at("child-a") + " of Child 'c' is never driven; connect it in "
                + "Undriven");
        assertEquals(4, errors.size(), Errors.describe(errors));
    }

    static final class TwoDrivers extends Component {
        final UInt a = in(uint(4));
        final Bool c = in(bool());
        final UInt y = out(uint(4));
        final UInt z = out(uint(4));

        TwoDrivers() {
            y.set(a); // MARK:first
            y.set(a.add(1)); // MARK:second
            z.set(0);
            when(c, () -> {
                z.set(a); // MARK:in-when-first
                z.set(a.not()); // MARK:in-when-second
            });
        }
    }

    @Test
    void twoUnconditionalAssignmentsInOneBlockAreAnError() {
        List<HdlError> errors = Errors.of(TwoDrivers::new);
        Errors.expect(errors, "first", "has two drivers in the same block: this assignment is always overridden by the "
                + "one at " + at("second") + "; remove one or make it conditional");
        Errors.expect(errors, "in-when-first", "overridden by the one at " + at("in-when-second"));
        assertEquals(2, errors.size(), Errors.describe(errors));
    }

    static final class DefaultThenOverride extends Component {
        final UInt a = in(uint(4));
        final Bool c = in(bool());
        final UInt y = out(uint(4));

        DefaultThenOverride() {
            y.set(0);
            when(c, () -> y.set(a));
        }
    }

    @Test
    void aDefaultFollowedByAConditionalOverrideIsFine() {
        Emit.elaborate(DefaultThenOverride::new);
    }
}
