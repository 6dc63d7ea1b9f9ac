// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.xpu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * The XPU TX interface, XPU to SUE (spec §3.2.1, Table 1, credit-FIFO option). The XPU is the
 * master: the normal fields are driven by the XPU, the flipped ones ({@code credit},
 * {@code resetOut}) by SUE. SUE declares it {@code slave(new XpuTxBus(n)).named("tx")} so the
 * ports are the spec's names with the {@code tx_} prefix everywhere, including
 * {@code tx_xpuid} (the spec's bare {@code xpuid} would collide with the RX interface's).
 *
 * <table>
 * <caption>signals ("in" = XPU to SUE; encodings ours, the spec leaves them open; sue-rtl/README.md
 * "XPU TX interface" has the same table)</caption>
 * <tr><th>field<th>port<th>dir<th>bits<th>encoding
 * <tr><td>cycle<td>tx_cycle<td>in<td>4<td>index of the beat within the op: 0 on the first beat
 *     (which carries tx_control, tx_xpuid, tx_vc and data bytes 0..B-1), then 1, 2, ...
 *     ceil(len/B)-1 on consecutive clock cycles (no idle cycle inside an op). A command-only op
 *     is one beat with tx_cycle = 0.
 * <tr><td>valid<td>tx_valid<td>in<td>2<td>0 = no beat; 1 = command only (one beat, no data);
 *     2 = command with data (first and later data beats); 3 = reserved (beat dropped, counted
 *     in cnt_reserved; if it interrupts an op the op is dropped instead)
 * <tr><td>vc<td>tx_vc<td>in<td>2<td>virtual channel, read on the first beat only
 * <tr><td>xpuid<td>tx_xpuid<td>in<td>10<td>destination XPU, read on the first beat only
 * <tr><td>control<td>tx_control<td>in<td>144<td>control byte k = tx_control[8k+7:8k], read on
 *     the first beat only. Byte 0 = command type (0x00 = PAD, never valid from the XPU); byte 1
 *     = data length - 1 when the type carries data. Only the first 2 * units bytes are carried.
 * <tr><td>data<td>tx_data<td>in<td>N<td>data bytes i*B .. i*B+B-1 on beat i (B = N/8), byte 0
 *     in bits 7:0; bytes past the data length on the last beat are ignored
 * <tr><td>err<td>tx_err<td>in<td>1<td>1 = uncorrectable error in this beat: the op is dropped
 *     (cnt_err)
 * <tr><td>credit<td>tx_credit<td>out<td>6<td>{valid, kind, vc[1:0], count-1[1:0]}: valid = 1
 *     returns count (1..4) credits of kind (0 = command credit, one per op; 1 = data credit, one
 *     per tx_data beat) for vc. Registered; the XPU may use them from the next cycle on. 6'b0 =
 *     no credit this cycle.
 * <tr><td>resetIn<td>tx_reset_in<td>in<td>1<td>1 = reset the interface: the op in flight is
 *     aborted (not counted), every credit the XPU held is taken back and re-advertised after the
 *     reset; the command table and the counters are kept. Beats are ignored while it is 1.
 * <tr><td>resetOut<td>tx_reset_out<td>out<td>1<td>1 while SUE is in reset (rst) and in the cycle
 *     after tx_reset_in; no credits are returned while it is 1.
 * </table>
 * The credit rule, the checks and what is counted: {@link XpuTxInterface}.
 */
public final class XpuTxBus extends Bundle {
    /** Bits of {@code tx_cycle}: beat index within an op (spec Table 1). */
    public static final int CYCLE_BITS = 4;
    /** Bits of {@code tx_vc} (spec Table 1: up to 4 VCs). */
    public static final int VC_BITS = 2;
    /** Bits of an XPU identifier (spec Table 1: 1024 XPUs). */
    public static final int XPUID_BITS = 10;
    /** Bits of {@code tx_control}: 18 control bytes (spec Table 1). */
    public static final int CONTROL_BITS = 144;
    /** Bits of a credit message {valid, kind, vc[1:0], count-1[1:0]}. */
    public static final int CREDIT_BITS = 6;
    /** Control bytes an op carries at most ({@link #CONTROL_BITS} / 8). */
    public static final int MAX_CONTROL_BYTES = CONTROL_BITS / 8;
    /** Data bytes an op carries at most (spec Table 1: up to 256 B per op). */
    public static final int MAX_DATA_BYTES = 256;
    /** The largest op, control and data: 274 bytes. */
    public static final int MAX_OP_BYTES = MAX_CONTROL_BYTES + MAX_DATA_BYTES;

    public final UInt cycle;
    public final Bits valid;
    public final UInt vc;
    public final UInt xpuid;
    public final Bits control;
    public final Bits data;
    public final Bool err;
    public final Bits credit;
    public final Bool resetIn;
    public final Bool resetOut;

    private final int dataWidth;

    /** @param dataWidth N, the {@code tx_data} width in bits */
    public XpuTxBus(int dataWidth) {
        this.dataWidth = dataWidth;
        // Assigned here, in the table's order: creation order is the port order.
        cycle = uint(CYCLE_BITS);
        valid = bits(2);
        vc = uint(VC_BITS);
        xpuid = uint(XPUID_BITS);
        control = bits(CONTROL_BITS);
        data = bits(dataWidth);
        err = bool();
        credit = flipped(bits(CREDIT_BITS));
        resetIn = bool();
        resetOut = flipped(bool());
    }

    public int dataWidth() {
        return dataWidth;
    }

    @Override
    public XpuTxBus copyType() {
        return new XpuTxBus(dataWidth);
    }
}
