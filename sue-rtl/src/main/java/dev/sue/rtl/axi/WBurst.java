// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * The summary of one W burst taken by {@link WriteBursts}: the index of its last stored beat, the
 * lowest written byte lane of its first beat and the highest of its last, and whether it can be
 * carried ({@code ok}: at most the largest burst's beats, strobes a contiguous byte range).
 */
final class WBurst extends Bundle {
    final UInt lastBeat;
    final UInt lo = uint(8);
    final UInt hi = uint(8);
    final Bool ok = bool();
    private final int beatBits;

    WBurst(int beatBits) {
        this.beatBits = beatBits;
        lastBeat = uint(beatBits);
    }

    @Override
    public WBurst copyType() {
        return new WBurst(beatBits);
    }
}
