// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.regif;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * The register bus between a bus adapter ({@link AxiLiteTarget}), a decoder
 * ({@link RegBusDecoder}) and the blocks that hold registers ({@link RegisterFile}): one access at
 * a time, word addressed, 32-bit words. A block declares it {@code slave(new RegBus(bits))}.
 *
 * <table>
 * <caption>signals</caption>
 * <tr><th>field<th>driver<th>bits<th>meaning
 * <tr><td>valid<td>master<td>1<td>one-cycle request (no back-pressure)
 * <tr><td>write<td>master<td>1<td>1 write, 0 read
 * <tr><td>addr<td>master<td>addrBits<td>word address inside the slave's window
 * <tr><td>wdata<td>master<td>32<td>the word written
 * <tr><td>rspValid<td>slave<td>1<td>the response, one cycle, at least a cycle after the request
 * <tr><td>rdata<td>slave<td>32<td>the word read (0 on a write or an error)
 * <tr><td>resp<td>slave<td>2<td>AXI response code: {@link #OKAY}, {@link #SLVERR} (the slave
 *     refused: read-only register, illegal value), {@link #DECERR} (no register there)
 * </table>
 * The master sends the next request only after the response of the previous one, so slaves never
 * queue and a decoder ORs its slaves' responses.
 */
public final class RegBus extends Bundle {
    /** Bits of a register word. */
    public static final int DATA_BITS = 32;
    /** AXI response codes (IHI 0022, B.4.5). */
    public static final int OKAY = 0;
    public static final int SLVERR = 2;
    public static final int DECERR = 3;

    public final Bool valid = bool();
    public final Bool write = bool();
    public final UInt addr;
    public final Bits wdata = bits(DATA_BITS);
    public final Bool rspValid = flipped(bool());
    public final Bits rdata = flipped(bits(DATA_BITS));
    public final UInt resp = flipped(uint(2));

    private final int addrBits;

    /** A bus of {@code addrBits} word address bits (1..30). */
    public RegBus(int addrBits) {
        require(addrBits >= 1 && addrBits <= 30, "a register bus has 1..30 word address bits, got " + addrBits);
        this.addrBits = addrBits;
        addr = uint(addrBits);
    }

    public int addrBits() {
        return addrBits;
    }

    @Override
    public RegBus copyType() {
        return new RegBus(addrBits);
    }
}
