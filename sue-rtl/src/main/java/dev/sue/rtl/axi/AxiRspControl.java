// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * The control bytes of {@link AxiOps#TYPE_B} and {@link AxiOps#TYPE_R} ops (6 are carried, the
 * rest is zero), declared from byte 17 down as {@link AxiReqControl}: byte 0 type, byte 1 data
 * length - 1 (R), bytes 2..3 the requester's original ID, bytes 4..5 the responses: BRESP in bits
 * 1:0, or RRESP of beat k in bits 2k+1:2k (a burst has at most 8 beats at the narrowest bus, 256
 * bits, so every beat's response travels).
 */
final class AxiRspControl extends Bundle {
    /** Response bits: 2 per beat, 8 beats at most. */
    static final int RESP_BITS = 16;

    final Bits spare = bits(96);
    final Bits resps = bits(RESP_BITS);
    final UInt id = uint(16);
    final UInt dataLenM1 = uint(8);
    final UInt type = uint(8);

    static AxiRspControl of(Bits control) {
        AxiRspControl c = wire(new AxiRspControl());
        assignFromBits(c, control);
        return c;
    }

    @Override
    public AxiRspControl copyType() {
        return new AxiRspControl();
    }
}
