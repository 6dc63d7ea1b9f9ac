// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.UInt;
import dev.sue.hdl.emit.SvEmitter;
import dev.sue.hdl.lib.arbiter.ArbiterPolicy;
import dev.sue.hdl.lib.arbiter.StreamArbiter;
import dev.sue.hdl.lib.credit.CreditReceiver;
import dev.sue.hdl.lib.credit.CreditSender;
import dev.sue.hdl.lib.streamops.ForkMode;
import dev.sue.hdl.lib.streamops.StreamFork;
import dev.sue.hdl.lib.streamops.StreamJoin;
import dev.sue.hdl.lib.streamops.StreamMux;
import dev.sue.hdl.lib.width.PacketDownsizer;
import dev.sue.hdl.lib.width.PacketUpsizer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The stream library rejects bad parameters with a message naming the valid range, reports
 * its latency, and works with payloads other than packet beats (the cocotb tests use packets).
 */
class StreamLibraryParametersTest {
    private static String errorOf(Supplier<? extends Component> top) {
        ElaborationException e = assertThrows(ElaborationException.class, () -> Elaboration.elaborate(top));
        return e.getMessage();
    }

    @Test
    void badParametersAreReportedWithTheirValidRange() {
        assertTrue(errorOf(() -> StreamArbiter.forPackets(0, 32, ArbiterPolicy.ROUND_ROBIN, true))
                .contains("inputs must be 1..1024, got 0"));
        assertTrue(errorOf(() -> new StreamMux<>(2000, () -> bits(8))).contains("inputs must be 1..1024"));
        assertTrue(errorOf(() -> new PacketUpsizer(12, 2)).contains("inputWidth must be a multiple of 8"));
        assertTrue(errorOf(() -> new PacketDownsizer(64, 3)).contains("split into 3 whole-byte lanes"));
        assertTrue(errorOf(() -> new CreditSender<>(() -> bits(8), 4, 5, 1))
                .contains("initialCredits must be 0..maxCredits (4), got 5"));
        assertTrue(errorOf(() -> new CreditReceiver(4, 1, 5, 0)).contains("maxReturnPerCycle must be 1..capacity"));
    }

    @Test
    void blocksDeclareTheirLatency() {
        assertEquals(1, latencyOf(() -> new PacketUpsizer(32, 4)));
        assertEquals(0, latencyOf(() -> new PacketUpsizer(32, 1)));
        assertEquals(0, latencyOf(() -> new PacketDownsizer(128, 4)));
        assertEquals(1, latencyOf(() -> new CreditReceiver(8, 2, 2, 0)));
        assertEquals(0, latencyOf(() -> new StreamFork<>(3, () -> bits(8), ForkMode.ASYNCHRONOUS)));
    }

    @Test
    void leafPayloadsWork() {
        Supplier<UInt> byteType = () -> uint(8);
        // Locking on a payload bit stands in for a last flag.
        Design d = Elaboration.elaborate(() -> new StreamArbiter<UInt>(3, byteType, ArbiterPolicy.FIXED_PRIORITY,
                p -> p.bit(7)));
        String sv = new SvEmitter().emit(d).modules().get(1).text();
        assertTrue(sv.contains("input  wire logic [7:0] s_2_payload"), sv);
        Elaboration.elaborate(() -> new StreamJoin<>(2, byteType));
        Elaboration.elaborate(() -> new CreditSender<>(byteType, 3, 3, 3));
    }

    private static int latencyOf(Supplier<? extends Component> top) {
        return Elaboration.elaborate(top).top().ir().latency();
    }
}
