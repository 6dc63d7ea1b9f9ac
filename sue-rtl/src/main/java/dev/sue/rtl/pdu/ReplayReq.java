// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.pdu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * A request from transmit reliability to the queue manager's reader: stream again the PDU whose
 * cells start at {@code cell} ({@code length} bytes, to {@code dest} on {@code vc}) and tag its
 * descriptor with {@code psn} and the replay flag. The cells stay allocated.
 */
public final class ReplayReq extends Bundle {
    public final UInt dest = uint(10);
    public final UInt vc = uint(2);
    public final UInt cell = uint(16);
    public final UInt length = uint(13);
    public final UInt psn = uint(16);

    @Override
    public ReplayReq copyType() {
        return new ReplayReq();
    }
}
