// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * A connection's own port move in a multi-port endpoint's plane (sue-rtl/DESIGN-PORTS.md, "Failover
 * per connection"), a field of its {@link ConnState}: while {@code moved} (and written in the current
 * {@code generation}) the connection's frames ask for {@code port} instead of the plane's; {@code count}
 * counts the connection's own moves modulo 4 and goes into each frame's RH {@code conn_move} field,
 * so that the peer can follow.
 */
public final class ConnMove extends Bundle {
    /** Width of the port number and of the move count. */
    public static final int BITS = 2;

    /** The connection has moved off the plane's port (in {@link #generation}). */
    public final Bool moved = bool();
    /** The port its frames ask for while moved. */
    public final UInt port = uint(BITS);
    /** Its own moves, modulo 4 (never cleared: the peer follows a count that is ahead). */
    public final Bits count = bits(BITS);
    /** The move generation it was made in: a {@code PORT_MODE} write starts a new one, voiding every move. */
    public final UInt generation = uint(BITS);

    /** Moved in the current generation {@code current}. */
    public Bool movedIn(UInt current) {
        return moved.and(generation.eq(current));
    }

    @Override
    public ConnMove copyType() {
        return new ConnMove();
    }
}
