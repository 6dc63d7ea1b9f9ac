// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.cdc;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;

/**
 * Carries single-cycle events from one clock domain to another: each source pulse flips a
 * toggle register, the toggle level crosses through a {@link BitSynchronizer}, and every
 * change of the synchronised level becomes one destination pulse. The crossing itself is the
 * bit synchroniser; this component needs no exemption from the clock-domain check.
 *
 * <p><b>Rule for the source:</b> two pulses must be at least {@code stages + 1} destination
 * clock cycles apart, otherwise the toggle may flip twice between samples and events are lost.
 * Use an asynchronous FIFO for faster or bursty events.
 *
 * <p><b>Parameters:</b> {@code source} and {@code destination} clock domains (different
 * clocks); {@code stages}, synchroniser flip-flops, 2..8.
 *
 * <p><b>Ports:</b> {@code srcPulse} (input, source domain), {@code dstPulse} (output,
 * destination domain, high for one cycle per source pulse).
 *
 * <p><b>Timing:</b> {@code dstPulse} is high for the one destination cycle that follows the
 * {@code stages}-th destination edge after the source edge that captured the pulse, so at most
 * {@code stages} destination cycles later (declared latency).
 */
public final class PulseSynchronizer extends Component {
    public final Bool srcPulse = in(bool());
    public final Bool dstPulse = out(bool());

    public PulseSynchronizer(ClockDomain source, ClockDomain destination, int stages) {
        param("stages", stages);
        require(source != destination, "source and destination must be different clock domains");
        require(stages >= 2 && stages <= 8, "stages must be 2..8, got " + stages);
        latency(stages);
        inDomain(source, srcPulse);

        Bool toggle = withDomain(source, () -> reg("toggle", bool()).init(false));
        when(srcPulse, () -> toggle.set(toggle.not()));
        BitSynchronizer sync = withDomain(destination, () -> instance("sync", () -> new BitSynchronizer(stages)));
        sync.asyncIn.set(toggle);
        Bool seen = withDomain(destination, () -> reg("seen", bool()).init(false));
        seen.set(sync.syncOut);
        dstPulse.set(sync.syncOut.xor(seen));
    }
}
