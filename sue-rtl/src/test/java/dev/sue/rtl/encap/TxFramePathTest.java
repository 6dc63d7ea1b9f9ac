// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.rtl.mac.PortSelect;
import org.junit.jupiter.api.Test;

/** Parameter validation and declared latencies of the framing path; behaviour: verif/tests/sue_framer. */
class TxFramePathTest {
    private static String error(Runnable r) {
        return assertThrows(ElaborationException.class, r::run).getMessage();
    }

    @Test
    void everyEncapsulationAndWidthElaborates() {
        for (Encapsulation e : Encapsulation.values()) {
            for (int w : new int[] {256, 512, 1024}) {
                Design d = Elaboration.elaborate(() -> new TxFramePath(w, e, e.vlanAllowed(), 5, 1));
                assertEquals(5, d.top().ir().latency()); // header builder 3, R-CRC register, its output register
            }
        }
        assertEquals(0, Elaboration.elaborate(() -> new PortSelect(512, 1)).top().ir().latency());
    }

    @Test
    void parameterErrors() {
        assertTrue(error(() -> Elaboration.elaborate(() -> new PortSelect(512, 2)))
                .contains("one transmit path drives one port (ports = 1), got 2"));
        assertTrue(error(() -> Elaboration.elaborate(() -> new SueFramer(384, Encapsulation.AFH1, false, 4)))
                .contains("dataWidth must be a power of two in 64..1024, got 384"));
        assertTrue(error(() -> Elaboration.elaborate(() -> new SueFramer(512, Encapsulation.AFH2_NORMAL, true, 4)))
                .contains("vlan=true needs a standard or AFH Gen 1 encapsulation"));
        assertTrue(error(() -> Elaboration.elaborate(() -> new SueFramer(512, Encapsulation.AFH1, false, 1025)))
                .contains("numXpus must be 1..1024, got 1025"));
        assertTrue(error(() -> Elaboration.elaborate(() -> new SueFramer(512, null, false, 4))).contains("encap must be given"));
    }
}
