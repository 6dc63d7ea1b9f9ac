// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * A grant the list engine has finished with (done FIFO word of {@link TxQueueManager}), for the
 * scheduler's DONE event: the queue and whether it stays eligible (its window is open; a grant
 * parked on a closed window is not).
 */
final class DoneEvent extends Bundle {
    final UInt queue;
    final Bool eligible = bool();
    private final int queueBits;

    DoneEvent(int queueBits) {
        this.queueBits = queueBits;
        queue = uint(queueBits);
    }

    @Override
    public DoneEvent copyType() {
        return new DoneEvent(queueBits);
    }
}
