// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import static dev.sue.hdl.Hdl.bits;

import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import dev.sue.hdl.lib.cdc.BitSynchronizer;
import dev.sue.hdl.lib.cdc.PulseSynchronizer;
import dev.sue.hdl.lib.fifo.AsyncStreamFifo;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.AxiStreamWidthAdapter;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.StreamForwardRegister;
import dev.sue.hdl.lib.stream.StreamFullRegister;
import dev.sue.hdl.lib.stream.StreamHalfRegister;
import dev.sue.hdl.lib.stream.StreamSkidBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Tops for the stream library (pipelines, FIFOs, synchronisers), so each block can be
 * generated, linted and tested on its own. Stream ports are {@code s} (in) and {@code m} (out);
 * with {@code packet=true} the payload is a {@link PacketBeat} ({@code s_data}, {@code s_keep},
 * {@code s_last}) instead of a plain {@code s_payload}.
 */
public final class StreamTops {
    private StreamTops() {
    }

    public static void register(Catalog c) {
        pipeline(c, "stream_forward_register", "m2s register slice: valid and payload registered, latency 1",
                StreamForwardRegister::new);
        pipeline(c, "stream_skid_buffer", "s2m register slice (skid buffer): ready registered, latency 0",
                StreamSkidBuffer::new);
        pipeline(c, "stream_full_register", "skid buffer + forward register: every output registered, latency 1",
                StreamFullRegister::new);
        pipeline(c, "stream_half_register", "one-slot register slice: no combinational paths, half throughput",
                StreamHalfRegister::new);
        c.add(new TopSpec("stream_fifo", "synchronous stream FIFO with occupancy and almost-full outputs",
                List.of(width(), packet(),
                        ParamSpec.integer("depth", "capacity in entries", 16, 1, 65536),
                        ParamSpec.flag("ram", "keep entries in a RAM (latency 2) instead of registers (latency 1)",
                                false),
                        ParamSpec.flag("lutram", "keep entries in a LUT RAM read asynchronously (latency 1, like "
                                + "registers); not with ram", false),
                        ParamSpec.integer("almostFullThreshold",
                                "almost_full while occupancy >= this (1..depth; 0 = depth)", 0, 0, 65536)),
                v -> {
                    Supplier<? extends Data> payload = payload(v);
                    int depth = v.integer("depth");
                    if (v.flag("ram") && v.flag("lutram")) {
                        throw new IllegalArgumentException("stream_fifo: ram and lutram are two storages, set one");
                    }
                    FifoStorage storage = v.flag("ram") ? FifoStorage.RAM
                            : v.flag("lutram") ? FifoStorage.LUT_RAM : FifoStorage.REGISTERS;
                    int threshold = v.integer("almostFullThreshold") == 0 ? depth : v.integer("almostFullThreshold");
                    return () -> new StreamFifo<>(payload, depth, storage, threshold);
                }));
        c.add(new Preset("stream_fifo_512x64", "stream_fifo", Map.of("width", "512", "depth", "64", "ram", "true"),
                "a 512-bit x 64-entry RAM FIFO (synthesis benchmark size)"));
        c.add(new TopSpec("async_stream_fifo",
                "dual-clock stream FIFO (gray pointers); push side s_clk/s_rst, pop side m_clk/m_rst",
                List.of(width(), packet(),
                        ParamSpec.oneOf("depth", "capacity in entries (power of two)", 16, 2L, 4L, 8L, 16L, 32L,
                                64L, 128L, 256L, 512L, 1024L, 2048L, 4096L),
                        ParamSpec.integer("syncStages", "synchroniser flip-flops per bit", 2, 2, 8)),
                v -> {
                    Supplier<? extends Data> payload = payload(v);
                    return () -> new AsyncStreamFifo<>(payload, v.integer("depth"), ClockDomain.external("s"),
                            ClockDomain.external("m"), v.integer("syncStages"));
                }));
        c.add(new TopSpec("axis_width_adapter",
                "AXI4-Stream width adapter s_t* -> m_t*: down- or upsizes by a power of two, byte-exact, tkeep-aware, "
                        + "tuser carried, full throughput, latency 1",
                List.of(ParamSpec.integer("inWidth", "s_tdata bits, a multiple of 8", 512, 8, 4096),
                        ParamSpec.integer("outWidth", "m_tdata bits, a multiple of 8; the wider width is the "
                                + "narrower times 1, 2, 4 .. 64", 128, 8, 4096),
                        ParamSpec.integer("userWidth", "tuser bits (0: none)", 1, 0, 4096)),
                v -> () -> new AxiStreamWidthAdapter(v.integer("inWidth"), v.integer("outWidth"),
                        v.integer("userWidth"))));
        c.add(new TopSpec("bit_synchronizer", "level synchroniser: async_in -> N flip-flops on clk -> sync_out",
                List.of(stages()), v -> () -> new BitSynchronizer(v.integer("stages"))));
        c.add(new TopSpec("pulse_synchronizer",
                "toggle-based pulse synchroniser from src_clk to dst_clk",
                List.of(stages()), v -> () -> new PulseSynchronizer(ClockDomain.external("src"),
                        ClockDomain.external("dst"), v.integer("stages"))));
    }

    private static void pipeline(Catalog c, String name, String description,
            Function<Supplier<? extends Data>, Component> block) {
        c.add(new TopSpec(name, description, List.of(width(), packet()), v -> {
            Supplier<? extends Data> payload = payload(v);
            return () -> block.apply(payload);
        }));
    }

    private static ParamSpec width() {
        return ParamSpec.integer("width", "payload width in bits (data width with packet=true)", 32, 1, 4096);
    }

    private static ParamSpec packet() {
        return ParamSpec.flag("packet", "carry PacketBeat {data, keep, last} instead of a plain payload", false);
    }

    private static ParamSpec stages() {
        return ParamSpec.integer("stages", "synchroniser flip-flops", 2, 2, 8);
    }

    private static Supplier<? extends Data> payload(ParamValues v) {
        int width = v.integer("width");
        if (!v.flag("packet")) {
            return () -> bits(width);
        }
        if (width % 8 != 0) {
            throw new IllegalArgumentException("packet=true needs a width that is a multiple of 8, got " + width);
        }
        return () -> new PacketBeat(width);
    }
}
