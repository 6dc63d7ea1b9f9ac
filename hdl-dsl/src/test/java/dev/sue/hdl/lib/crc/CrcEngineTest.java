// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.emit.SvEmitter;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Elaboration of the CRC engine: parameter errors, declared latency, ports per option. */
class CrcEngineTest {
    private static final CrcEngine.Options DEF = CrcEngine.Options.defaults();

    private static String error(Supplier<CrcEngine> f) {
        ElaborationException e = assertThrows(ElaborationException.class, () -> Elaboration.elaborate(f));
        assertEquals(1, e.errors().size(), e.errors().toString());
        assertTrue(e.errors().get(0).location().file().equals("CrcEngine.java"), e.errors().toString());
        return e.errors().get(0).message();
    }

    @Test
    void parameterErrorsSayWhatToDo() {
        assertTrue(error(() -> new CrcEngine(CrcSpec.CRC32, 12)).contains("multiple of 8 in 8..2048, got 12"));
        assertTrue(error(() -> new CrcEngine(CrcSpec.CRC32, 4096)).contains("got 4096"));
        assertTrue(error(() -> new CrcEngine(CrcSpec.CRC32, 64, DEF.withDataPipeline(2))).contains("0 or 1"));
        assertTrue(error(() -> new CrcEngine(CrcSpec.CRC32, 64, DEF.withTailStepsPerCycle(0))).contains("1..8"));
        assertTrue(error(() -> new CrcEngine(CrcSpec.CRC32, 64, DEF.withValue(false))).contains("at least one output"));
        CrcSpec crc5 = new CrcSpec("CRC-5/USB", 5, 0x05, true, true, 0x1F, 0x1F);
        assertTrue(error(() -> new CrcEngine(crc5, 64, DEF.withCheck(true))).contains("whole bytes"));
        assertTrue(error(() -> new CrcEngine(null, 64)).contains("CrcSpec"));
        CrcSpec mixed = new CrcSpec("mixed", 16, 0x8005, false, true, 0, 0);
        assertTrue(error(() -> new CrcEngine(mixed, 64, DEF.withCheck(true))).contains("reflectIn == reflectOut"));
    }

    private static int latency(int width, CrcEngine.Options o) {
        Design d = Elaboration.elaborate(() -> new CrcEngine(CrcSpec.CRC32, width, o));
        return d.top().ir().latency();
    }

    @Test
    void declaredLatency() {
        assertEquals(1, latency(8, DEF));
        assertEquals(1, latency(512, DEF.withByteTails(false)));
        assertEquals(2, latency(512, DEF.withByteTails(false).withDataPipeline(1)));
        assertEquals(1, latency(512, DEF.withByteTails(false).withCheck(true)));
        assertEquals(2, latency(512, DEF));
        assertEquals(2, latency(1024, DEF));
        assertEquals(5, latency(512, DEF.withTailStepsPerCycle(2)));
        assertEquals(6, latency(1024, DEF.withTailStepsPerCycle(2)));
        assertEquals(2, latency(512, DEF.withValue(false).withCheck(true)));
        assertEquals(8, latency(512, DEF.withTailStepsPerCycle(1)));
        assertEquals(3, latency(512, DEF.withTailStepsPerCycle(6)));
        assertEquals(3, latency(1024, DEF.withDataPipeline(1).withCheck(true)));
        assertEquals(7, latency(1024, DEF.withDataPipeline(1).withCheck(true).withTailStepsPerCycle(2)));
    }

    @Test
    void portsFollowTheOutputs() {
        Design d = Elaboration.elaborate(() -> new CrcEngine(CrcSpec.CRC32C, 64, DEF.withValue(false).withCheck(true)));
        CrcEngine e = (CrcEngine) d.top();
        assertNull(e.crcValue);
        assertNotNull(e.crcOk);
        String sv = new SvEmitter().emit(d).modules().get(0).text();
        assertTrue(sv.contains("output logic             crc_ok"), sv.substring(0, 2000));
        assertTrue(!sv.contains("crc_value"));
        assertTrue(sv.contains("crc = CRC-32C"));
    }

    /** A sink that accepts every other cycle and checks FCSs with a tapped engine. */
    static final class TapParent extends Component {
        final Stream<PacketBeat> in = slave(Stream.of(() -> new PacketBeat(64)));
        final Bool okValid = out(bool());
        final Bool ok = out(bool());

        TapParent() {
            Bool toggle = reg("toggle", bool()).init(false);
            toggle.set(toggle.not());
            in.ready.set(toggle);
            CrcEngine e = CrcEngine.tap(in, CrcSpec.CRC32, CrcEngine.Options.defaults().withValue(false).withCheck(true));
            okValid.set(e.crcValid);
            ok.set(e.crcOk);
        }
    }

    @Test
    void tapFollowsAStreamsTransfers() {
        Design d = Elaboration.elaborate(TapParent::new);
        assertEquals(2, d.components().size());
        String top = new SvEmitter().emit(d).modules().stream().filter(m -> m.name().equals("tap_parent")).findFirst()
                .orElseThrow().text();
        assertTrue(top.contains(".s_valid") && top.contains("in_valid & in_ready"), top);
    }
}
