// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.config;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * The configuration write bus: word writes from the host (the master) to the endpoint's
 * registers and tables. A block declares it {@code slave(new CfgBus()).named("cfg")}: ports
 * {@code cfg_valid, cfg_addr, cfg_data} in, {@code cfg_ready} out.
 *
 * <table>
 * <caption>signals</caption>
 * <tr><th>field<th>port<th>driver<th>bits<th>meaning
 * <tr><td>valid<td>cfg_valid<td>host<td>1<td>a write is offered
 * <tr><td>addr<td>cfg_addr<td>host<td>{@link #ADDR_BITS} (16 at the tops)<td>word address (the
 *     map is in sue-rtl/README.md; the tops' JSON report lists it)
 * <tr><td>data<td>cfg_data<td>host<td>{@link #DATA_BITS} (32 at the tops)<td>the word
 * <tr><td>ready<td>cfg_ready<td>block<td>1<td>the write is taken in a cycle with valid and ready
 *     (a block busy with a table clear holds it low); blocks that never wait drive 1
 * </table>
 * A write that hits no register of a block is ignored by it: every block sees every accepted
 * write and picks its own addresses ({@link CfgFanout}). A block that owns one window of the
 * space (the command-type table at {@code 0x01xx}) may take a narrower bus, only the window's
 * address and data bits ({@link CfgFanout#driveWindow}).
 */
public final class CfgBus extends Bundle {
    /** Address bits of the configuration bus at every top. */
    public static final int ADDR_BITS = 16;
    /** Data bits of the configuration bus at every top. */
    public static final int DATA_BITS = 32;

    public final Bool valid;
    public final UInt addr;
    public final Bits data;
    public final Bool ready;

    private final int addrBits;
    private final int dataBits;

    /** The full bus: 16 address bits, 32 data bits. */
    public CfgBus() {
        this(ADDR_BITS, DATA_BITS);
    }

    /** A bus of {@code addrBits} address and {@code dataBits} data bits (a window of the space). */
    public CfgBus(int addrBits, int dataBits) {
        if (addrBits < 1 || addrBits > ADDR_BITS || dataBits < 1 || dataBits > DATA_BITS) {
            throw new IllegalArgumentException("a configuration bus has 1.." + ADDR_BITS + " address and 1.."
                    + DATA_BITS + " data bits, got " + addrBits + " and " + dataBits);
        }
        this.addrBits = addrBits;
        this.dataBits = dataBits;
        valid = bool();
        addr = uint(addrBits);
        data = bits(dataBits);
        ready = flipped(bool());
    }

    /** A write is taken this cycle. */
    public Bool fire() {
        return valid.and(ready);
    }

    @Override
    public CfgBus copyType() {
        return new CfgBus(addrBits, dataBits);
    }
}
