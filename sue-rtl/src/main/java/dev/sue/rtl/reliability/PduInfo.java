// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/** A kept PDU's entry in the descriptor pool (indexed by its first cell): what a replay or a free needs. */
final class PduInfo extends Bundle {
    /** PDU bytes, 1..4096. */
    final UInt length = uint(13);
    /** Virtual channel. */
    final UInt vc = uint(2);

    @Override
    public PduInfo copyType() {
        return new PduInfo();
    }
}
