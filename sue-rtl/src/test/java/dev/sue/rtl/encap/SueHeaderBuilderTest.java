// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.rtl.config.SueEncapConfig;
import org.junit.jupiter.api.Test;

/** Parameter validation and header lengths; behaviour is tested in verif/tests/sue_encap. */
class SueHeaderBuilderTest {
    private static String error(Runnable r) {
        return assertThrows(ElaborationException.class, r::run).getMessage();
    }

    @Test
    void everyEncapsulationElaborates() {
        for (Encapsulation e : Encapsulation.values()) {
            for (boolean vlan : new boolean[] {false, true}) {
                if (vlan && !e.vlanAllowed()) {
                    continue;
                }
                Design d = Elaboration.elaborate(() -> new SueHeaderBuilder(e, vlan, 5));
                assertTrue(d != null);
            }
        }
    }

    @Test
    void headerLengths() {
        assertEquals(46, Encapsulation.STD_IPV4.headerBytes(true));
        assertEquals(62, Encapsulation.STD_IPV6.headerBytes(false));
        assertEquals(18, Encapsulation.AFH1.headerBytes(true));
        assertEquals(22, Encapsulation.AFH1_SHIM.headerBytes(false));
        assertEquals(14, Encapsulation.AFH2_NORMAL.headerBytes(false));
        assertEquals(8, Encapsulation.AFH2_COMPRESSED.headerBytes(false));
    }

    @Test
    void badParametersNameTheValidRange() {
        assertTrue(error(() -> Elaboration.elaborate(() -> new SueHeaderBuilder(Encapsulation.AFH1, false, 0)))
                .contains("numXpus must be 1..1024, got 0"));
        assertTrue(error(() -> Elaboration.elaborate(() -> new SueHeaderBuilder(Encapsulation.AFH1, false, 2048)))
                .contains("numXpus must be 1..1024, got 2048"));
        assertTrue(error(() -> Elaboration.elaborate(() -> new SueHeaderBuilder(Encapsulation.AFH2_NORMAL, true, 4)))
                .contains("vlan=true needs a standard or AFH Gen 1 encapsulation, got AFH2_NORMAL"));
        assertTrue(error(() -> Elaboration.elaborate(() -> new SueEncapConfig(4, true, 2)))
                .contains("ipWords must be 0, 1 or 4, got 2"));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> Encapsulation.ofCode(9));
        assertTrue(bad.getMessage().contains("must be 0..5"));
    }
}
