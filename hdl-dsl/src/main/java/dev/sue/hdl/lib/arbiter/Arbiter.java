// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.arbiter;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.OneHot;

/**
 * Request/grant arbiter: picks one of {@code N} requesters each cycle.
 *
 * <p>Parameters:
 * <ul>
 *   <li>{@code requesters} N, 1..1024: number of requesters.</li>
 *   <li>{@code policy}: {@link ArbiterPolicy#FIXED_PRIORITY} (lowest index wins) or
 *       {@link ArbiterPolicy#ROUND_ROBIN} (priority rotates past the last served requester).</li>
 * </ul>
 *
 * <p>Ports:
 * <ul>
 *   <li>{@code request} (in, N bits): bit {@code i} is high while requester {@code i} asks.</li>
 *   <li>{@code grant} (out, N bits): one-hot choice among the requests, zero when none.</li>
 *   <li>{@code grant_index} (out, {@code log2Up(N)} bits): index of the granted bit (0 with no grant).</li>
 *   <li>{@code advance} (in): the current grant was served this cycle; a round-robin arbiter
 *       then gives the lowest priority to the served requester from the next cycle on. Ignored
 *       by fixed priority.</li>
 * </ul>
 *
 * <p>Latency 0: {@code grant} follows {@code request} combinationally. The only state is the
 * round-robin priority mask ({@code N} flip-flops). To keep a grant while its user is busy,
 * restrict {@code request} to the granted bit (as {@link StreamArbiter} does).
 */
public final class Arbiter extends Component {
    public final Bits request;
    public final Bool advance = in(bool());
    public final Bits grant;
    public final UInt grantIndex;

    public Arbiter(int requesters, ArbiterPolicy policy) {
        param("requesters", requesters);
        param("policy", policy.name());
        require(requesters >= 1 && requesters <= 1024, "requesters must be 1..1024, got " + requesters);
        request = in(bits(requesters));
        grant = out(bits(requesters));
        grantIndex = out(uint(log2Up(requesters)));
        latency(0);

        grant.set(policy == ArbiterPolicy.ROUND_ROBIN ? roundRobin() : OneHot.lowestSetByGates(request));
        grantIndex.set(OneHot.toIndex(grant));

        assertThat(OneHot.atMostOne(grant), "grant must be one-hot or zero");
        assertThat(grant.and(request.not()).eq(0), "grant given to a requester that does not request");
        assertThat(request.eq(0).or(grant.ne(0)), "requests pending but nothing granted");
        assertThat(advance.not().or(grant.ne(0)), "advance without a grant");
    }

    /**
     * Requesters above the last served one come first ({@code mask}); when none of them asks,
     * the lowest requester overall wins. Serving requester {@code i} sets the mask to the bits
     * above {@code i}, so each other requester is served at most once before {@code i} again.
     *
     * <p>Depth: the picks and the next mask come from gates (prefix ORs), not {@code x & -x} and
     * {@code g - 1} (two carry chains in series, 6.25 levels at 16 requesters). The bits above
     * the lowest set bit of x are the prefix OR of x below each bit, so the next mask is chosen
     * from the same prefix ORs as the grant, beside it rather than behind it.
     */
    private Bits roundRobin() {
        Bits mask = reg("priority_mask", bits(request.width())).init(0);
        Bits preferred = request.and(mask).named("preferred_request");
        Bool anyPreferred = preferred.ne(0).named("any_preferred");
        Bits pick = mux(anyPreferred, OneHot.lowestSetByGates(preferred), OneHot.lowestSetByGates(request));
        Bits above = mux(anyPreferred, OneHot.aboveLowestSet(preferred), OneHot.aboveLowestSet(request));
        when(advance, () -> mask.set(above));
        return pick;
    }
}
