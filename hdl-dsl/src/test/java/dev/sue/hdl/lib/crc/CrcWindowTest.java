// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The fixed-window identity {@link CrcWindow} relies on, checked against the bit-serial
 * reference {@link CrcSpec#compute}; parameter errors; declared latency.
 */
class CrcWindowTest {
    private static String error(Supplier<? extends Component> f) {
        ElaborationException e = assertThrows(ElaborationException.class, () -> Elaboration.elaborate(f));
        assertEquals(1, e.errors().size(), e.errors().toString());
        assertEquals("CrcWindow.java", e.errors().get(0).location().file(), e.errors().toString());
        return e.errors().get(0).message();
    }

    @Test
    void windowIdentityMatchesTheReference() {
        Random rng = new Random(5);
        CrcSpec[] specs = {CrcSpec.CRC32, CrcSpec.CRC32C, new CrcSpec("CCITT", 16, 0x1021, false, false, 0xFFFF, 0)};
        for (CrcSpec spec : specs) {
            int bytes = 23;
            Gf2Matrix step = CrcMatrices.step(spec, 8 * bytes);
            for (int t = 0; t <= bytes; t++) {
                byte[] msg = new byte[bytes - t];
                rng.nextBytes(msg);
                byte[] win = new byte[bytes];
                System.arraycopy(msg, 0, win, 0, msg.length);
                long stW = CrcMatrices.applyWord(step, spec, spec.init(), win);
                long st = CrcMatrices.zeroBytesAdvance(spec, t).inverse().apply(stW);
                assertEquals(spec.compute(msg), spec.finish(st), spec.name() + " trail " + t);
            }
        }
    }

    @Test
    void rejectsBadParameters() {
        assertTrue(error(() -> new CrcWindow(CrcSpec.CRC32, 0, 0)).contains("windowBytes must be 1..512, got 0"));
        assertTrue(error(() -> new CrcWindow(CrcSpec.CRC32, 513, 0)).contains("windowBytes must be 1..512, got 513"));
        assertTrue(error(() -> new CrcWindow(CrcSpec.CRC32, 10, 11))
                .contains("maxTrail must be 0..windowBytes (10), got 11"));
        assertTrue(error(() -> new CrcWindow(CrcSpec.CRC32, 10, -1)).contains("got -1"));
        assertTrue(error(() -> new CrcWindow(null, 10, 1)).contains("CrcSpec"));
    }

    @Test
    void latencyIsOneCycle() {
        Design d = Elaboration.elaborate(() -> new CrcWindow(CrcSpec.CRC32, 22, 14));
        assertEquals(1, d.top().ir().latency());
    }
}
