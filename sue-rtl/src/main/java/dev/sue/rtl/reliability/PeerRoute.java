// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * A frame of a multi-port plane that arrived without a MAC error (sue-rtl/DESIGN-PORTS.md,
 * "Failover per connection"): its sender ({@code source}, the RH xpuid), the sender's own move
 * count of that connection (RH {@code conn_move}) and the port it arrived on. A count ahead of the
 * last one taken, seen twice in a row on the same port, makes this end's frames to the sender follow
 * to that port.
 */
public final class PeerRoute extends Bundle {
    public final UInt source = uint(10);
    public final Bits count = bits(ConnMove.BITS);
    public final UInt port = uint(ConnMove.BITS);

    @Override
    public PeerRoute copyType() {
        return new PeerRoute();
    }
}
