package dev.sue.gen.tops;

import dev.sue.hdl.lib.arbiter.Arbiter;
import dev.sue.hdl.lib.arbiter.ArbiterPolicy;
import dev.sue.hdl.lib.arbiter.StreamArbiter;
import java.util.List;

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
