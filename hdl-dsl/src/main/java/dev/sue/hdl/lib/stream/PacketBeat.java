// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.stream;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;

/**
 * One beat of a packet stream: {@code data} with byte-enable {@code keep} (bit i covers
 * {@code data[8i+7:8i]}; byte 0 is the first byte on the wire) and {@code last} on the final
 * beat of a packet. Only the last beat may have a partial keep, and its enabled bytes are
 * contiguous from byte 0. Joins an {@link AxiStream} in one line (no {@code tuser}).
 */
public final class PacketBeat extends Bundle implements AxiStreamPayload {
    public final Bits data;
    public final Bits keep;
    public final Bool last;
    private final int dataWidth;

    public PacketBeat(int dataWidth) {
        this.dataWidth = dataWidth;
        this.data = bits(dataWidth);
        this.keep = bits(Math.max(1, dataWidth / 8));
        this.last = bool();
    }

    @Override
    public Bits data() {
        return data;
    }

    @Override
    public Bits keep() {
        return keep;
    }

    @Override
    public Bool last() {
        return last;
    }

    public int dataWidth() {
        return dataWidth;
    }

    public int bytes() {
        return dataWidth / 8;
    }

    @Override
    public PacketBeat copyType() {
        return new PacketBeat(dataWidth);
    }
}
