// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.pdu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
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
    /**
     * {@code length} takes one beat, or exactly two, of the queue manager's data path
     * ({@link PduBeats}), set with it by {@link #setLength}: the reader starts a replay from these
     * flags, with no length compare after the replay FIFO's head (8.25 levels in {@code sue_tx} at
     * 1024 bits, issue 13).
     */
    public final Bool oneBeat = bool();
    public final Bool twoBeats = bool();

    /** Sets {@code length} and its beat flags for a data path of {@code beatBytes} bytes a beat. */
    public void setLength(UInt len, int beatBytes) {
        length.set(len);
        oneBeat.set(PduBeats.one(len, beatBytes));
        twoBeats.set(PduBeats.two(len, beatBytes));
    }

    @Override
    public ReplayReq copyType() {
        return new ReplayReq();
    }
}
