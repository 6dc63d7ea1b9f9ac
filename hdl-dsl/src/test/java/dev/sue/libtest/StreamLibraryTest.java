// SPDX-License-Identifier: Apache-2.0
package dev.sue.libtest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.SvEmitter;
import dev.sue.hdl.lib.cdc.BitSynchronizer;
import dev.sue.hdl.lib.cdc.GraySynchronizer;
import dev.sue.hdl.lib.fifo.AsyncStreamFifo;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Elaboration-level checks of the stream library, seen from a user package (so error locations
 * name this file, as they would a user's); behaviour is verified by the cocotb tests in verif/tests/.
 */
class StreamLibraryTest {

    /** Every convenience method, chained: s -> m2s -> s2m -> full -> half -> queue(4) -> queue(12) -> m. */
    static final class Chain extends Component {
        final Stream<PacketBeat> s = slave(Stream.of(() -> new PacketBeat(32)));
        final Stream<PacketBeat> m = master(Stream.of(() -> new PacketBeat(32)));

        Chain() {
            m.connectFrom(s.m2sPipe().s2mPipe().fullPipe().halfPipe().queue(4).queue(12));
        }
    }

    @Test
    void convenienceMethodsChainAndDeclareLatencies() {
        Design design = Elaboration.elaborate(Chain::new);
        Map<String, Integer> latency = design.components().stream().filter(c -> c != design.top())
                .filter(c -> c.ir().parent() == design.top())
                .collect(Collectors.toMap(c -> c.getClass().getSimpleName() + "/" + c.ir().instanceName(),
                        c -> c.ir().latency()));
        assertEquals(Map.of("StreamForwardRegister/stream_forward_register_0", 1,
                "StreamSkidBuffer/stream_skid_buffer_0", 0,
                "StreamFullRegister/stream_full_register_0", 1,
                "StreamHalfRegister/stream_half_register_0", 1,
                "StreamFifo/stream_fifo_0", 1, // 4 entries: registers
                "StreamFifo/stream_fifo_1", 2), // 12 entries: RAM
                latency);
        EmittedDesign sv = new SvEmitter().emit(design);
        String top = sv.modules().get(sv.modules().size() - 1).text();
        assertTrue(top.contains("input  wire logic [31:0] s_data"), top);
        assertTrue(top.contains("output logic             m_last"), top);
    }

    @Test
    void fifoParametersAreValidatedAtTheCallersLine() {
        assertError(() -> new StreamFifo<>(bitsOf(8), 0, FifoStorage.RAM, 1), "depth must be at least 1, got 0");
        assertError(() -> new StreamFifo<>(bitsOf(8), 16, FifoStorage.REGISTERS, 17),
                "almostFullThreshold must be 1..16 (the depth), got 17");
        assertError(() -> new StreamFifo<>(bitsOf(8), 4, null, 4), "storage must be REGISTERS, LUT_RAM or RAM");
    }

    @Test
    void asyncFifoParametersAreValidated() {
        ClockDomain a = ClockDomain.external("a");
        ClockDomain b = ClockDomain.external("b");
        assertError(() -> new AsyncStreamFifo<>(bitsOf(8), 12, a, b, 2), "depth must be a power of two in 2..65536");
        assertError(() -> new AsyncStreamFifo<>(bitsOf(8), 16, a, a, 2), "must be two different clock domains");
        assertError(() -> new AsyncStreamFifo<>(bitsOf(8), 16, a, b, 1), "syncStages must be 2..8, got 1");
        assertError(() -> new BitSynchronizer(1), "stages must be 2..8, got 1");
    }

    /** Only the synchronisers are exempt from the crossing check; the FIFO's own logic is still checked. */
    @Test
    void asyncFifoPassesTheCrossingCheckWithoutAnExemption() {
        Design design = Elaboration.elaborate(() -> new AsyncStreamFifo<>(bitsOf(8), 8,
                ClockDomain.external("s"), ClockDomain.external("m"), 2));
        assertFalse(design.top().ir().clockCrossingAllowed());
        List<Component> exempt = design.components().stream().filter(c -> c.ir().clockCrossingAllowed()).toList();
        assertEquals(2, exempt.size());
        assertTrue(exempt.stream().allMatch(c -> c instanceof GraySynchronizer));
    }

    /** The top module's text of {@code top}. */
    private static String topSv(Supplier<? extends Component> top) {
        EmittedDesign sv = new SvEmitter().emit(Elaboration.elaborate(top));
        return sv.modules().get(sv.modules().size() - 1).text();
    }

    @Test
    void fifosKeepBundlePayloadsAsTypedWords() {
        String ram = topSv(() -> new StreamFifo<>(() -> new PacketBeat(32), 4, FifoStorage.RAM, 4));
        assertTrue(ram.contains("logic [36:0] ram [0:3];"), ram);
        assertTrue(ram.contains("ram[write_ptr] <= {s_data, s_keep, s_last};"), ram);
        assertTrue(ram.contains("assign ram_rdata_keep = ram_rdata[4:1];"), ram);
        assertTrue(ram.contains("assign m_keep = ram_rdata_keep;"), ram);
        String regs = topSv(() -> new StreamFifo<>(() -> new PacketBeat(32), 4, FifoStorage.REGISTERS, 4));
        assertTrue(regs.contains("slots_2_keep <= s_keep;"), regs);
        assertTrue(regs.contains("assign m_keep = head_keep;"), regs);
        ClockDomain a = ClockDomain.external("a");
        ClockDomain b = ClockDomain.external("b");
        String async = topSv(() -> new AsyncStreamFifo<>(() -> new PacketBeat(32), 8, a, b, 2));
        assertTrue(async.contains("ram[push_ptr[2:0]] <= {s_data, s_keep, s_last};"), async);
        assertTrue(async.contains("assign m_last = ram_rdata_last;"), async);
    }

    private static Supplier<Bits> bitsOf(int width) {
        return () -> bits(width);
    }

    private static void assertError(Supplier<? extends Component> top, String expected) {
        ElaborationException e = assertThrows(ElaborationException.class, () -> Elaboration.elaborate(top));
        List<String> messages = e.errors().stream().map(HdlError::message).toList();
        assertTrue(messages.stream().anyMatch(m -> m.contains(expected)), messages.toString());
        HdlError first = e.errors().get(0);
        assertTrue(first.location().toString().contains("StreamLibraryTest.java"),
                "the error should name the caller's line: " + first.location());
    }
}
