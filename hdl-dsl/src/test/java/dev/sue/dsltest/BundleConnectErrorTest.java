// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Stream;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Misuse of {@code connect} on bundles (interfaces): every case is an elaboration error at the
 * user's line, never a silent partial connection.
 */
class BundleConnectErrorTest {
    static final class Req extends Bundle {
        final UInt addr;
        final Bool valid = bool();
        final Bool ready = flipped(bool());

        Req(int width) {
            addr = uint(width);
        }
    }

    static final class Rsp extends Bundle {
        final UInt addr = uint(8);
        final Bool valid = bool();
        final Bool ready = flipped(bool());
    }

    static final class OtherClass extends Component {
        final Req in = slave(new Req(8));
        final Rsp out = master(new Rsp());

        OtherClass() {
            connect(out, in); // MARK:other-class
        }
    }

    @Test
    void bundlesOfDifferentClassesDoNotConnect() {
        Errors.expect(Errors.of(OtherClass::new), "other-class", "cannot connect Rsp to Req: different shapes");
    }

    static final class OtherWidth extends Component {
        final Req in = slave(new Req(8));
        final Req out = master(new Req(9));

        OtherWidth() {
            connect(out, in); // MARK:other-width
        }
    }

    @Test
    void bundlesOfTheSameClassButOtherWidthsDoNotConnect() {
        Errors.expect(Errors.of(OtherWidth::new), "other-width", "width mismatch");
    }

    static final class OtherPayload extends Component {
        final Stream<UInt> in = slave(Stream.of(() -> uint(8)));
        final Stream<Bool> out = master(Stream.of(() -> bool()));

        OtherPayload() {
            connect(out, in); // MARK:other-payload
        }
    }

    @Test
    void streamsOfOtherPayloadTypesDoNotConnect() {
        Errors.expect(Errors.of(OtherPayload::new), "other-payload", "cannot assign UInt(8) to Bool");
    }

    static final class BundleToLeaf extends Component {
        final Req in = slave(new Req(8));
        final Bool out = out(bool());

        BundleToLeaf() {
            connect(out, in); // MARK:bundle-to-leaf
        }
    }

    @Test
    void aBundleDoesNotConnectToALeaf() {
        Errors.expect(Errors.of(BundleToLeaf::new), "bundle-to-leaf", "cannot connect Bool to Req: different shapes");
    }

    static final class Reversed extends Component {
        final Req in = slave(new Req(8));
        final Req out = master(new Req(8));

        Reversed() {
            connect(in, out); // MARK:reversed
        }
    }

    @Test
    void connectingAgainstTheDirectionsIsOneErrorNamingTheField() {
        List<HdlError> errors = Errors.of(Reversed::new);
        Errors.expect(errors, "reversed", "cannot connect Req to Req: field 'valid': ",
                "cannot be driven from inside its own component", "check the argument order and master/slave");
        // Nothing was connected: the outputs are reported undriven, no further errors at the line.
        assertEquals(1, errors.stream().filter(e -> e.location().line() == Marks.line(getClass(), "reversed")).count(),
                Errors.describe(errors));
    }

    static final class NestedWidth extends Component {
        final Stream<UInt> in = slave(Stream.of(() -> uint(8)));
        final Stream<UInt> wide = master(Stream.of(() -> uint(9)));

        NestedWidth() {
            connect(wide, in); // MARK:nested-width
        }
    }

    @Test
    void aWidthMismatchInsideAPayloadIsReportedAtTheUsersLine() {
        Errors.only(Errors.of(NestedWidth::new), "nested-width", "width mismatch");
    }
}
