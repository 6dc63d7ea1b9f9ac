// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * The 18 control bytes of {@link AxiOps#TYPE_WRITE} and {@link AxiOps#TYPE_READ} ops. The fields
 * are declared from byte 17 down to byte 0 because {@code asBits} puts the first field at the most
 * significant end and control byte k is {@code tx_control[8k+7:8k]}; multi-byte fields are little
 * endian (byte 2 is AxADDR[7:0], byte 10 AxID[7:0]).
 *
 * <table>
 * <caption>layout</caption>
 * <tr><th>byte<th>field
 * <tr><td>0<td>command type
 * <tr><td>1<td>data length - 1 (writes: the burst's beats times the bus bytes, minus 1)
 * <tr><td>2..9<td>AxADDR (zero above the address width)
 * <tr><td>10..11<td>AxID (zero above the ID width)
 * <tr><td>12<td>AxLEN
 * <tr><td>13<td>{3'b0, AxBURST, AxSIZE}
 * <tr><td>14<td>{AxLOCK, AxPROT, AxCACHE}
 * <tr><td>15<td>{AxREGION, AxQOS}
 * <tr><td>16<td>writes: the lowest written byte lane of the first beat
 * <tr><td>17<td>writes: the highest written byte lane of the last beat
 * </table>
 */
final class AxiReqControl extends Bundle {
    final UInt strbHi = uint(8);
    final UInt strbLo = uint(8);
    final Bits region = bits(4);
    final Bits qos = bits(4);
    final Bool lock = bool();
    final Bits prot = bits(3);
    final Bits cache = bits(4);
    final Bits spare = bits(3);
    final Bits burst = bits(2);
    final UInt size = uint(3);
    final UInt len = uint(8);
    final UInt id = uint(16);
    final UInt addr = uint(64);
    final UInt dataLenM1 = uint(8);
    final UInt type = uint(8);

    /** The fields of {@code control} (a {@code tx_control}/{@code rx_control} word), as a wire. */
    static AxiReqControl of(Bits control) {
        AxiReqControl c = wire(new AxiReqControl());
        assignFromBits(c, control);
        return c;
    }

    @Override
    public AxiReqControl copyType() {
        return new AxiReqControl();
    }
}
