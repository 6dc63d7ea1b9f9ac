// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.rtl.axi.AxiXpuBridge;
import java.util.List;

/**
 * Tops of the AXI4 XPU interface ({@code dev.sue.rtl.axi}, sue-rtl/DESIGN-AXI.md).
 *
 * <ul>
 * <li>{@code sue_axi_bridge}: {@link AxiXpuBridge}, AXI4 slave and master onto the FIFO XPU
 *     interface's XPU side ({@code tx_*} driven, {@code rx_*} taken).
 * </ul>
 * The endpoint with the AXI4 interface is {@code sue_endpoint -p xpuIf=1} ({@link SueRxTops}:
 * {@code SueEndpoint} built with {@code AxiXpuOptions}).
 */
public final class SueAxiTops {
    private SueAxiTops() {
    }

    /** {@code xpuIf} of {@code sue_endpoint}: 0 the FIFO interface (tx_*, rx_*), 1 AXI4 (s_axi_*, m_axi_*). */
    static final int XPU_IF_AXI4 = 1;

    static ParamSpec xpuIf() {
        return ParamSpec.oneOf("xpuIf", "XPU interface: 0 FIFO + credits (tx_*, rx_*), 1 AXI4 slave + master "
                + "(s_axi_*, m_axi_*; DESIGN-AXI.md)", 0, 0L, 1L);
    }

    static ParamSpec addrBits() {
        return ParamSpec.integer("addrBits", "AXI4 address bits of s_axi and m_axi (xpuIf=1)", 48, 12, 64);
    }

    static ParamSpec idBits() {
        return ParamSpec.integer("idBits", "s_axi ID bits, carried in two control bytes (xpuIf=1)", 8, 1, 16);
    }

    static ParamSpec destLsb() {
        return ParamSpec.integer("destLsb", "lowest address bit of the destination XPU field after reset "
                + "(register AXI_DEST_MAP; xpuIf=1)", 32, 0, 63);
    }

    static ParamSpec destBits() {
        return ParamSpec.integer("destBits", "address bits of the destination XPU field after reset "
                + "(register AXI_DEST_MAP; xpuIf=1)", 10, 1, 10);
    }

    public static void register(Catalog c) {
        List<ParamSpec> params = new java.util.ArrayList<>(List.of(
                SueParams.dataWidth("AXI4 and SUE data bus width in bits", 512),
                ParamSpec.integer("xpus", "XPUs in the fabric: destinations >= xpus are unmapped (DECERR)", 16, 1,
                        1024),
                ParamSpec.integer("cmdCredits", "SUE's initial TX command credits per VC", 64, 1, 4095),
                ParamSpec.integer("dataCredits", "SUE's initial TX data credits per VC", 256, 1, 4095)));
        params.addAll(List.of(addrBits(), idBits(), destLsb(), destBits()));
        c.add(TopSpec.sue("sue_axi_bridge",
                "AXI4 XPU interface (spec 3.2.2): s_axi requests into VC 0 ops, responses from VC 1 ops; m_axi "
                        + "requests from VC 0 ops, responses into VC 1 ops; AW/W pairing, ID remap, error responses",
                params,
                v -> () -> new AxiXpuBridge(v.integer("dataWidth"), v.integer("addrBits"), v.integer("idBits"),
                        v.integer("xpus"), v.integer("destLsb"), v.integer("destBits"), v.integer("cmdCredits"),
                        v.integer("dataCredits"))));
    }
}
