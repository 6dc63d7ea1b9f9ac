// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.rtl.SueTx;
import dev.sue.rtl.encap.Encapsulation;
import org.junit.jupiter.api.Test;

/** Parameter validation and declared latency of transmit reliability; behaviour: verif/tests/sue_tx_reliability. */
class TxReliabilityTest {
    private static String error(Runnable r) {
        return assertThrows(ElaborationException.class, r::run).getMessage();
    }

    @Test
    void elaboratesAtFullAndSmallSize() {
        assertEquals(TxReliability.DESC_LATENCY,
                Elaboration.elaborate(() -> new TxReliability(512, 1024, 8192, 1024)).top().ir().latency());
        assertEquals(TxReliability.DESC_LATENCY,
                Elaboration.elaborate(() -> new TxReliability(256, 2, 48, 1)).top().ir().latency());
    }

    @Test
    void parameterErrors() {
        assertTrue(error(() -> Elaboration.elaborate(() -> new TxReliability(384, 16, 256, 64)))
                .contains("dataWidth must be 256, 512 or 1024, got 384"));
        assertTrue(error(() -> Elaboration.elaborate(() -> new TxReliability(256, 1, 256, 64)))
                .contains("xpus must be 2..1024, got 1"));
        assertTrue(error(() -> Elaboration.elaborate(() -> new TxReliability(256, 16, 1, 64)))
                .contains("cells must be 2..65536, got 1"));
        assertTrue(error(() -> Elaboration.elaborate(() -> new TxReliability(256, 16, 256, 0)))
                .contains("windowMax must be 1..16384 (half the PSN space at most), got 0"));
        assertTrue(error(() -> Elaboration.elaborate(() -> new TxReliability(256, 16, 256, 16385)))
                .contains("windowMax must be 1..16384 (half the PSN space at most), got 16385"));
        assertTrue(error(() -> Elaboration.elaborate(
                () -> new SueTx(256, 16, 2, 256, Encapsulation.STD_IPV4, false, 1, 20000)))
                .contains("windowMax must be 1..16384"));
    }
}
