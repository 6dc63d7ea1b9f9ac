// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.credit;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;

/**
 * Credit receiver: counts the buffer slots in use and returns one credit to the sender for
 * every slot freed (for example one per FIFO pop), at most {@code maxReturnPerCycle} per cycle.
 *
 * <p>Parameters:
 * <ul>
 *   <li>{@code capacity}: 1..65535, buffer size in beats; equals the sender's {@code maxCredits}.</li>
 *   <li>{@code maxFreePerCycle}: 1..capacity, most slots freed in one cycle.</li>
 *   <li>{@code maxReturnPerCycle}: 1..capacity, most credits returned in one cycle; freed slots
 *       beyond it wait and go back in later cycles.</li>
 *   <li>{@code advertisedAtReset}: 0..capacity, credits handed out after reset, for a sender
 *       that starts with fewer than {@code capacity}: the sender's {@code initialCredits} plus
 *       this must equal {@code capacity}.</li>
 * </ul>
 *
 * <p>Ports: {@code received} (in: a beat arrived and took a slot), {@code freed} (in,
 * {@code bitsFor(maxFreePerCycle)} bits: slots freed this cycle), {@code credits_returned} (out,
 * {@code bitsFor(maxReturnPerCycle)} bits: credits going back this cycle), {@code occupancy}
 * (out: slots in use), {@code pending} (out: freed slots whose credit has not gone back yet).
 *
 * <p>Asserted: no beat arrives into a full buffer (the sender sent without a credit), no more
 * slots are freed than are in use, and occupancy plus pending credits never exceed capacity.
 *
 * <p>Latency 1: a slot freed in cycle {@code t} is returned from cycle {@code t+1} on (the returned
 * count comes from a register, which keeps the credit path free of combinational logic).
 */
public final class CreditReceiver extends Component {
    public final Bool received = in(bool());
    public final UInt freed;
    public final UInt creditsReturned;
    public final UInt occupancy;
    public final UInt pending;

    public CreditReceiver(int capacity, int maxFreePerCycle, int maxReturnPerCycle, int advertisedAtReset) {
        param("capacity", capacity);
        param("maxFreePerCycle", maxFreePerCycle);
        param("maxReturnPerCycle", maxReturnPerCycle);
        param("advertisedAtReset", advertisedAtReset);
        require(capacity >= 1 && capacity <= 65535, "capacity must be 1..65535, got " + capacity);
        require(maxFreePerCycle >= 1 && maxFreePerCycle <= capacity,
                "maxFreePerCycle must be 1..capacity (" + capacity + "), got " + maxFreePerCycle);
        require(maxReturnPerCycle >= 1 && maxReturnPerCycle <= capacity,
                "maxReturnPerCycle must be 1..capacity (" + capacity + "), got " + maxReturnPerCycle);
        require(advertisedAtReset >= 0 && advertisedAtReset <= capacity,
                "advertisedAtReset must be 0..capacity (" + capacity + "), got " + advertisedAtReset);
        int w = bitsFor(capacity);
        freed = in(uint(bitsFor(maxFreePerCycle)));
        creditsReturned = out(uint(bitsFor(maxReturnPerCycle)));
        occupancy = out(uint(w));
        pending = out(uint(w));
        latency(1);

        UInt used = reg("used", uint(w)).init(0);
        UInt owed = reg("owed", uint(w)).init(advertisedAtReset);
        // owed never exceeds capacity, so with maxReturnPerCycle == capacity no clamp is needed
        // (and the comparison would be constant, which lint rejects).
        UInt clamped = maxReturnPerCycle >= capacity ? owed
                : mux(owed.gt(maxReturnPerCycle), U(maxReturnPerCycle, w), owed);
        UInt returning = clamped.resize(creditsReturned.width()).named("returning");
        creditsReturned.set(returning);
        occupancy.set(used);
        pending.set(owed);

        // Wider sums, so overflow and underflow show in the assertions instead of wrapping.
        int wide = w + 2;
        UInt usedNext = used.resize(wide).add(received.asUInt().resize(wide)).sub(freed.resize(wide))
                .named("used_next");
        UInt owedNext = owed.resize(wide).add(freed.resize(wide)).sub(returning.resize(wide)).named("owed_next");
        used.set(usedNext.resize(w));
        owed.set(owedNext.resize(w));

        assertThat(received.not().or(used.lt(capacity)), "beat received into a full buffer: sent without a credit");
        assertThat(freed.resize(wide).le(used.resize(wide).add(received.asUInt().resize(wide))),
                "more slots freed than are in use");
        assertThat(usedNext.add(owedNext).le(capacity), "occupancy plus pending credits exceed capacity");
        if (maxFreePerCycle < (1 << freed.width()) - 1) {
            assertThat(freed.le(maxFreePerCycle), "more than maxFreePerCycle slots freed in one cycle");
        }
    }
}
