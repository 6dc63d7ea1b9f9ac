// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * Internal beat of {@link RxFrameParser} between the realigner and the output stage: op-region
 * bytes in byte 0 up, {@code cnt} valid bytes (0..B), {@code last} on the frame's op-end slot
 * (every frame has exactly one), and {@code e} there: the frame offset where the op region ends
 * (frame length minus FCS minus R-CRC), saturating.
 */
public final class OpSlot extends Bundle {
    public final Bits data;
    public final UInt cnt;
    public final Bool last = bool();
    public final UInt e = uint(RxFrameParser.POS_BITS);
    private final int dataWidth;
    private final int cntWidth;

    public OpSlot(int dataWidth, int cntWidth) {
        this.dataWidth = dataWidth;
        this.cntWidth = cntWidth;
        this.data = bits(dataWidth);
        this.cnt = uint(cntWidth);
    }

    @Override
    public OpSlot copyType() {
        return new OpSlot(dataWidth, cntWidth);
    }
}
