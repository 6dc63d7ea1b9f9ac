// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.pdu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * A request from the receive path to send ACK information towards {@code dest}: {@code op} 0 ACK
 * (rpsn = last PSN received in order) or 1 NACK (rpsn = next expected PSN). The next PDU to
 * {@code dest} carries it; a later request to the same destination overwrites an earlier one that
 * has not been sent.
 */
public final class AckReq extends Bundle {
    /** Destination xpuid the ACK information is for. */
    public final UInt dest = uint(10);
    /** 0 ACK, 1 NACK. */
    public final UInt op = uint(1);
    /** The PSN the ACK/NACK names. */
    public final UInt rpsn = uint(16);

    @Override
    public AckReq copyType() {
        return new AckReq();
    }
}
