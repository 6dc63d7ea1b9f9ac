// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.pdu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * A request from transmit reliability to the queue manager: return the cells of a PDU (first
 * cell {@code cell}, {@code length} bytes, so ceil(length / B) cells along the next pointers) to
 * the free list, charged to destination {@code dest}'s occupancy.
 */
public final class CellFree extends Bundle {
    public final UInt dest = uint(10);
    public final UInt cell = uint(16);
    public final UInt length = uint(13);

    @Override
    public CellFree copyType() {
        return new CellFree();
    }
}
