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
 * <caption>signals (encodings ours, the spec leaves them open; sue-rtl/README.md "XPU TX
 * interface" has the same table)</caption>
 * <tr><th>field<th>port<th>driver<th>bits<th>encoding
 * <tr><td>cycle<td>tx_cycle<td>XPU<td>4<td>index of the beat within the op: 0 on the first beat
 *     (which carries control, xpuid, vc and data bytes 0..B-1), then 1, 2, ... ceil(len/B)-1 on
 *     consecutive cycles (no idle cycle inside an op)
 * <tr><td>valid<td>tx_valid<td>XPU<td>2<td>0 = no beat; 1 = command only (one beat);
 *     2 = command with data (first and later data beats); 3 = reserved (dropped and counted)
 * <tr><td>vc<td>tx_vc<td>XPU<td>2<td>virtual channel, read on the first beat only
 * <tr><td>xpuid<td>tx_xpuid<td>XPU<td>10<td>destination XPU, read on the first beat only
 * <tr><td>control<td>tx_control<td>XPU<td>144<td>control byte k = {@code control[8k+7:8k]},
 *     first beat only; byte 0 = command type (0x00 = PAD, never valid from the XPU), byte 1 =
 *     data length - 1 when the type carries data
 * <tr><td>data<td>tx_data<td>XPU<td>N<td>data bytes i*B .. i*B+B-1 on beat i (B = N/8), byte 0
 *     in bits 7:0; bytes past the data length on the last beat are ignored
 * <tr><td>err<td>tx_err<td>XPU<td>1<td>1 = uncorrectable error in this beat: the op is dropped
 * <tr><td>credit<td>tx_credit<td>SUE<td>6<td>{valid, kind, vc[1:0], count-1[1:0]}: valid = 1
 *     returns count (1..4) credits of kind (0 = command credit, one per op; 1 = data credit,
 *     one per data beat) for vc; registered, usable from the next cycle; 6'b0 = none
 * <tr><td>resetIn<td>tx_reset_in<td>XPU<td>1<td>1 = reset the interface: the op in flight is
 *     aborted, every credit the XPU held is taken back and re-advertised afterwards
 * <tr><td>resetOut<td>tx_reset_out<td>SUE<td>1<td>1 while SUE is in reset and in the cycle after
 *     tx_reset_in; no credits are returned meanwhile
 * </table>
 * The rules (credit use, checks, what is counted) are those of {@link XpuTxInterface}.
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
