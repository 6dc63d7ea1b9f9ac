// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;

/** What {@link RxFrameParser} learns at a frame's end (a word of its {@code end_q}). */
final class RxEndRecord extends Bundle {
    /** The MAC marked the frame bad (err on its last beat). */
    final Bool macErr = bool();
    /** RX_FCS is on and the FCS does not match. */
    final Bool fcsBad = bool();
    /** The R-CRC does not match. */
    final Bool rcrcBad = bool();

    @Override
    public RxEndRecord copyType() {
        return new RxEndRecord();
    }
}
