// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.demo;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;

/**
 * A library-style two-flop synchroniser for one level signal: {@code q} follows {@code d}
 * two edges of the clock of the domain it is instantiated in (use {@code withDomain}), plus
 * up to one cycle for the first flop to sample a change. Both flops reset to 0 with that
 * domain's reset and honour its clock enable.
 *
 * <p>Ports: {@code d} (input, from any clock domain), {@code q} (output, in this domain).
 * It calls {@code allowClockCrossing()}: its first flop is the one place where sampling a
 * foreign-domain signal is intended. Only single bits that change at most once per a few
 * destination cycles (levels, toggles, Gray codes) may cross this way.
 */
public final class TwoFlopSync extends Component {
    public final Bool d = in(bool());
    public final Bool q = out(bool());

    public TwoFlopSync() {
        allowClockCrossing();
        latency(2);
        Bool meta = reg("meta", bool()).init(false);
        Bool stable = reg("stable", bool()).init(false);
        meta.set(d);
        stable.set(meta);
        q.set(stable);
    }
}
