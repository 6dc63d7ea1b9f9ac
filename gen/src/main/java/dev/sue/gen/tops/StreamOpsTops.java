// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import static dev.sue.hdl.Hdl.bits;

import dev.sue.hdl.lib.arbiter.Arbiter;
import dev.sue.hdl.lib.arbiter.ArbiterPolicy;
import dev.sue.hdl.lib.arbiter.StreamArbiter;
import dev.sue.hdl.Bits;
import dev.sue.hdl.lib.credit.CreditReceiver;
import dev.sue.hdl.lib.credit.CreditSender;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.streamops.ForkMode;
import dev.sue.hdl.lib.streamops.StreamDemux;
import dev.sue.hdl.lib.streamops.StreamFork;
import dev.sue.hdl.lib.streamops.StreamJoin;
import dev.sue.hdl.lib.streamops.StreamMux;
import dev.sue.hdl.lib.width.PacketDownsizer;
import dev.sue.hdl.lib.width.PacketUpsizer;
import java.util.List;
import java.util.function.Supplier;

/**
 * Tops for the stream library blocks (arbiters, mux/demux, fork/join, width adapters, credits):
 * each block on its own, so {@code make lint} checks it and the cocotb tests in
 * {@code verif/tests/<block>/} can drive it.
 */
final class StreamOpsTops {
    private StreamOpsTops() {
    }

    static void register(Catalog c) {
        c.add(new TopSpec("arbiter", "request/grant arbiter, round robin or fixed priority",
                List.of(requesters("requesters"), roundRobin()),
                v -> () -> new Arbiter(v.integer("requesters"), policy(v))));
        c.add(new TopSpec("stream_arbiter", "N packet streams to one, optional lock until last",
                List.of(requesters("inputs"), dataWidth(), roundRobin(),
                        ParamSpec.flag("lockUntilLast", "hold the grant from a packet's first beat to its last", true)),
                v -> () -> StreamArbiter.forPackets(v.integer("inputs"), v.integer("dataWidth"), policy(v),
                        v.flag("lockUntilLast"))));
        c.add(new TopSpec("stream_mux", "selects one of N packet streams by sel",
                List.of(ports("inputs"), dataWidth()),
                v -> () -> new StreamMux<>(v.integer("inputs"), packets(v))));
        c.add(new TopSpec("stream_demux", "routes a packet stream to one of N outputs by sel",
                List.of(ports("outputs"), dataWidth()),
                v -> () -> new StreamDemux<>(v.integer("outputs"), packets(v))));
        c.add(new TopSpec("stream_fork", "copies each beat to N outputs, synchronously or not",
                List.of(ports("outputs"), dataWidth(),
                        ParamSpec.flag("synchronous", "all outputs take a beat in the same cycle", false)),
                v -> () -> new StreamFork<>(v.integer("outputs"), packets(v),
                        v.flag("synchronous") ? ForkMode.SYNCHRONOUS : ForkMode.ASYNCHRONOUS)));
        c.add(new TopSpec("stream_join", "waits for a beat on each of N inputs and passes them on together",
                List.of(ports("inputs"), dataWidth()),
                v -> () -> new StreamJoin<>(v.integer("inputs"), packets(v))));
        registerWidthAdapters(c);
        registerCredits(c);
    }

    private static void registerCredits(Catalog c) {
        c.add(new TopSpec("credit_sender", "passes beats only while holding credits; counts returned credits",
                List.of(dataWidth(), capacity(), ParamSpec.integer("initialCredits", "credits after reset", 8, 0, 65535),
                        maxReturn()),
                v -> () -> new CreditSender<>(bitsOf(v.integer("dataWidth")), v.integer("capacity"),
                        v.integer("initialCredits"), v.integer("maxReturnPerCycle"))));
        c.add(new TopSpec("credit_receiver", "tracks buffer occupancy and returns a credit per freed slot",
                List.of(capacity(), maxFree(), maxReturn(),
                        ParamSpec.integer("advertisedAtReset", "credits handed out after reset", 0, 0, 65535)),
                v -> () -> new CreditReceiver(v.integer("capacity"), v.integer("maxFreePerCycle"),
                        v.integer("maxReturnPerCycle"), v.integer("advertisedAtReset"))));
        c.add(new TopSpec("credit_link", "test fixture: credit sender and receiver for a closed-loop testbench",
                List.of(dataWidth(), capacity(), ParamSpec.integer("initialCredits",
                        "sender credits after reset; the receiver advertises capacity - initialCredits", 8, 0, 65535),
                        maxReturn(), maxFree()),
                v -> () -> new CreditLinkFixture(v.integer("dataWidth"), v.integer("capacity"),
                        v.integer("initialCredits"), v.integer("maxReturnPerCycle"), v.integer("maxFreePerCycle"))));
    }

    private static ParamSpec capacity() {
        return ParamSpec.integer("capacity", "receive buffer size in beats (= the sender's maximum credits)", 8, 1,
                65535);
    }

    private static ParamSpec maxReturn() {
        return ParamSpec.integer("maxReturnPerCycle", "most credits returned in one cycle", 2, 1, 65535);
    }

    private static ParamSpec maxFree() {
        return ParamSpec.integer("maxFreePerCycle", "most buffer slots freed in one cycle", 2, 1, 65535);
    }

    private static Supplier<Bits> bitsOf(int width) {
        return () -> bits(width);
    }

    private static void registerWidthAdapters(Catalog c) {
        c.add(new TopSpec("packet_upsizer", "packet width up-sizer: ratio narrow beats into one wide beat",
                List.of(ParamSpec.integer("inputWidth", "narrow input data width in bits, a multiple of 8", 32, 8, 4096),
                        ratio()),
                v -> () -> new PacketUpsizer(v.integer("inputWidth"), v.integer("ratio"))));
        c.add(new TopSpec("packet_downsizer", "packet width down-sizer: one wide beat into up to ratio narrow beats",
                List.of(ParamSpec.integer("inputWidth", "wide input data width in bits, ratio whole-byte lanes", 128, 8,
                        4096), ratio()),
                v -> () -> new PacketDownsizer(v.integer("inputWidth"), v.integer("ratio"))));
    }

    private static ParamSpec ratio() {
        return ParamSpec.integer("ratio", "wide width / narrow width", 4, 1, 64);
    }

    private static Supplier<PacketBeat> packets(ParamValues v) {
        int width = v.integer("dataWidth");
        return () -> new PacketBeat(width);
    }

    private static ParamSpec ports(String name) {
        return ParamSpec.integer(name, "number of " + name, 4, 1, 64);
    }

    private static ArbiterPolicy policy(ParamValues v) {
        return v.flag("roundRobin") ? ArbiterPolicy.ROUND_ROBIN : ArbiterPolicy.FIXED_PRIORITY;
    }

    private static ParamSpec requesters(String name) {
        return ParamSpec.integer(name, "number of requesters / input streams", 4, 1, 64);
    }

    private static ParamSpec roundRobin() {
        return ParamSpec.flag("roundRobin", "round robin (true) or fixed priority, lowest index first (false)", true);
    }

    /** Packet data widths: whole bytes, powers of two from 8 to 1024 bits. */
    static ParamSpec dataWidth() {
        return dataWidth("dataWidth", "data width in bits", 32);
    }

    static ParamSpec dataWidth(String name, String description, long defaultValue) {
        return ParamSpec.oneOf(name, description, defaultValue, 8L, 16L, 32L, 64L, 128L, 256L, 512L, 1024L);
    }
}
