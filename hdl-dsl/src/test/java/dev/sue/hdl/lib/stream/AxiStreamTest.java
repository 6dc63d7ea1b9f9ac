// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.stream;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.emit.SvEmitter;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * {@link AxiStream}: the port names cocotbext-axi's {@code AxiStreamBus.from_prefix} expects,
 * the one-line joins to a {@code Stream} of packet beats (with and without a user field) and the
 * errors for joins that would drop or invent bits.
 */
class AxiStreamTest {
    /** A packet beat with a 1-bit error flag, standing in for a MAC RX beat. */
    static final class FlaggedBeat extends Bundle implements AxiStreamPayload {
        final Bits data;
        final Bits keep;
        final Bool last = bool();
        final Bool err = bool();
        private final int w;

        FlaggedBeat(int w) {
            this.w = w;
            data = bits(w);
            keep = bits(w / 8);
        }

        @Override
        public Bits data() {
            return data;
        }

        @Override
        public Bits keep() {
            return keep;
        }

        @Override
        public Bool last() {
            return last;
        }

        @Override
        public Bool user() {
            return err;
        }

        @Override
        public FlaggedBeat copyType() {
            return new FlaggedBeat(w);
        }
    }

    /** AXI in, through an internal {@code Stream<FlaggedBeat>} register, AXI out. */
    static final class Passthrough extends Component {
        Passthrough(int userOut) {
            AxiStream in = slave(new AxiStream(64, 1)).named("mac_rx_0");
            AxiStream out = master(new AxiStream(64, userOut)).named("ctl");
            Stream<FlaggedBeat> s = wire(Stream.of(() -> new FlaggedBeat(64))).named("beats");
            in.connectTo(s);
            out.connectFrom(s.m2sPipe());
        }
    }

    /** A packet stream without a user field out on an AXI4-Stream with a 1-bit tuser (held 0). */
    static final class PacketOut extends Component {
        PacketOut(int dataWidth) {
            Stream<PacketBeat> s = slave(Stream.of(() -> new PacketBeat(64))).named("s");
            AxiStream m = master(new AxiStream(dataWidth, 1)).named("mac_tx_0");
            m.connectFrom(s);
        }
    }

    /** A packet stream out on an AXI4-Stream of the given widths. */
    static final class Sized extends Component {
        Sized(int dataWidth, int userWidth) {
            AxiStream m = master(new AxiStream(dataWidth, userWidth)).named("m");
            m.connectFrom(slave(Stream.of(() -> new PacketBeat(dataWidth))).named("s"));
        }
    }

    /** An AXI4-Stream with tuser into a packet stream without a user field: tuser would be lost. */
    static final class DropsUser extends Component {
        DropsUser() {
            AxiStream in = slave(new AxiStream(64, 1)).named("mac_rx_0");
            Stream<PacketBeat> m = master(Stream.of(() -> new PacketBeat(64))).named("m");
            in.connectTo(m);
        }
    }

    private static String sv(Supplier<? extends Component> top) {
        Design d = Elaboration.elaborate(top);
        var modules = new SvEmitter().emit(d).modules();
        return modules.get(modules.size() - 1).text();
    }

    private static String errorOf(Supplier<? extends Component> top) {
        return assertThrows(ElaborationException.class, () -> Elaboration.elaborate(top)).getMessage();
    }

    @Test
    void portsCarryAxiStreamNames() {
        String text = sv(() -> new Passthrough(1));
        for (String port : new String[] {"input  wire logic        mac_rx_0_tvalid", "mac_rx_0_tready",
                "input  wire logic [63:0] mac_rx_0_tdata", "input  wire logic [7:0]  mac_rx_0_tkeep",
                "input  wire logic        mac_rx_0_tlast", "input  wire logic        mac_rx_0_tuser",
                "output logic             ctl_tvalid", "ctl_tready", "ctl_tdata", "ctl_tkeep", "ctl_tlast",
                "ctl_tuser"}) {
            assertTrue(text.contains(port), port + " missing in\n" + text);
        }
    }

    @Test
    void userWidthZeroHasNoTuser() {
        String text = sv(() -> new Sized(32, 0));
        assertTrue(text.contains("m_tdata") && text.contains("m_tkeep") && text.contains("m_tlast"), text);
        assertFalse(text.contains("tuser"), text);
    }

    @Test
    void tuserIsHeldZeroWithoutAUserField() {
        String text = sv(() -> new PacketOut(64));
        assertTrue(text.contains("assign mac_tx_0_tuser = 1'h0;") || text.contains("mac_tx_0_tuser = 1'b0"),
                text);
    }

    @Test
    void badShapesAreErrorsAtTheCallersLine() {
        assertTrue(errorOf(() -> new PacketOut(128)).contains("tdata is 128 bits, the stream's data 64"));
        assertTrue(errorOf(() -> new Passthrough(2)).contains("tuser is 2 bits, the stream's user field 1"));
        String drop = errorOf(DropsUser::new);
        assertTrue(drop.contains("tuser must not be dropped"), drop);
        assertTrue(errorOf(() -> new Sized(12, 0)).contains("dataWidth must be a positive multiple of 8, got 12"));
        assertTrue(errorOf(() -> new Sized(8, -1)).contains("userWidth must be 0 (no tuser) or more, got -1"));
    }
}
