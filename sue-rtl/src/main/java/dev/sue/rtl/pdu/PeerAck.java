// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.pdu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * ACK information received from a peer, handed by the receive path to transmit reliability: the
 * RH {@code op}/{@code rpsn} of a PDU from {@code peer} that passed every header and R-CRC check,
 * whatever its own PSN verdict (ACK information is independent of the data PSN). Only RH
 * {@code op} 0 (ACK: rpsn = last PSN the peer received in order) and 1 (NACK: rpsn = next PSN the
 * peer expects) produce one; {@code op} 2 (no ACK information) does not.
 */
public final class PeerAck extends Bundle {
    /** The peer (RH xpuid of the received PDU): the connection the information is about. */
    public final UInt peer = uint(10);
    /** 0 ACK, 1 NACK. */
    public final UInt op = uint(1);
    /** The PSN the ACK/NACK names. */
    public final UInt rpsn = uint(16);

    @Override
    public PeerAck copyType() {
        return new PeerAck();
    }
}
