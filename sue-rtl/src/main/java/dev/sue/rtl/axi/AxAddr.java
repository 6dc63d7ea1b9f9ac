// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.regif.Axi4;

/** An AW or AR request as the slave buffers it: every AxXXX field of {@code Axi4} but valid/ready. */
final class AxAddr extends Bundle {
    final UInt id;
    final UInt addr;
    final UInt len = uint(8);
    final UInt size = uint(3);
    final Bits burst = bits(2);
    final Bool lock = bool();
    final Bits cache = bits(4);
    final Bits prot = bits(3);
    final Bits qos = bits(4);
    final Bits region = bits(4);
    private final int idBits;
    private final int addrBits;

    AxAddr(int idBits, int addrBits) {
        this.idBits = idBits;
        this.addrBits = addrBits;
        id = uint(idBits);
        addr = uint(addrBits);
    }

    /**
     * The request control bytes for this request ({@link AxiReqControl}), with the given type,
     * data length - 1 and strobe lanes.
     */
    Bits control(int type, UInt dataLenM1, UInt strbLo, UInt strbHi) {
        AxiReqControl c = wire(new AxiReqControl());
        c.strbHi.set(strbHi);
        c.strbLo.set(strbLo);
        c.region.set(region);
        c.qos.set(qos);
        c.lock.set(lock);
        c.prot.set(prot);
        c.cache.set(cache);
        c.spare.set(B(0, 3));
        c.burst.set(burst);
        c.size.set(size);
        c.len.set(len);
        c.id.set(id.resize(16));
        c.addr.set(addr.resize(64));
        c.dataLenM1.set(dataLenM1);
        c.type.set(U(type, 8));
        return asBits(c);
    }

    /** The request carried in {@code c}, with ID {@code 0} ({@code m_axi} issues every request with ID 0). */
    static AxAddr fromControl(AxiReqControl c, int idBits, int addrBits) {
        AxAddr a = wire(new AxAddr(idBits, addrBits));
        a.id.set(U(0, idBits));
        a.addr.set(c.addr.resize(addrBits));
        a.len.set(c.len);
        a.size.set(c.size);
        a.burst.set(c.burst);
        a.lock.set(c.lock);
        a.cache.set(c.cache);
        a.prot.set(c.prot);
        a.qos.set(c.qos);
        a.region.set(c.region);
        return a;
    }

    /** Drives the AW ({@code write}) or AR channel's fields of {@code axi}, a master, but valid. */
    void driveOnto(Axi4 axi, boolean write) {
        (write ? axi.awid : axi.arid).set(id);
        (write ? axi.awaddr : axi.araddr).set(addr);
        (write ? axi.awlen : axi.arlen).set(len);
        (write ? axi.awsize : axi.arsize).set(size);
        (write ? axi.awburst : axi.arburst).set(burst);
        (write ? axi.awlock : axi.arlock).set(lock);
        (write ? axi.awcache : axi.arcache).set(cache);
        (write ? axi.awprot : axi.arprot).set(prot);
        (write ? axi.awqos : axi.arqos).set(qos);
        (write ? axi.awregion : axi.arregion).set(region);
    }

    @Override
    public AxAddr copyType() {
        return new AxAddr(idBits, addrBits);
    }
}
