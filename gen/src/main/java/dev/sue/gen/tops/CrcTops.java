// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.hdl.lib.crc.CrcAppender;
import dev.sue.hdl.lib.crc.CrcEngine;
import dev.sue.hdl.lib.crc.CrcSpec;
import dev.sue.hdl.lib.crc.CrcWindow;
import java.util.List;
import java.util.Map;

/**
 * Tops of the CRC library: {@code crc_engine} (any CRC, any bus width), {@code crc_appender},
 * {@code crc_window} (one-cycle CRC of a short message) and presets.
 */
public final class CrcTops {
    private CrcTops() {
    }

    // The CRC definition (Rocksoft model) every CRC top takes, CRC-32/IEEE by default; read by spec().
    private static final ParamSpec POLYNOMIAL = ParamSpec.integer("polynomial",
            "generator polynomial, normal form without x^width (odd)", 0x04C11DB7L, 1, 0xFFFFFFFFL);
    private static final ParamSpec REFLECT_IN = ParamSpec.flag("reflectIn", "input bytes LSB first", true);
    private static final ParamSpec REFLECT_OUT = ParamSpec.flag("reflectOut", "bit-reverse the register before xorOut",
            true);
    private static final ParamSpec INIT = ParamSpec.integer("init", "initial register value", 0xFFFFFFFFL, 0,
            0xFFFFFFFFL);
    private static final ParamSpec XOR_OUT = ParamSpec.integer("xorOut", "final XOR value", 0xFFFFFFFFL, 0,
            0xFFFFFFFFL);

    private static ParamSpec crcWidth(String description, long min) {
        return ParamSpec.integer("crcWidth", description, 32, min, 32);
    }

    static void register(Catalog c) {
        c.add(new TopSpec("crc_engine",
                "parallel CRC over a packet stream with byte-granular tails; one value/check per frame (default CRC-32)",
                List.of(ParamSpec.integer("dataWidth", "bus width in bits, a multiple of 8", 512, 8, 2048),
                        crcWidth("CRC width in bits", 1),
                        POLYNOMIAL, REFLECT_IN, REFLECT_OUT, INIT, XOR_OUT,
                        ParamSpec.flag("byteTails", "honour keep on the last beat (false: whole words only)", true),
                        ParamSpec.integer("dataPipeline", "register the data term (wide buses)", 0, 0, 1),
                        ParamSpec.flag("value", "output the CRC value (crc_value)", true),
                        ParamSpec.flag("check", "output crc_ok: the frame ends with its correct CRC", false),
                        ParamSpec.flag("tailMatrix", "undo a last beat's padding with one ROM-selected matrix "
                                + "(one stage; false: in steps)", true),
                        ParamSpec.integer("tailStepsPerCycle", "tail-correction steps per pipeline stage "
                                + "(without tailMatrix)", CrcEngine.DEFAULT_TAIL_STEPS, 1, 8)),
                v -> {
                    CrcSpec spec = spec(v);
                    int dataWidth = v.integer("dataWidth");
                    boolean byteTails = v.flag("byteTails");
                    int dataPipeline = v.integer("dataPipeline");
                    int tailSteps = v.integer("tailStepsPerCycle");
                    CrcEngine.Options options = new CrcEngine.Options(byteTails, dataPipeline, v.flag("value"),
                            v.flag("check"), tailSteps, v.flag("tailMatrix"));
                    return () -> new CrcEngine(spec, dataWidth, options);
                }));
        c.add(new TopSpec("crc_appender",
                "appends a CRC (LSB first) over the bytes from a fixed offset to every packet; runtime bypass",
                List.of(ParamSpec.integer("dataWidth", "bus width in bits, a multiple of 8", 512, 8, 2048),
                        crcWidth("CRC width in bits (whole bytes)", 8),
                        POLYNOMIAL, REFLECT_IN, REFLECT_OUT, INIT, XOR_OUT,
                        ParamSpec.integer("offset", "first byte covered by the CRC", 0, 0, 65535),
                        ParamSpec.flag("fallThrough", "non-last beats pass combinationally when the queue is empty",
                                false)),
                v -> {
                    CrcSpec spec = spec(v);
                    int dataWidth = v.integer("dataWidth");
                    int offset = v.integer("offset");
                    boolean ft = v.flag("fallThrough");
                    return () -> new CrcAppender(spec, dataWidth, offset, ft);
                }));
        c.add(new TopSpec("crc_window",
                "CRC of a message given whole in a fixed window (trailing zero bytes undone), latency 1",
                List.of(ParamSpec.integer("windowBytes", "window size in bytes", 86, 1, 512),
                        ParamSpec.integer("maxTrail", "largest number of trailing bytes after the message", 78, 0,
                                512),
                        crcWidth("CRC width in bits", 1),
                        POLYNOMIAL, REFLECT_IN, REFLECT_OUT, INIT, XOR_OUT),
                v -> {
                    CrcSpec spec = spec(v);
                    int bytes = v.integer("windowBytes");
                    int maxTrail = v.integer("maxTrail");
                    return () -> new CrcWindow(spec, bytes, maxTrail);
                }));
        c.add(new Preset("crc32_512", "crc_engine", Map.of("dataWidth", "512"),
                "Ethernet CRC-32 on a 512-bit bus with byte tails"));
        c.add(new Preset("crc32_1024_pipelined", "crc_engine", Map.of("dataWidth", "1024", "dataPipeline", "1"),
                "Ethernet CRC-32 on a 1024-bit bus, data term pipelined"));
        c.add(new Preset("crc32_512_check", "crc_engine", Map.of("dataWidth", "512", "value", "false", "check", "true"),
                "Ethernet FCS check (RX) on a 512-bit bus: crc_ok only"));
        c.add(new Preset("crc32c_64", "crc_engine", Map.of("dataWidth", "64", "polynomial", "0x1EDC6F41"),
                "CRC-32C (Castagnoli) on a 64-bit bus"));
    }

    /** The CRC the parameters describe, named after a known preset when it is one. */
    static CrcSpec spec(ParamValues v) {
        int width = v.integer("crcWidth");
        CrcSpec s = new CrcSpec("custom", width, v.get("polynomial"), v.flag("reflectIn"), v.flag("reflectOut"),
                v.get("init"), v.get("xorOut"));
        for (CrcSpec known : List.of(CrcSpec.CRC32, CrcSpec.CRC32C)) {
            if (known.equals(new CrcSpec(known.name(), s.width(), s.polynomial(), s.reflectIn(), s.reflectOut(),
                    s.init(), s.xorOut()))) {
                return known;
            }
        }
        return s;
    }
}
