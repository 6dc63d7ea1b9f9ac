// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Elaboration of the CRC appender: parameter errors with their messages, declared latency. */
class CrcAppenderTest {
    private static String error(Supplier<? extends Component> f) {
        ElaborationException e = assertThrows(ElaborationException.class, () -> Elaboration.elaborate(f));
        assertEquals(1, e.errors().size(), e.errors().toString());
        assertEquals("CrcAppender.java", e.errors().get(0).location().file(), e.errors().toString());
        return e.errors().get(0).message();
    }

    @Test
    void rejectsBadParameters() {
        assertTrue(error(() -> new CrcAppender(CrcSpec.CRC32, 24, 0, false))
                .contains("dataWidth must be a multiple of 8 in 32..2048 (at least the CRC's 4 bytes), got 24"));
        assertTrue(error(() -> new CrcAppender(CrcSpec.CRC32, 100, 0, false)).contains("got 100"));
        assertTrue(error(() -> new CrcAppender(CrcSpec.CRC32, 4096, 0, false)).contains("got 4096"));
        assertTrue(error(() -> new CrcAppender(CrcSpec.CRC32, 512, -1, false)).contains("offset must be 0..65535, got -1"));
        assertTrue(error(() -> new CrcAppender(CrcSpec.CRC32, 512, 65536, true)).contains("got 65536"));
        CrcSpec crc12 = new CrcSpec("CRC-12", 12, 0x80F, false, true, 0, 0);
        assertTrue(error(() -> new CrcAppender(crc12, 512, 0, false)).contains("must be whole bytes"));
        assertTrue(error(() -> new CrcAppender(null, 512, 0, false)).contains("CrcSpec"));
    }

    @Test
    void latencyAndQueueDepth() {
        for (boolean ft : new boolean[] {false, true}) {
            Design d = Elaboration.elaborate(() -> new CrcAppender(CrcSpec.CRC32, 512, 14, ft));
            assertEquals(ft ? 0 : 1, d.top().ir().latency());
        }
        CrcAppender[] a = new CrcAppender[1];
        Elaboration.elaborate(() -> a[0] = new CrcAppender(CrcSpec.CRC32, 1024, 0, true));
        assertEquals(a[0].engineLatency() + 4, a[0].queueDepth());
    }
}
