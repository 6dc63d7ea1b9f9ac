// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.rtl.reliability.ConnMove;

/**
 * Where a multi-port plane's frame asks to leave (sue-rtl/DESIGN-PORTS.md, "Failover per
 * connection"): on {@code port} when its connection has {@code moved}, else on the plane's port;
 * {@code count}, the connection's own moves, goes into the frame's RH {@code conn_move} field.
 */
public final class ConnRoute extends Bundle {
    public final Bool moved = bool();
    public final UInt port = uint(ConnMove.BITS);
    public final Bits count = bits(ConnMove.BITS);

    @Override
    public ConnRoute copyType() {
        return new ConnRoute();
    }
}
