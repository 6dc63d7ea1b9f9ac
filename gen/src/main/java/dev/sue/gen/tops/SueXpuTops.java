// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.rtl.xpu.XpuTxInterface;
import java.util.List;

/**
 * Tops for the SUE XPU interface blocks ({@code dev.sue.rtl.xpu}).
 *
 * <ul>
 * <li>{@code sue_xpu_tx}: {@link XpuTxInterface}, the credit-FIFO transmit interface with
 *     command decode, checks and counters.
 * </ul>
 */
public final class SueXpuTops {
    private SueXpuTops() {
    }

    public static void register(Catalog c) {
        c.add(TopSpec.sue("sue_xpu_tx",
                "XPU TX interface (spec Table 1): credits per VC, command table, checks, op stream with commit/abort",
                List.of(ParamSpec.oneOf("dataWidth", "tx_data width N in bits", 256, 128L, 256L, 512L, 1024L, 2048L),
                        ParamSpec.integer("cmdCredits", "command credits per VC after reset", 8, 1, 4095),
                        ParamSpec.integer("dataCredits", "data credits (tx_data beats) per VC after reset", 32, 1,
                                4095),
                        ParamSpec.integer("fifoDepth",
                                "output FIFO beats (registers <= 8, RAM above); overflow-free when >= "
                                        + "4*(cmdCredits+dataCredits)", 8, 2, XpuTxInterface.MAX_FIFO_DEPTH)),
                v -> () -> new XpuTxInterface(v.integer("dataWidth"), v.integer("cmdCredits"),
                        v.integer("dataCredits"), v.integer("fifoDepth"))));
    }
}
