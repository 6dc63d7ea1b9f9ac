// SPDX-License-Identifier: Apache-2.0
package dev.sue.regress;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Component;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.SvEmitter;
import org.junit.jupiter.api.Test;

/** A named run-time Vec index used to crash the emitter ("always emitted through a temporary"). */
class NamedVecIndexTest {
    static final class NamedHead extends Component {
        public final UInt sel = in(uint(2));
        public final Bits y = out(bits(4));

        NamedHead() {
            Vec<Bits> slots = wire(Vec.of(3, i -> bits(4))).named("slots");
            for (int i = 0; i < 3; i++) {
                slots.get(i).set(B(i + 1, 4));
            }
            y.set(slots.get(sel).named("head"));
        }
    }

    @Test
    void namedVecIndexIsACaseBlockUnderItsName() {
        EmittedDesign d = new SvEmitter().emit(Elaboration.elaborate(NamedHead::new));
        String sv = d.modules().get(0).text();
        assertTrue(sv.contains("2'd0: head = slots_0;"), sv);
        assertTrue(sv.contains("default: head = slots_0;"), sv);
        assertTrue(sv.contains("assign y = head;"), sv);
    }
}
