// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.regif.RegisterFile;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.regmap.FieldSpec;
import dev.sue.hdl.regmap.RegisterSpec;
import dev.sue.rtl.config.CfgBus;
import dev.sue.rtl.config.ConfigRegisters;
import dev.sue.rtl.xpu.XpuTxBus;

/**
 * The destination XPU of a request (a part of {@link AxiXpuBridge}, registers named
 * {@code dest_map_*}): address bits {@code [lsb + bits - 1 : lsb]}, bits at or above the address
 * width reading 0; a destination of {@code xpus} or more is unmapped (answered DECERR).
 *
 * <p>{@code lsb} and {@code bits} are the configuration register {@code AXI_DEST_MAP}
 * ({@link ConfigRegisters#axiDestMap}: its fields, legal ranges and resets, the generator's
 * {@code destLsb} and {@code destBits}), taken from the bridge's {@link CfgBus}; a write outside
 * the legal ranges is ignored (the endpoint's register map answers it SLVERR before it gets here).
 * A request's destination is worked out as it enters its AW or AR buffer ({@link #route}), so a
 * new map applies to every request accepted from the cycle after the write, and requests already
 * buffered keep the old one's.
 *
 * <p>Why at the buffer's input: the shift by a register is a mux of every address bit (3 LUT
 * levels at 64 bits) and the mask one more; behind the buffer it would sit in front of the packers'
 * checks and the sender's choice. The mask is a register of its own, made when the map is written.
 */
final class DestinationMap {
    private final UInt lsb;
    private final Bits mask;
    private final int xpus;

    DestinationMap(CfgBus cfg, int addrBits, int destLsb, int destBits, int xpus) {
        require(xpus >= 1 && xpus <= 1 << XpuTxBus.XPUID_BITS, "xpus must be 1..1024, got " + xpus);
        RegisterSpec spec = ConfigRegisters.axiDestMap(addrBits, destLsb, destBits);
        FieldSpec lsbField = ConfigRegisters.field(spec, ConfigRegisters.DEST_MAP_LSB);
        FieldSpec bitsField = ConfigRegisters.field(spec, ConfigRegisters.DEST_MAP_BITS);
        this.xpus = xpus;
        // legal shifts are below addrBits: the register keeps only the bits they need
        int shiftBits = Math.max(1, bitsFor(addrBits - 1));
        lsb = reg("dest_map_lsb", uint(shiftBits)).init(destLsb);
        mask = reg("dest_map_mask", bits(XpuTxBus.XPUID_BITS)).init(lowOnes(destBits));
        Bool write = cfg.valid.and(cfg.addr.eq(spec.offset())).and(RegisterFile.legalWrite(spec, cfg.data))
                .named("dest_map_write");
        UInt newBits = cfg.data.slice(bitsField.msb(), bitsField.lsb()).asUInt();
        Bits newMask = B(0, XpuTxBus.XPUID_BITS);
        for (int j = 0; j < XpuTxBus.XPUID_BITS; j++) {
            newMask = newMask.or(mux(newBits.gt(j), B(1L << j, XpuTxBus.XPUID_BITS), B(0, XpuTxBus.XPUID_BITS)));
        }
        Bits maskValue = newMask;
        when(write, () -> {
            lsb.set(cfg.data.slice(lsbField.lsb() + shiftBits - 1, lsbField.lsb()).asUInt());
            mask.set(maskValue);
        });
        cfg.ready.set(true);
    }

    /** {@code in} with each request's destination beside it (combinational: buffer the result). */
    Stream<Routed> route(Stream<AxAddr> in) {
        return in.map(() -> new Routed(in.payload.copyType()), a -> {
            Routed r = wire(new Routed(a.copyType()));
            assignLeaves(r.request, a);
            r.xpuid.set(a.addr.shr(lsb).resize(XpuTxBus.XPUID_BITS).asBits().and(mask).asUInt());
            return r;
        });
    }

    /** The destination is an XPU of the fabric. */
    Bool mapped(UInt xpuid) {
        return xpus == 1 << XpuTxBus.XPUID_BITS ? TRUE : xpuid.lt(xpus);
    }

    private static long lowOnes(int n) {
        return (1L << n) - 1;
    }
}
