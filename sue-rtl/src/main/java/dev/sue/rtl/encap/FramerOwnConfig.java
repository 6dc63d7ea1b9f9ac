// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.rtl.config.SueEncapConfig;

/**
 * {@link SueFramer}'s own configuration registers, written from the TX configuration bus beside
 * the header builder's: a copy of OWN_XPUID[9:0] for the RH, FCS_BY_SUE, and MIN_FRAME kept as
 * the minimum body (PDU + padding) it implies, so a request's padding is one compare, not a
 * subtraction behind the request.
 */
final class FramerOwnConfig {
    final Bits ownXpuid;
    /** max(0, MIN_FRAME - (prefix + R-CRC + FCS)): the shortest PDU + padding of a frame. */
    final UInt minBody;
    final Bool fcsBySue;

    FramerOwnConfig(Bool cfgValid, UInt cfgAddr, Bits cfgData, FrameGeometry g) {
        int c = g.c;
        ownXpuid = reg("own_xpuid", bits(10)).init(0);
        minBody = reg("min_body", uint(13)).init(Math.max(0, SueFramer.DEFAULT_MIN_FRAME - c - 8));
        fcsBySue = reg("fcs_by_sue", bool()).init(false);
        when(cfgValid.and(cfgAddr.eq(SueEncapConfig.OWN_XPUID)), () -> ownXpuid.set(cfgData.slice(9, 0)));
        UInt minFrameW = cfgData.slice(11, 0).asUInt().resize(13);
        when(cfgValid.and(cfgAddr.eq(SueFramer.MIN_FRAME)), () -> minBody.set(
                mux(minFrameW.gt(c + 8), minFrameW.sub(c + 8), U(0, 13))));
        when(cfgValid.and(cfgAddr.eq(SueFramer.FCS_BY_SUE)), () -> fcsBySue.set(cfgData.bit(0)));
    }
}
