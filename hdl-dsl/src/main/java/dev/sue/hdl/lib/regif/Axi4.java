// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.regif;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * A full AXI4 interface (ARM IHI 0022, chapter A2) seen from the master: the five channels with
 * the signal names of the specification, without the optional USER signals. Declared
 * {@code slave(new Axi4(a, d, i)).named("s_axi")} its ports are {@code s_axi_awid},
 * {@code s_axi_awaddr}, ..., the names cocotbext-axi's {@code AxiBus.from_prefix(dut, "s_axi")}
 * and vendor interconnects expect. Widths: AxLEN 8, AxSIZE 3, AxBURST 2, AxLOCK 1, AxCACHE 4,
 * AxPROT 3, AxQOS 4, AxREGION 4, xRESP 2 (the specification's).
 */
public final class Axi4 extends Bundle {
    public final UInt awid;
    public final UInt awaddr;
    public final UInt awlen = uint(8);
    public final UInt awsize = uint(3);
    public final Bits awburst = bits(2);
    public final Bool awlock = bool();
    public final Bits awcache = bits(4);
    public final Bits awprot = bits(3);
    public final Bits awqos = bits(4);
    public final Bits awregion = bits(4);
    public final Bool awvalid = bool();
    public final Bool awready = flipped(bool());
    public final Bits wdata;
    public final Bits wstrb;
    public final Bool wlast = bool();
    public final Bool wvalid = bool();
    public final Bool wready = flipped(bool());
    public final UInt bid;
    public final UInt bresp = flipped(uint(2));
    public final Bool bvalid = flipped(bool());
    public final Bool bready = bool();
    public final UInt arid;
    public final UInt araddr;
    public final UInt arlen = uint(8);
    public final UInt arsize = uint(3);
    public final Bits arburst = bits(2);
    public final Bool arlock = bool();
    public final Bits arcache = bits(4);
    public final Bits arprot = bits(3);
    public final Bits arqos = bits(4);
    public final Bits arregion = bits(4);
    public final Bool arvalid = bool();
    public final Bool arready = flipped(bool());
    public final UInt rid;
    public final Bits rdata;
    public final UInt rresp = flipped(uint(2));
    public final Bool rlast = flipped(bool());
    public final Bool rvalid = flipped(bool());
    public final Bool rready = bool();

    /** OKAY, EXOKAY, SLVERR, DECERR: the xRESP encodings. */
    public static final int OKAY = 0;
    public static final int SLVERR = 2;
    public static final int DECERR = 3;

    private final int addrBits;
    private final int dataBits;
    private final int idBits;

    /**
     * @param addrBits byte address bits, 12..64 (a burst may not cross 4 KB, so less makes no sense)
     * @param dataBits data bus bits, 8..1024, a power of two (the specification's range)
     * @param idBits ID bits of every channel, 1..32
     */
    public Axi4(int addrBits, int dataBits, int idBits) {
        require(addrBits >= 12 && addrBits <= 64, "an AXI4 address has 12..64 bits, got " + addrBits);
        require(dataBits >= 8 && dataBits <= 1024 && isPowerOfTwo(dataBits),
                "an AXI4 data bus has 8..1024 bits, a power of two, got " + dataBits);
        require(idBits >= 1 && idBits <= 32, "an AXI4 ID has 1..32 bits, got " + idBits);
        this.addrBits = addrBits;
        this.dataBits = dataBits;
        this.idBits = idBits;
        awid = uint(idBits);
        awaddr = uint(addrBits);
        wdata = bits(dataBits);
        wstrb = bits(dataBits / 8);
        bid = flipped(uint(idBits));
        arid = uint(idBits);
        araddr = uint(addrBits);
        rid = flipped(uint(idBits));
        rdata = flipped(bits(dataBits));
    }

    public int addrBits() {
        return addrBits;
    }

    public int dataBits() {
        return dataBits;
    }

    public int idBits() {
        return idBits;
    }

    @Override
    public Axi4 copyType() {
        return new Axi4(addrBits, dataBits, idBits);
    }
}
