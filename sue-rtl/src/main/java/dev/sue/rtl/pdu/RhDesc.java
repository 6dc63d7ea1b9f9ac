// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.pdu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * A {@link PduDesc} with the reliability header fields transmit reliability assigned: the
 * PDU's {@code psn}, and the ACK information it carries ({@code op} 0 ACK, 1 NACK, 2 none;
 * {@code rpsn}). ARCHITECTURE.md §5 gives the RH layout.
 */
public final class RhDesc extends Bundle {
    /** Destination xpuid. */
    public final UInt dest = uint(10);
    /** Virtual channel. */
    public final UInt vc = uint(2);
    /** PDU bytes, 0..4096. */
    public final UInt length = uint(13);
    /** Packet sequence number; for {@code length} 0 the destination's next PSN, not consumed (not checked by the receiver). */
    public final UInt psn = uint(16);
    /** RH op: 0 ACK, 1 NACK, 2 no ack info. */
    public final UInt op = uint(2);
    /** ACK: last PSN received in order; NACK: next expected PSN; 0 with op 2. */
    public final UInt rpsn = uint(16);

    /** RH op code: ACK. */
    public static final int OP_ACK = 0;
    /** RH op code: NACK. */
    public static final int OP_NACK = 1;
    /** RH op code: no ack information. */
    public static final int OP_NONE = 2;

    @Override
    public RhDesc copyType() {
        return new RhDesc();
    }
}
