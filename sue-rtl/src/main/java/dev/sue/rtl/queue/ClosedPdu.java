// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/** A PDU the packer closed, on its way to the PDU lists (close FIFO word of {@link TxQueueManager}). */
final class ClosedPdu extends Bundle {
    final UInt queue;
    /** The PDU's first cell (its name in the lists and the address of its {@code pdu_info}). */
    final UInt cell;
    private final int queueBits;
    private final int cellBits;

    ClosedPdu(int queueBits, int cellBits) {
        this.queueBits = queueBits;
        this.cellBits = cellBits;
        queue = uint(queueBits);
        cell = uint(cellBits);
    }

    @Override
    public ClosedPdu copyType() {
        return new ClosedPdu(queueBits, cellBits);
    }
}
