// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.dsltest.Sv.assertNotContains;
import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import org.junit.jupiter.api.Test;

/**
 * Bits nobody reads are gathered into {@code unused_ok} so {@code verilator -Wall} stays quiet
 * without waivers: unread inputs and wires, unread slices of them, of temporaries and of named
 * expressions, and unread outputs of sub-components.
 */
class UnusedBitsTest {
    static final class Child extends Component {
        final Bool a = in(bool());
        final UInt y = out(uint(4));

        Child() {
            y.set(a.asUInt().resize(4));
        }
    }

    static final class Partial extends Component {
        final UInt a = in(uint(8));
        final UInt b = in(uint(8));
        final Bool unusedIn = in(bool());
        final UInt lowOut = out(uint(2));
        final UInt sumOut = out(uint(2));
        final UInt namedOut = out(uint(1));

        Partial() {
            lowOut.set(a.low(2));
            UInt sum = a.add(b);
            sumOut.set(cat(sum.msb(), sum.lsb()).asUInt());
            UInt named = a.xor(b).named("mixed");
            namedOut.set(named.slice(3, 3));
            a.sub(b).named("never_read");
            Child c = instance("c", Child::new);
            c.a.set(true);
        }
    }

    @Test
    void unreadBitsOfSignalsTemporariesNamedExpressionsAndChildOutputsAreGathered() {
        String sv = Emit.sv(Partial::new);
        assertLine(sv, "assign unused_ok = ^{unused_in, c_y, add_0[6:1], mixed[2:0], mixed[7:4], never_read};");
    }

    static final class Clean extends Component {
        final UInt a = in(uint(8));
        final UInt y = out(uint(8));

        Clean() {
            y.set(a.add(1));
        }
    }

    @Test
    void aDesignThatReadsEverythingHasNoSink() {
        assertNotContains(Emit.sv(Clean::new), "unused_ok");
    }
}
