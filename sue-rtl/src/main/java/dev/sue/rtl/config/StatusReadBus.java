// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.config;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * The status read bus: the host (the master) reads one word of the status space
 * ({@link StatusWord}) per request. The request fields are driven by the host, the response
 * fields (flipped) by the endpoint. A block declares it {@code slave(new StatusReadBus())
 * .named("rd")}: ports {@code rd_valid, rd_addr} in, {@code rd_rsp_valid, rd_data, rd_err} out.
 *
 * <table>
 * <caption>signals</caption>
 * <tr><th>field<th>port<th>driver<th>bits<th>meaning
 * <tr><td>valid<td>rd_valid<td>host<td>1<td>read the word at addr; one read per cycle, never
 *     back-pressured
 * <tr><td>addr<td>rd_addr<td>host<td>16<td>word address; the status space is
 *     {@code 0x8000 + i} ({@link StatusWord#STATUS_BASE})
 * <tr><td>rspValid<td>rd_rsp_valid<td>endpoint<td>1<td>the response, a fixed latency after the
 *     read ({@link StatusReadPort}: two cycles)
 * <tr><td>data<td>rd_data<td>endpoint<td>32<td>the word, narrower words zero-extended; 0 with
 *     err
 * <tr><td>err<td>rd_err<td>endpoint<td>1<td>the address is outside the status space
 * </table>
 */
public final class StatusReadBus extends Bundle {
    /** Address bits of a read. */
    public static final int ADDR_BITS = 16;
    /** Bits of a status word. */
    public static final int DATA_BITS = 32;

    public final Bool valid = bool();
    public final UInt addr = uint(ADDR_BITS);
    public final Bool rspValid = flipped(bool());
    public final Bits data = flipped(bits(DATA_BITS));
    public final Bool err = flipped(bool());

    @Override
    public StatusReadBus copyType() {
        return new StatusReadBus();
    }
}
