// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.crc.CrcEngine;
import dev.sue.hdl.lib.crc.CrcSpec;
import java.math.BigInteger;

/**
 * The end-of-frame checks of {@link RxFrameParser}: the FCS engine over the whole frame and the
 * R-CRC engine over RH..R-CRC (header bytes zeroed, the register started from the value that H
 * zero bytes turn into the standard init, so the engine sees the frame from byte 0), both fed
 * from the held beat. Their verdicts ({@link #end}, with the MAC error delayed alongside) are
 * valid with {@link #valid}, {@link #latency} cycles after a frame's last beat left stage L.
 */
final class RxCrcChecks {
    final int latency;
    final Bool valid;
    /** {mac_err, fcs_bad, rcrc_bad} of the frame whose result is out this cycle. */
    final RxEndRecord end;

    RxCrcChecks(RxHeldBeat h, Bool fcsEn, int w, int hb) {
        int nb = w / 8;
        CrcEngine.Options copt = CrcEngine.Options.defaults().withValue(false).withCheck(true);
        CrcEngine fcsCrc = instance("fcs_crc", () -> new CrcEngine(CrcSpec.CRC32, w, copt));
        fcsCrc.s.valid.set(h.emit);
        fcsCrc.s.payload.data.set(h.hd);
        fcsCrc.s.payload.keep.set(h.hk);
        fcsCrc.s.payload.last.set(h.hl);
        CrcSpec rspec = new CrcSpec("CRC-32-after-" + hb, 32, CrcSpec.CRC32.polynomial(), true, true,
                RxFrameParser.preInit(CrcSpec.CRC32, hb), CrcSpec.CRC32.xorOut());
        CrcEngine rcrc = instance("rcrc_crc", () -> new CrcEngine(rspec, w, copt));
        UInt fLen = mux(fcsEn, U(4, h.hc.bitWidth()), U(0, h.hc.bitWidth()));
        Bool dropF = h.hl.and(h.hc.le(fLen)).and(h.bi.ne(0)); // a last beat holding only FCS bytes
        rcrc.s.valid.set(h.emit.andNot(dropF));
        rcrc.s.payload.data.set(zeroHeader(h.hd, h.bi, hb, nb));
        // keep of the held beat without the FCS: when the FCS straddles into the next beat, the held
        // beat's last 4 lanes are kept as far as the next beat's first 4 are (no byte count needed)
        Bits allLanes = B(BigInteger.ONE.shiftLeft(nb).subtract(BigInteger.ONE), nb);
        Bits straddleKeep = cat(h.sk.slice(3, 0), allLanes.slice(nb - 5, 0));
        rcrc.s.payload.keep.set(mux(h.hl, h.hkNoFcs, mux(h.nextShortF, straddleKeep, allLanes)));
        rcrc.s.payload.last.set(h.fEnd);
        latency = fcsCrc.latencyCycles();
        require(latency == rcrc.latencyCycles(), "internal: CRC engines differ in latency");
        Bool errD = RxFrameParser.delay("mac_err_d", h.emit.and(h.hl).and(h.he), latency);
        valid = fcsCrc.crcValid;
        end = wire("end_live", new RxEndRecord());
        end.macErr.set(errD);
        end.fcsBad.set(fcsEn.andNot(fcsCrc.crcOk));
        end.rcrcBad.set(rcrc.crcOk.not());
    }

    /** The beat with frame bytes below {@code hb} cleared (beat index {@code bi}). */
    private static Bits zeroHeader(Bits data, UInt bi, int hb, int nb) {
        Bits out = data;
        for (int j = (hb - 1) / nb; j >= 0; j--) {
            int zeroBytes = Math.min(nb, hb - j * nb);
            Bits z = zeroBytes == nb ? B(0, 8 * nb) : cat(data.slice(8 * nb - 1, 8 * zeroBytes), B(0, 8 * zeroBytes));
            out = mux(bi.eq(j), z, out);
        }
        return out;
    }
}
