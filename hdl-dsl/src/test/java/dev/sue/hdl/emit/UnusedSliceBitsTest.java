// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.emit;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Component;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.UInt;
import org.junit.jupiter.api.Test;

/** Bits of an expression wire that only a slice reads must reach {@code unused_ok} (verilator -Wall). */
class UnusedSliceBitsTest {
    static final class SlicedMux extends Component {
        public final UInt a = in(uint(4));
        public final UInt y = out(uint(2));

        SlicedMux() {
            // The mux becomes a temporary wire so that it can be sliced; bits 3:2 are never read.
            y.set(mux(a.gt(2), U(2, 4), a).resize(2));
        }
    }

    @Test
    void unreadBitsOfASlicedTemporaryAreGathered() {
        String sv = new SvEmitter().emit(Elaboration.elaborate(SlicedMux::new)).modules().get(0).text();
        assertTrue(sv.matches("(?s).*assign unused_ok = \\^\\{mux_\\d+\\[3:2\\]\\};.*"), sv);
    }
}
