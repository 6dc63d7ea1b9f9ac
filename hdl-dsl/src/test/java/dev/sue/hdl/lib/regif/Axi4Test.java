// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.regif;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Axi4}: the port names and directions cocotbext-axi expects, and its parameter checks. */
class Axi4Test {
    static final class Through extends Component {
        final Axi4 s;
        final Axi4 m;

        Through(int a, int d, int i) {
            s = slave(new Axi4(a, d, i).named("s_axi"));
            m = master(new Axi4(a, d, i).named("m_axi"));
            connect(m, s);
        }
    }

    @Test
    void portsCarryTheSpecificationsNamesWidthsAndDirections() {
        Design d = Elaboration.elaborate(() -> new Through(40, 512, 6));
        Map<String, Signal> ports = new HashMap<>();
        for (Signal p : d.top().ir().ports()) {
            ports.put(p.name(), p);
        }
        assertEquals(6, ports.get("s_axi_awid").width());
        assertEquals(40, ports.get("s_axi_araddr").width());
        assertEquals(512, ports.get("s_axi_wdata").width());
        assertEquals(64, ports.get("s_axi_wstrb").width());
        assertEquals(8, ports.get("m_axi_arlen").width());
        assertEquals(SignalKind.IN, ports.get("s_axi_awvalid").kind());
        assertEquals(SignalKind.OUT, ports.get("s_axi_awready").kind());
        assertEquals(SignalKind.OUT, ports.get("s_axi_rdata").kind());
        assertEquals(SignalKind.IN, ports.get("s_axi_bready").kind());
        assertEquals(SignalKind.OUT, ports.get("m_axi_wvalid").kind());
        assertEquals(SignalKind.IN, ports.get("m_axi_bid").kind());
        // 5 channels: AW 12, W 5, B 4, AR 12, R 6 signals, per side
        assertEquals(2 * 39, ports.size(), "every declared port: " + ports.keySet());
    }

    @Test
    void badParametersAreNamed() {
        ElaborationException e = assertThrows(ElaborationException.class,
                () -> Elaboration.elaborate(() -> new Through(8, 64, 4)));
        assertTrue(e.getMessage().contains("an AXI4 address has 12..64 bits, got 8"), e.getMessage());
        e = assertThrows(ElaborationException.class, () -> Elaboration.elaborate(() -> new Through(32, 96, 4)));
        assertTrue(e.getMessage().contains("a power of two, got 96"), e.getMessage());
        e = assertThrows(ElaborationException.class, () -> Elaboration.elaborate(() -> new Through(32, 64, 0)));
        assertTrue(e.getMessage().contains("an AXI4 ID has 1..32 bits, got 0"), e.getMessage());
    }
}
