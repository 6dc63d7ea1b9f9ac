// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.credit;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Stream;
import java.util.function.Supplier;

/**
 * Credit sender: passes beats from {@code s} to {@code m} only while it holds credits; each beat
 * sent spends one, and the receiver gives them back through {@code credits_returned}.
 *
 * <p>Parameters:
 * <ul>
 *   <li>{@code payloadType}: payload of the streams.</li>
 *   <li>{@code maxCredits}: 1..65535, the receiver's buffer size in beats (credits never exceed it).</li>
 *   <li>{@code initialCredits}: 0..maxCredits, credits held after reset (the receiver hands out
 *       the rest, see {@link CreditReceiver}).</li>
 *   <li>{@code maxReturnPerCycle}: 1..maxCredits, most credits that can come back in one cycle.</li>
 * </ul>
 *
 * <p>Ports: {@code s} (slave stream), {@code m} (master stream), {@code credits_returned} (in,
 * {@code bitsFor(maxReturnPerCycle)} bits: credits given back this cycle, 0 for none),
 * {@code credits} (out, {@code bitsFor(maxCredits)} bits: credits held now).
 *
 * <p>Protocol: {@code m_valid = s_valid & credits != 0} and {@code s_ready = m_ready & credits != 0}:
 * with no credit the beat waits. Returned credits count from the next cycle on. Asserted: the
 * counter never overflows (more credits returned than were spent) and never underflows; no
 * more than {@code maxReturnPerCycle} come back in a cycle.
 *
 * <p>Latency 0. State: the credit counter.
 *
 * @param <T> payload type
 */
public final class CreditSender<T extends Data> extends Component {
    public final Stream<T> s;
    public final Stream<T> m;
    public final UInt creditsReturned;
    public final UInt credits;

    public CreditSender(Supplier<T> payloadType, int maxCredits, int initialCredits, int maxReturnPerCycle) {
        param("maxCredits", maxCredits);
        param("initialCredits", initialCredits);
        param("maxReturnPerCycle", maxReturnPerCycle);
        require(maxCredits >= 1 && maxCredits <= 65535, "maxCredits must be 1..65535, got " + maxCredits);
        require(initialCredits >= 0 && initialCredits <= maxCredits,
                "initialCredits must be 0..maxCredits (" + maxCredits + "), got " + initialCredits);
        require(maxReturnPerCycle >= 1 && maxReturnPerCycle <= maxCredits,
                "maxReturnPerCycle must be 1..maxCredits (" + maxCredits + "), got " + maxReturnPerCycle);
        s = slave(Stream.of(payloadType));
        m = master(Stream.of(payloadType));
        creditsReturned = in(uint(bitsFor(maxReturnPerCycle)));
        credits = out(uint(bitsFor(maxCredits)));
        latency(0);

        UInt count = reg("credit_count", uint(credits.width())).init(initialCredits);
        Bool hasCredit = count.ne(0).named("has_credit");
        m.valid.set(s.valid.and(hasCredit));
        assignLeaves(m.payload, s.payload);
        s.ready.set(m.ready.and(hasCredit));
        credits.set(count);

        // One bit of headroom, so an overflow shows up in the assertion instead of wrapping.
        int wide = bitsFor(maxCredits + maxReturnPerCycle);
        UInt next = count.resize(wide).add(creditsReturned.resize(wide)).sub(m.fire().asUInt().resize(wide))
                .named("credit_next");
        count.set(next.resize(count.width()));

        s.assertProtocol("s", false);
        m.assertProtocol("m", true);
        assertThat(m.fire().not().or(hasCredit), "credit underflow: sent without a credit");
        assertThat(next.le(maxCredits), "credit overflow: more credits returned than were spent");
        if (maxReturnPerCycle < (1 << creditsReturned.width()) - 1) {
            assertThat(creditsReturned.le(maxReturnPerCycle), "more than maxReturnPerCycle credits in one cycle");
        }
    }
}
