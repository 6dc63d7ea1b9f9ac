// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;

/**
 * The port a multi-port plane's frame asks for, beside its beats ({@link SueFramer#frameRoute}):
 * port p when {@code moved} ({@code to} has bit p set: its connection moved there,
 * sue-rtl/DESIGN-PORTS.md "Failover per connection"), else the plane's port ({@code to} all zero).
 * One-hot, so that the steering's grant of a port is one LUT of {@code to}'s bit and its own
 * registers. Control frames never ask.
 */
public final class FramePort extends Bundle {
    public final Bool moved = bool();
    public final Bits to;
    private final int ports;

    public FramePort(int ports) {
        this.ports = ports;
        to = bits(ports);
    }

    @Override
    public FramePort copyType() {
        return new FramePort(ports);
    }
}
