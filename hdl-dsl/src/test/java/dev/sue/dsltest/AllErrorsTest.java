// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bool;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.UInt;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One elaboration reports every problem of a design, from every phase. */
class AllErrorsTest {
    static final class Child extends Component {
        final Bool a = in(bool()); // MARK:child-input
        final Bool y = out(bool());

        Child() {
            y.set(a);
        }
    }

    static final class Everything extends Component {
        final UInt a = in(uint(8));
        final Bool c = in(bool());
        final UInt y = out(uint(4));
        final UInt undriven = out(uint(4)); // MARK:undriven
        final Bool begin = out(bool()); // MARK:keyword
        final Bool crossed = out(bool());

        Everything() {
            y.set(a); // MARK:width
            UInt latch = wire("latch", uint(4));
            when(c, () -> latch.set(1)); // MARK:latch
            UInt r = reg(uint(4)).init(0); // MARK:unnamed
            r.set(latch.add(U(20, 4))); // MARK:literal
            Bool p = wire("p", bool()); // MARK:loop
            p.set(p.not());
            begin.set(p);
            Child child = instance("child", Child::new);
            withDomain(ClockDomain.external("rx"), () -> {
                Bool rb = reg("rb", bool()).init(false); // MARK:cdc
                rb.set(r.msb().or(child.y));
                crossed.set(rb);
            });
        }
    }

    @Test
    void everyKindOfErrorIsReportedInOnePass() {
        List<HdlError> errors = Errors.of(Everything::new);
        Errors.expect(errors, "width", "width mismatch");
        Errors.expect(errors, "literal", "UInt literal 20 does not fit in 4 unsigned bit(s)");
        Errors.expect(errors, "undriven", "'undriven' at ", "is never driven");
        Errors.expect(errors, "child-input", "input 'a' at ", "of Child 'child' is never driven");
        Errors.expect(errors, "latch", "'latch' at ", "is not assigned on every path");
        Errors.expect(errors, "unnamed", "register declared here has no name");
        Errors.expect(errors, "keyword", "'begin' is a reserved SystemVerilog keyword");
        Errors.expect(errors, "loop", "combinational loop: p (");
        assertEquals(8, errors.size(), Errors.describe(errors));
    }

    static final class OnlyCrossing extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());
        final UInt z = out(uint(4));

        OnlyCrossing() {
            z.set(a.asUInt().resize(5)); // MARK:only-width
            withDomain(ClockDomain.external("rx"), () -> {
                Bool rb = reg("rb", bool()).init(false); // MARK:only-cdc
                rb.set(a);
                y.set(rb);
            });
        }
    }

    @Test
    void theCrossingCheckRunsAlongsideOtherErrorsWhenThereIsNoLoop() {
        List<HdlError> errors = Errors.of(OnlyCrossing::new);
        Errors.expect(errors, "only-width", "width mismatch");
        Errors.expect(errors, "only-cdc", "uses signals from the default clock domain");
        assertEquals(2, errors.size(), Errors.describe(errors));
    }
}
