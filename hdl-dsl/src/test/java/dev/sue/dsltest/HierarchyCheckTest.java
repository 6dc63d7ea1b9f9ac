// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.HdlError;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A component reads its own signals and its children's ports, and drives its own signals and its children's inputs. */
class HierarchyCheckTest {
    private static String at(String mark) {
        return Marks.at(HierarchyCheckTest.class, mark);
    }

    static final class Leaf extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());
        final Bool internal = wire(bool()); // MARK:leaf-internal

        Leaf() {
            internal.set(a.not());
            y.set(internal);
        }
    }

    static final class Middle extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());
        final Leaf leaf;

        Middle() {
            leaf = instance("leaf", Leaf::new);
            leaf.a.set(a);
            y.set(leaf.y);
        }
    }

    static final class ReadsInternals extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());
        final Bool z = out(bool());

        ReadsInternals() {
            Middle m = instance("mid", Middle::new);
            m.a.set(a);
            y.set(m.leaf.internal); // MARK:child-internal
            z.set(m.leaf.y); // MARK:grandchild-port
        }
    }

    @Test
    void readingInsideASubComponentIsAnError() {
        List<HdlError> errors = Errors.of(ReadsInternals::new);
        Errors.expect(errors, "child-internal", "'internal' at " + at("leaf-internal") + " of Leaf 'leaf' is used in "
                + "ReadsInternals", "; only ports of direct sub-components can be read");
        Errors.expect(errors, "grandchild-port", "'y' at ", "of Leaf 'leaf' is used in ReadsInternals");
        assertEquals(2, errors.size(), Errors.describe(errors));
    }

    static final class Peeker extends Component {
        final Bool y = out(bool());

        Peeker(Bool fromParent) {
            y.set(fromParent.not()); // MARK:peek
        }
    }

    static final class ChildReadsParent extends Component {
        final Bool a = in(bool()); // MARK:parent-a
        final Bool y = out(bool());

        ChildReadsParent() {
            Peeker p = instance("peeker", () -> new Peeker(a));
            y.set(p.y);
        }
    }

    @Test
    void aChildReadingItsParentsSignalWithoutAPortIsAnError() {
        Errors.only(Errors.of(ChildReadsParent::new), "peek", "'a' at " + at("parent-a")
                + " of ChildReadsParent", "is used inside Peeker 'peeker'; bring it in through an input port of Peeker");
    }

    static final class DrivesChildOutput extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        DrivesChildOutput() {
            Leaf leaf = instance("leaf", Leaf::new);
            leaf.a.set(a);
            leaf.y.set(a); // MARK:drive-output
            y.set(leaf.y);
        }
    }

    @Test
    void drivingAChildsOutputIsAnError() {
        Errors.only(Errors.of(DrivesChildOutput::new), "drive-output", "belongs to Leaf",
                "and cannot be driven from DrivesChildOutput", "; only a sub-component's inputs can be driven");
    }

    static final class DrivesOwnInput extends Component {
        final Bool a = in(bool()); // MARK:own-a
        final Bool y = out(bool());

        DrivesOwnInput() {
            a.set(true); // MARK:drive-input
            y.set(a);
        }
    }

    @Test
    void drivingOwnInputIsAnError() {
        Errors.only(Errors.of(DrivesOwnInput::new), "drive-input", "the input port declared at " + at("own-a")
                + " cannot be driven from inside its own component");
    }

    static final class DrivesGrandchildInput extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        DrivesGrandchildInput() {
            Middle m = instance("mid", Middle::new);
            m.a.set(a);
            m.leaf.a.set(a); // MARK:grandchild-input
            y.set(m.y);
        }
    }

    @Test
    void drivingAGrandchildsInputIsAnError() {
        Errors.only(Errors.of(DrivesGrandchildInput::new), "grandchild-input",
                "of Leaf", "can only be driven by that component's parent");
    }

    static final class ExposesExpression extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());
        Bool expr;

        ExposesExpression() {
            expr = a.not();
            y.set(expr);
        }
    }

    static final class UsesChildExpression extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        UsesChildExpression() {
            ExposesExpression c = instance("c", ExposesExpression::new);
            c.a.set(a);
            y.set(c.expr.and(c.y)); // MARK:child-expr
        }
    }

    @Test
    void usingAnExpressionBuiltInsideAChildIsAnError() {
        List<HdlError> errors = Errors.of(UsesChildExpression::new);
        Errors.expect(errors, "child-expr", "an expression built in ExposesExpression 'c' is used in UsesChildExpression",
                "; pass the value through a port");
    }
}
