// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.ports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.regmap.RegisterSpec;
import dev.sue.rtl.SueEndpoint;
import dev.sue.rtl.config.ConfigRegisters;
import dev.sue.rtl.encap.Encapsulation;
import org.junit.jupiter.api.Test;

/** Parameters of the multi-port endpoint (sue-rtl/DESIGN-PORTS.md); behaviour: verif/tests/sue_endpoint. */
class PortsParamsTest {
    private static String error(Runnable r) {
        return assertThrows(ElaborationException.class, r::run).getMessage();
    }

    @Test
    void portCountsOtherThanOneTwoFourAreRefused() {
        for (int ports : new int[] {0, 3, 5, 8}) {
            assertTrue(error(() -> Elaboration.elaborate(() -> new SueEndpoint(256, 4, 2, 768, 16384,
                    Encapsulation.STD_IPV4, false, null, ports))).contains("ports must be 1, 2 or 4, got " + ports));
            assertTrue(error(() -> Elaboration.elaborate(() -> new TxDispatcher(256, 4, 2, ports, 16)))
                    .contains("a dispatcher serves 2 or 4 ports, got " + ports));
            assertTrue(error(() -> Elaboration.elaborate(() -> new RxMerger(256, 2, ports)))
                    .contains("a merger serves 2 or 4 ports, got " + ports));
            assertTrue(error(() -> Elaboration.elaborate(() -> new PortSteer(256, ports, 768, Encapsulation.STD_IPV4,
                    false))).contains("steering serves 2 or 4 ports, got " + ports));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ConfigRegisters.spec(4, 768, 64, null, ports));
            assertTrue(e.getMessage().contains("ports must be 1, 2 or 4, got " + ports), e.getMessage());
        }
    }

    @Test
    void thePortMapAcceptsExactlyTheDefaultAndThePorts() {
        assertTrue(ConfigRegisters.spec(4, 768, 64, null, 1).registers().stream()
                .noneMatch(r -> r.name().equals("PORT_MAP")), "one port: no PORT_MAP");
        for (int ports : new int[] {2, 4}) {
            RegisterSpec map = ConfigRegisters.spec(16, 768, 64, null, ports).registers().stream()
                    .filter(r -> r.name().equals("PORT_MAP")).findFirst().orElseThrow();
            assertEquals(ConfigRegisters.TABLE_BASE + TxDispatcher.PORT_MAP_COLUMN, map.offset());
            assertEquals(16, map.count());
            var field = ConfigRegisters.field(map, "port");
            assertEquals(0, field.min());
            assertEquals(ports, field.max()); // 0 = d mod ports, p + 1 = port p; above: refused
        }
    }

    @Test
    void theModeAndUnreachableTimeRegistersComeWithSeveralPorts() {
        var one = ConfigRegisters.spec(4, 768, 64, null, 1).registers();
        assertTrue(one.stream().noneMatch(r -> r.name().equals("PORT_MODE") || r.name().equals("UNREACH_TIME")));
        for (int ports : new int[] {2, 4}) {
            var regs = ConfigRegisters.spec(4, 768, 64, null, ports).registers();
            RegisterSpec mode = regs.stream().filter(r -> r.name().equals("PORT_MODE")).findFirst().orElseThrow();
            assertEquals(TxDispatcher.ADDR_PORT_MODE, mode.offset());
            assertEquals(Long.valueOf(0), ConfigRegisters.field(mode, "unordered").reset()); // strict mode after reset
            RegisterSpec time = regs.stream().filter(r -> r.name().equals("UNREACH_TIME")).findFirst().orElseThrow();
            assertEquals(PortSteer.ADDR_UNREACH_TIME, time.offset());
            assertEquals(Long.valueOf(PortSteer.UNREACH_TIME_DEFAULT), ConfigRegisters.field(time, "cycles").reset());
        }
    }
}
