// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.cdc;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;

/**
 * Brings one level signal from another clock domain into the current one through a chain of
 * flip-flops (the first may go metastable; the others give it time to settle). It is a
 * sanctioned crossing: the component calls {@code allowClockCrossing()}.
 *
 * <p>Only single bits may cross this way: the bits of a bus can arrive in different cycles. For
 * counters use gray code ({@link GraySynchronizer}); for events use {@link PulseSynchronizer}.
 * The source should be a register, so that logic glitches are not sampled.
 *
 * <p><b>Parameters:</b> {@code stages}, number of flip-flops, 2..8 (2 is usual; 3 for high clock
 * rates or long mean time between failures).
 *
 * <p><b>Ports:</b> {@code asyncIn}, driven from any domain; {@code syncOut}, in the domain where
 * the synchroniser is instantiated, 0 during reset.
 *
 * <p><b>Timing:</b> {@code syncOut} takes the value {@code asyncIn} had at the destination edge
 * {@code stages - 1} edges earlier, so it follows a change at the {@code stages}-th edge after
 * it: at most {@code stages} cycles (declared latency).
 */
public final class BitSynchronizer extends Component {
    public final Bool asyncIn = in(bool());
    public final Bool syncOut = out(bool());

    public BitSynchronizer(int stages) {
        param("stages", stages);
        require(stages >= 2 && stages <= 8, "stages must be 2..8, got " + stages);
        allowClockCrossing();
        latency(stages);
        syncOut.set(SyncChain.build(asyncIn.asUInt(), stages).asBits().asBool());
    }
}
