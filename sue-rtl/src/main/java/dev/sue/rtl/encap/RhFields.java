// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.rtl.pdu.RhDesc;

/**
 * The reliability header fields of one PDU that its header request ({@link SueFramer#hdrReq})
 * did not carry: they follow the request by {@link SueFramer#RH_DELAY} cycles on
 * {@link SueFramer#rh}, so that the network header is built while transmit reliability assigns
 * the PSN. {@code cancel}: the PDU is withdrawn (no frame, no data beats).
 */
public final class RhFields extends Bundle {
    /** The PDU is withdrawn: its header is discarded, it has no data beats. */
    public final Bool cancel = bool();
    /** RH op: {@link RhDesc#OP_ACK}, {@link RhDesc#OP_NACK} or {@link RhDesc#OP_NONE}. */
    public final UInt op = uint(2);
    /** Packet sequence number. */
    public final UInt psn = uint(16);
    /** ACK: last PSN received in order; NACK: next expected PSN; 0 with op 2. */
    public final UInt rpsn = uint(16);
    /** A multi-port plane's frame: its connection's port move; null with one port. */
    public final ConnRoute route;

    public RhFields() {
        this(false);
    }

    /** @param routed a multi-port plane's: with {@link #route} */
    public RhFields(boolean routed) {
        route = routed ? new ConnRoute() : null;
    }

    @Override
    public RhFields copyType() {
        return new RhFields(route != null);
    }
}
