// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Location;

/** Port records of a {@link MemoryIr}. */
public final class MemPorts {
    private MemPorts() {
    }

    /** Synchronous write: on the clock edge, when enable, mem[address] takes data (per byte lane if byteEnable). */
    public record Write(ClockDomain domain, Node address, Node data, Node enable, Node byteEnable, Location location) {
    }

    /**
     * Read port. Synchronous (domain != null): data is registered, updated when enable.
     * Asynchronous (domain == null): data follows address combinationally.
     */
    public record Read(ClockDomain domain, Node address, Node enable, Signal data, Location location) {
        public boolean isSync() {
            return domain != null;
        }
    }
}
