// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.pdu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * Descriptor of one PDU leaving the queue manager when it keeps PDUs for replay
 * ({@code TxQueueManager} with {@code replayStore}): the {@link PduDesc} fields plus what
 * transmit reliability needs to keep, free or resend the PDU. Its bytes follow on the data stream
 * exactly as for a {@link PduDesc}.
 */
public final class TxPdu extends Bundle {
    /** Destination xpuid. */
    public final UInt dest = uint(10);
    /** Virtual channel. */
    public final UInt vc = uint(2);
    /** PDU bytes (packed ops incl. their alignment bytes), 1..4096. */
    public final UInt length = uint(13);
    /** First cell of the PDU in the shared cell buffer (its name in the replay store). */
    public final UInt cell = uint(16);
    /** Ops in the PDU (0 for a replay). */
    public final UInt ops = uint(12);
    /** The PDU is a retransmission requested through the replay port. */
    public final Bool replay = bool();
    /** A replay's PSN (copied from its request); 0 for a new PDU. */
    public final UInt psn = uint(16);

    @Override
    public TxPdu copyType() {
        return new TxPdu();
    }
}
