// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.UInt;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Combinational loops: reported with every signal on the loop and the lines that declared them. */
class LoopCheckTest {
    private static String at(String mark) {
        return Marks.at(LoopCheckTest.class, mark);
    }

    private static int line(String mark) {
        return Marks.line(LoopCheckTest.class, mark);
    }

    static final class TwoWires extends Component {
        final Bool y = out(bool());

        TwoWires() {
            Bool p = wire("p", bool()); // MARK:p
            Bool q = wire("q", bool()); // MARK:q
            p.set(q.not());
            q.set(p);
            y.set(q);
        }
    }

    @Test
    void aLoopThroughTwoWiresListsBoth() {
        List<HdlError> errors = Errors.of(TwoWires::new);
        assertEquals(1, errors.size(), Errors.describe(errors));
        HdlError e = errors.get(0);
        String m = e.message();
        assertTrue(m.startsWith("combinational loop: "), m);
        assertTrue(m.contains("p (" + at("p") + ")"), m);
        assertTrue(m.contains("q (" + at("q") + ")"), m);
        assertTrue(m.endsWith("; break it with a register"), m);
        assertTrue(Set.of(line("p"), line("q")).contains(e.location().line()), e.toString());
        // The chain reads in dependency order and closes on the signal it started with.
        assertTrue(m.equals("combinational loop: q (" + at("q") + ") depends on p (" + at("p") + ") depends on q; "
                + "break it with a register") || m.equals("combinational loop: p (" + at("p") + ") depends on q ("
                + at("q") + ") depends on p; break it with a register"), m);
    }

    static final class SelfCondition extends Component {
        final UInt y = out(uint(2));

        SelfCondition() {
            UInt w = wire("w", uint(2)); // MARK:self
            w.set(0);
            when(w.eq(0), () -> w.set(1));
            y.set(w);
        }
    }

    @Test
    void aSignalInItsOwnConditionIsALoop() {
        List<HdlError> errors = Errors.of(SelfCondition::new);
        Errors.only(errors, "self", "combinational loop: w (" + at("self") + ") depends on w");
    }

    static final class Inverter extends Component {
        final Bool a = in(bool()); // MARK:inv-a
        final Bool y = out(bool()); // MARK:inv-y

        Inverter() {
            y.set(a.not());
        }
    }

    static final class ThroughChild extends Component {
        final Bool out = out(bool());

        ThroughChild() {
            Inverter inv = instance("inv", Inverter::new);
            inv.a.set(inv.y);
            out.set(inv.y);
        }
    }

    @Test
    void loopsAcrossTheHierarchyAreFound() {
        List<HdlError> errors = Errors.of(ThroughChild::new);
        assertEquals(1, errors.size(), Errors.describe(errors));
        String m = errors.get(0).message();
        assertTrue(m.contains("a (" + at("inv-a") + ")"), m);
        assertTrue(m.contains("y (" + at("inv-y") + ")"), m);
    }

    static final class RegisterFeedback extends Component {
        final UInt y = out(uint(4));

        RegisterFeedback() {
            UInt r = reg("r", uint(4)).init(0);
            UInt next = wire("next", uint(4));
            next.set(r.add(1));
            r.set(next);
            y.set(r);
        }
    }

    @Test
    void feedbackThroughARegisterIsNotALoop() {
        Emit.elaborate(RegisterFeedback::new);
    }
}
