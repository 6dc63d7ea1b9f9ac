// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

/**
 * The AXI4 XPU interface of an endpoint (spec 3.2.2; {@code sue_endpoint -p xpuIf=1}): the
 * address and ID widths of {@code s_axi_*} / {@code m_axi_*} and where the destination XPU sits in
 * the address. Checked by {@link AxiXpuBridge}; documented in sue-rtl/DESIGN-AXI.md.
 *
 * @param addrBits AXI address bits of both ports
 * @param idBits   {@code s_axi} ID bits (1..16)
 * @param destLsb  lowest address bit of the destination XPU field
 * @param destBits bits of that field
 */
public record AxiXpuOptions(int addrBits, int idBits, int destLsb, int destBits) {
}
