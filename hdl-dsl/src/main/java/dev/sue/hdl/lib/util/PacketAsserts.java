// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.util;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;

/** SVA for the {@link PacketBeat} rules on a packet stream. */
public final class PacketAsserts {
    private PacketAsserts() {
    }

    /**
     * While {@code stream} is valid: {@code keep} is a non-empty run of ones from byte 0, and it
     * is full on every beat but a packet's last. {@code what} names the stream in messages.
     */
    public static void wellFormed(Stream<PacketBeat> stream, String what) {
        Bits keep = stream.payload.keep;
        UInt k = keep.asUInt();
        when(stream.valid, () -> {
            assertThat(keep.ne(0), what + ": beat with an empty keep");
            assertThat(k.and(k.add(1)).eq(0), what + ": keep is not contiguous from byte 0");
            assertThat(stream.payload.last.or(keep.andR()), what + ": partial keep on a beat that is not last");
        });
    }
}
