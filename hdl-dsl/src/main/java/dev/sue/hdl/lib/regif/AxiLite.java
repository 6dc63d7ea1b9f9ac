// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.regif;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * An AXI4-Lite interface (ARM IHI 0022, chapter B1) with a 32-bit data bus, seen from the master:
 * the five channels with the signal names of the specification. Declared
 * {@code slave(new AxiLite(addrBits)).named("s_axil")}, its ports are {@code s_axil_awaddr},
 * {@code s_axil_awvalid}, ..., the names cocotbext-axi's {@code AxiLiteBus.from_prefix(dut,
 * "s_axil")} and vendor interconnects expect.
 */
public final class AxiLite extends Bundle {
    /** Data bits (AXI4-Lite: 32 or 64; registers are 32 bits). */
    public static final int DATA_BITS = 32;

    public final UInt awaddr;
    public final Bits awprot = bits(3);
    public final Bool awvalid = bool();
    public final Bool awready = flipped(bool());
    public final Bits wdata = bits(DATA_BITS);
    public final Bits wstrb = bits(DATA_BITS / 8);
    public final Bool wvalid = bool();
    public final Bool wready = flipped(bool());
    public final UInt bresp = flipped(uint(2));
    public final Bool bvalid = flipped(bool());
    public final Bool bready = bool();
    public final UInt araddr;
    public final Bits arprot = bits(3);
    public final Bool arvalid = bool();
    public final Bool arready = flipped(bool());
    public final Bits rdata = flipped(bits(DATA_BITS));
    public final UInt rresp = flipped(uint(2));
    public final Bool rvalid = flipped(bool());
    public final Bool rready = bool();

    private final int addrBits;

    /** {@code addrBits}: byte address bits, 3..32. */
    public AxiLite(int addrBits) {
        require(addrBits >= 3 && addrBits <= 32, "an AXI4-Lite address has 3..32 bits, got " + addrBits);
        this.addrBits = addrBits;
        awaddr = uint(addrBits);
        araddr = uint(addrBits);
    }

    public int addrBits() {
        return addrBits;
    }

    @Override
    public AxiLite copyType() {
        return new AxiLite(addrBits);
    }
}
