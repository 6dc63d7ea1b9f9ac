// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.cdc;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;

/**
 * Synchronises a gray-coded counter into the current clock domain through a chain of
 * flip-flops per bit. Because a gray counter changes one bit per step, the output is always a
 * value the counter really had (the old or the new one), never a mix. It is a sanctioned
 * crossing: the component calls {@code allowClockCrossing()}.
 *
 * <p>The input must come straight from a register in the source domain and advance by at most
 * one gray step per source cycle; anything else (binary counters, data buses) is unsafe here.
 *
 * <p><b>Parameters:</b> {@code width}, bits of the gray value, 1..32; {@code stages}, flip-flops
 * per bit, 2..8.
 *
 * <p><b>Ports:</b> {@code grayIn} (from the source domain), {@code grayOut} (in the domain where
 * the synchroniser is instantiated, 0 during reset).
 *
 * <p><b>Timing:</b> a new value arrives at the {@code stages}-th destination edge after it was
 * registered at the source: at most {@code stages} cycles (declared latency).
 */
public final class GraySynchronizer extends Component {
    public final UInt grayIn;
    public final UInt grayOut;

    public GraySynchronizer(int width, int stages) {
        param("width", width);
        param("stages", stages);
        require(width >= 1 && width <= 32, "width must be 1..32, got " + width);
        require(stages >= 2 && stages <= 8, "stages must be 2..8, got " + stages);
        allowClockCrossing();
        latency(stages);
        grayIn = in(uint(width));
        grayOut = out(uint(width));
        grayOut.set(SyncChain.build(grayIn, stages));
    }
}
