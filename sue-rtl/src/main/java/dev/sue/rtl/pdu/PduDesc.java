package dev.sue.rtl.pdu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * Descriptor of one PDU on the queue manager's output (see DESIGN-TX.md, "Contract for the
 * remaining blocks"): destination XPU ({@code dest}, 10 bits), virtual channel ({@code vc}, 2
 * bits) and PDU length in bytes ({@code length}, 13 bits: packed ops, 2..4096; 0 only for the
 * data-less ACK-only PDUs of the reliability block). The PDU's bytes follow on the companion
 * {@code Stream<PacketBeat>} in the same PDU order; a desc is never valid later than its first
 * data beat.
 */
public final class PduDesc extends Bundle {
    public final UInt dest = uint(10);
    public final UInt vc = uint(2);
    public final UInt length = uint(13);

    @Override
    public PduDesc copyType() {
        return new PduDesc();
    }
}
