// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.pdu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * Descriptor of one PDU on the queue manager's PDU stream (DESIGN-TX.md, "Contract for the
 * remaining blocks"): destination xpuid, VC and length in bytes of the packed ops (2..4096; 0 for
 * an ACK-only PDU with no data beats). The PDU's bytes follow on a separate
 * {@code Stream<PacketBeat>} in the same order.
 */
public final class PduDesc extends Bundle {
    /** Destination xpuid. */
    public final UInt dest = uint(10);
    /** Virtual channel. */
    public final UInt vc = uint(2);
    /** PDU bytes (packed ops incl. their alignment bytes), 0..4096. */
    public final UInt length = uint(13);

    @Override
    public PduDesc copyType() {
        return new PduDesc();
    }
}
