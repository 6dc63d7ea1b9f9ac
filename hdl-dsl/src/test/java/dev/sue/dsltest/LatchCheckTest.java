// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.EnumType;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.HwEnum;
import dev.sue.hdl.UInt;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A combinational signal not assigned on every path would be a latch. */
class LatchCheckTest {
    private static String at(String mark) {
        return Marks.at(LatchCheckTest.class, mark);
    }

    private static final String ADVICE = "which would infer a latch; assign a default value before the conditional or "
            + "cover every branch";

    static final class WhenOnly extends Component {
        final Bool c = in(bool());
        final Bool d = in(bool());
        final UInt a = in(uint(4));
        final UInt y = out(uint(4)); // MARK:y
        final UInt z = out(uint(4));

        WhenOnly() {
            UInt w = wire("w", uint(4)); // MARK:w
            when(c, () -> w.set(a)); // MARK:w-when
            when(c, () -> y.set(a)) // MARK:y-when
                    .elseWhen(d, () -> y.set(w));
            z.set(w);
        }
    }

    @Test
    void aWireOrOutputAssignedOnlyUnderAConditionIsALatch() {
        List<HdlError> errors = Errors.of(WhenOnly::new);
        Errors.expect(errors, "w-when", "'w' at " + at("w") + " is not assigned on every path (the branch at "
                + at("w-when") + " can leave it unassigned), " + ADVICE);
        Errors.expect(errors, "y-when", "'y' at " + at("y") + " is not assigned on every path");
        assertEquals(2, errors.size(), Errors.describe(errors));
    }

    static final class NestedGap extends Component {
        final Bool c = in(bool());
        final Bool d = in(bool());
        final UInt y = out(uint(4));

        NestedGap() {
            when(c, () -> {
                y.set(1); // MARK:nested-first
                when(d, () -> y.set(2));
            }).otherwise(() -> when(d, () -> y.set(3))); // MARK:nested-gap
        }
    }

    @Test
    void aGapInANestedBranchIsFound() {
        Errors.only(Errors.of(NestedGap::new), "nested-first", "is not assigned on every path (the branch at "
                + at("nested-gap") + " can leave it unassigned)");
    }

    static final class CoveredInsideOpenOutside extends Component {
        final Bool c = in(bool());
        final Bool d = in(bool());
        final UInt y = out(uint(4));

        CoveredInsideOpenOutside() {
            when(c, () -> { // MARK:outer-gap
                when(d, () -> y.set(1)); // MARK:covered-later
                y.set(2);
            });
        }
    }

    @Test
    void theReportedBranchIsOneThatReallyLeavesTheSignalUnassigned() {
        // The inner when is followed by an unconditional assignment; the hole is the outer when's missing else.
        Errors.only(Errors.of(CoveredInsideOpenOutside::new), "covered-later", "(the branch at " + at("outer-gap")
                + " can leave it unassigned)");
    }

    static final class SwitchNoDefault extends Component {
        final UInt sel = in(uint(2));
        final UInt y = out(uint(4));

        SwitchNoDefault() {
            switchOn(sel, s -> s // MARK:switch
                    .is(0, () -> y.set(1)) // MARK:switch-first
                    .is(1, () -> y.set(2))
                    .is(2, () -> y.set(3)));
        }
    }

    @Test
    void aSwitchWithoutOtherwiseThatMissesValuesIsALatch() {
        Errors.only(Errors.of(SwitchNoDefault::new), "switch-first", "(the branch at " + at("switch")
                + " can leave it unassigned)");
    }

    enum Three { A, B, C }

    static final EnumType<Three> THREE = EnumType.of(Three.class);

    static final class EnumSwitchAllConstants extends Component {
        final HwEnum<Three> sel = in(enumOf(THREE));
        final UInt y = out(uint(4));

        EnumSwitchAllConstants(boolean withOtherwise) {
            switchOn(sel, s -> {
                s.is(Three.A, () -> y.set(1)) // MARK:enum-first
                        .is(Three.B, () -> y.set(2))
                        .is(Three.C, () -> y.set(3));
                if (withOtherwise) {
                    s.otherwise(() -> y.set(0));
                }
            });
        }
    }

    @Test
    void anEnumSwitchCoveringEveryConstantButNotEveryCodeNeedsOtherwise() {
        // Three constants in two bits: code 3 is possible in hardware, and the case would not assign y.
        Errors.only(Errors.of(() -> new EnumSwitchAllConstants(false)), "enum-first", "is not assigned on every path");
        Emit.elaborate(() -> new EnumSwitchAllConstants(true));
    }

    static final class FullSwitch extends Component {
        final UInt sel = in(uint(1));
        final UInt y = out(uint(4));

        FullSwitch() {
            switchOn(sel, s -> s.is(0, () -> y.set(1)).is(1, () -> y.set(2)));
        }
    }

    @Test
    void aSwitchCoveringEveryValueIsNotALatch() {
        Emit.elaborate(FullSwitch::new);
    }

    static final class Child extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        Child() {
            y.set(a);
        }
    }

    static final class ChildInputInWhen extends Component {
        final Bool c = in(bool());
        final Bool y = out(bool());

        ChildInputInWhen() {
            Child ch = instance("ch", Child::new);
            when(c, () -> ch.a.set(true)); // MARK:child-input
            y.set(ch.y);
        }
    }

    @Test
    void aChildInputAssignedUnderAConditionIsALatch() {
        Errors.only(Errors.of(ChildInputInWhen::new), "child-input", "'a' at ", "is not assigned on every path");
    }

    static final class RegistersMayKeepTheirValue extends Component {
        final Bool c = in(bool());
        final UInt y = out(uint(4));

        RegistersMayKeepTheirValue() {
            UInt r = reg("r", uint(4)).init(0);
            when(c, () -> r.set(r.add(1)));
            y.set(r);
        }
    }

    @Test
    void registersAreExempt() {
        Emit.elaborate(RegistersMayKeepTheirValue::new);
    }
}
