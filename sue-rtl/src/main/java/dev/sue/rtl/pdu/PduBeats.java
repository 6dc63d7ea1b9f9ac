// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.pdu;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;

/**
 * How many data beats a PDU of {@code len} bytes (1..4096) takes on a path of {@code bytes} bytes
 * a beat, as the flags the queue manager's reader starts a PDU with. They are tested where a PDU
 * is queued for the reader (prefetch entry, replay request), not at its start: the start decision
 * then takes a flag from a FIFO's head with no compare after the head's mux (timing, issue 13).
 */
public final class PduBeats {
    private PduBeats() {}

    /** The PDU takes one beat. */
    public static Bool one(UInt len, int bytes) {
        return len.le(bytes);
    }

    /** The PDU takes exactly two beats. */
    public static Bool two(UInt len, int bytes) {
        return len.gt(bytes).and(len.le(2 * bytes));
    }
}
