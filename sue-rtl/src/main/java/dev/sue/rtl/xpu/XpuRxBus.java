// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.xpu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * The XPU RX interface, SUE to XPU (spec §3.2.1, Table 2, credit-FIFO option): the mirror of
 * {@link XpuTxBus}. SUE is the master: the normal fields are driven by SUE, the flipped ones
 * ({@code credit}, {@code resetIn}) by the XPU. SUE declares it
 * {@code master(new XpuRxBus(n)).named("rx")} so the ports are {@code rx_*}, including
 * {@code rx_xpuid}.
 *
 * <table>
 * <caption>signals (sue-rtl/DESIGN-RX.md "XPU RX interface" has the same table and the
 * rules)</caption>
 * <tr><th>field<th>port<th>driver<th>bits<th>encoding
 * <tr><td>valid<td>rx_valid<td>SUE<td>2<td>0 = no beat; 1 = command only (one beat);
 *     2 = command with data (every data beat); 3 is never driven
 * <tr><td>cycle<td>rx_cycle<td>SUE<td>4<td>beat index within the op: 0 on the first beat, then
 *     1, 2, ... ceil(D/B)-1 on consecutive cycles (no idle inside an op)
 * <tr><td>vc<td>rx_vc<td>SUE<td>2<td>the PDU's VC, constant over the op
 * <tr><td>xpuid<td>rx_xpuid<td>SUE<td>10<td>source XPU (RH xpuid), constant over the op
 * <tr><td>control<td>rx_control<td>SUE<td>144<td>control byte k = {@code control[8k+7:8k]},
 *     bytes past the op's control length zero; the same on every beat of the op
 * <tr><td>data<td>rx_data<td>SUE<td>N<td>data bytes i*B .. i*B+B-1 on beat i (B = N/8), byte 0
 *     in bits 7:0, bytes past the data length zero; zero for command-only ops
 * <tr><td>credit<td>rx_credit<td>XPU<td>6<td>{valid, kind, vc[1:0], count-1[1:0]}: the XPU
 *     returns 1..4 credits of kind 0 (command: one per op) or 1 (data: one per
 *     {@code rx_valid = 2} beat) for vc; SUE holds no credits after reset
 * <tr><td>resetIn<td>rx_reset_in<td>XPU<td>1<td>1 = the XPU resets its receive side: SUE drops
 *     every credit it holds and ignores returned credits while it is 1
 * <tr><td>resetOut<td>rx_reset_out<td>SUE<td>1<td>1 while SUE is in reset and in the cycle
 *     after rx_reset_in
 * </table>
 * SUE's outputs are registered and all zero while {@code rx_valid = 0}.
 */
public final class XpuRxBus extends Bundle {
    public final Bits valid;
    public final UInt cycle;
    public final UInt vc;
    public final UInt xpuid;
    public final Bits control;
    public final Bits data;
    public final Bits credit;
    public final Bool resetIn;
    public final Bool resetOut;

    private final int dataWidth;

    /** @param dataWidth N, the {@code rx_data} width in bits */
    public XpuRxBus(int dataWidth) {
        this.dataWidth = dataWidth;
        // Assigned here, in the table's order: creation order is the port order.
        valid = bits(2);
        cycle = uint(XpuTxBus.CYCLE_BITS);
        vc = uint(XpuTxBus.VC_BITS);
        xpuid = uint(XpuTxBus.XPUID_BITS);
        control = bits(XpuTxBus.CONTROL_BITS);
        data = bits(dataWidth);
        credit = flipped(bits(XpuTxBus.CREDIT_BITS));
        resetIn = flipped(bool());
        resetOut = bool();
    }

    public int dataWidth() {
        return dataWidth;
    }

    @Override
    public XpuRxBus copyType() {
        return new XpuRxBus(dataWidth);
    }
}
