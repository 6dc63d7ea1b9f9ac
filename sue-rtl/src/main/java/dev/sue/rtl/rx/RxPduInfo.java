// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * What {@link RxFrameParser}'s header check says about a frame (a word of its {@code info_q}):
 * whether it is a control frame, the drop reasons known from the header, the frame length the
 * header announces and the RH fields the PDU stream carries.
 */
final class RxPduInfo extends Bundle {
    /** Not a SUE frame for this endpoint (or shorter than its header): goes to {@code ctl}. */
    final Bool ctl = bool();
    final Bool hdrBad = bool();
    final Bool lenHdrBad = bool();
    final Bool csumBad = bool();
    final Bool verBad = bool();
    final Bool opBad = bool();
    final Bool srcBad = bool();
    final Bool partBad = bool();
    /** Standard encapsulations: the frame offset where the op region must end (IP length + header). */
    final UInt expE = uint(17);
    final UInt src = uint(10);
    final UInt vc = uint(2);
    final Bits psn = bits(16);
    final UInt op = uint(2);
    final Bits rpsn = bits(16);
    final Bits partition = bits(10);

    @Override
    public RxPduInfo copyType() {
        return new RxPduInfo();
    }
}
