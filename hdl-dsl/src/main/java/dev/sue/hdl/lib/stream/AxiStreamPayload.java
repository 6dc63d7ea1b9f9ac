// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.stream;

import dev.sue.hdl.BaseType;
import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;

/**
 * A stream payload that maps onto AXI4-Stream's {@code tdata/tkeep/tlast/tuser}: what
 * {@link AxiStream#connectFrom} and {@link AxiStream#connectTo} need to join a {@code Stream}
 * of it to an {@link AxiStream} in one line. {@link PacketBeat} is one (no user field).
 */
public interface AxiStreamPayload {
    /** Carried on {@code tdata}: byte i in bits 8i+7:8i. */
    Bits data();

    /** Carried on {@code tkeep}: bit i enables byte i. */
    Bits keep();

    /** Carried on {@code tlast}. */
    Bool last();

    /** Carried on {@code tuser}, or null when the payload has none. */
    default BaseType user() {
        return null;
    }
}
