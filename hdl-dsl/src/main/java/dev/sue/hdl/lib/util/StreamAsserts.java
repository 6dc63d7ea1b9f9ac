// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.util;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.BaseType;
import dev.sue.hdl.Bool;
import dev.sue.hdl.lib.stream.Stream;

/** Block-specific SVA shared by the stream library (beyond {@link Stream#assertProtocol}). */
public final class StreamAsserts {
    private StreamAsserts() {
    }

    /**
     * Asserts that {@code value}, which travels beside {@code stream} (a select, an arbiter's
     * chosen index), does not change while the stream is stalled: it belongs to the beat just
     * as the payload does. Adds registers {@code <name>_q} and {@code <name>_stall_q}.
     */
    public static void stableWhileStalled(Stream<?> stream, BaseType value, String name) {
        BaseType before = reg(value.copyType()).named(name + "_q");
        assignLeaves(before, value);
        Bool stalledBefore = reg(name + "_stall_q", bool()).init(false);
        stalledBefore.set(stream.isStall());
        assertThat(stalledBefore.not().or(asBits(before).eq(asBits(value))), name + " changed while its stream was stalled");
    }
}
