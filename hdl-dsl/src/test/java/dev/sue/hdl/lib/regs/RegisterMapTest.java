// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.regs;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.ir.ComponentIr;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code register(...)} documents a register map; {@link WordReadMux} checks its parameters. */
class RegisterMapTest {
    static final class Documented extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        Documented(boolean duplicate) {
            y.set(a);
            register(0x8000, "blk.frames", "ro", "frames");
            register(duplicate ? 0x8000 : 0x8001, "blk.drops", "ro", "drops");
        }
    }

    @Test
    void registerMapIsKeptInOrder() {
        Design d = Elaboration.elaborate(() -> new Documented(false));
        List<ComponentIr.RegisterEntry> map = d.top().ir().registerMap();
        assertEquals(2, map.size());
        assertEquals("blk.frames", map.get(0).name());
        assertEquals(0x8001, map.get(1).address());
    }

    @Test
    void duplicateAddressIsAnError() {
        Exception e = assertThrows(Exception.class, () -> Elaboration.elaborate(() -> new Documented(true)));
        assertTrue(String.valueOf(e.getMessage()).contains("documented twice") || e.getCause() != null
                && String.valueOf(e.getCause().getMessage()).contains("documented twice"), e.toString());
    }

    @Test
    void wordReadMuxRejectsBadParameters() {
        ElaborationException e = assertThrows(ElaborationException.class,
                () -> Elaboration.elaborate(() -> new WordReadMux(0, 32)));
        assertTrue(e.getMessage().contains("n must be 1..65536 words, got 0"), e.getMessage());
        e = assertThrows(ElaborationException.class, () -> Elaboration.elaborate(() -> new WordReadMux(4, 65)));
        assertTrue(e.getMessage().contains("width must be 1..64 bits, got 65"), e.getMessage());
        assertEquals(2, Elaboration.elaborate(() -> new WordReadMux(40, 32)).top().ir().latency());
    }
}
