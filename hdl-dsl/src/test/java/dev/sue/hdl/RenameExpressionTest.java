// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.emit.SvEmitter;
import org.junit.jupiter.api.Test;

/** An expression named twice is declared once, under its last name. */
class RenameExpressionTest {
    static final class Renamed extends Component {
        final Bits a = in(bits(4));
        final Bool y = out(bool());

        Renamed() {
            Bool x = a.xorR().named("first");
            Bits again = cat(x).named("second"); // cat of one part is the same expression
            y.set(again.asBool());
        }
    }

    @Test
    void namedTwiceIsDeclaredOnce() {
        String sv = new SvEmitter().emit(Elaboration.elaborate(Renamed::new)).modules().get(0).text();
        assertEquals(1, sv.split("logic\\s+second;", -1).length - 1, sv);
        assertTrue(!sv.contains("first"), sv);
    }
}
