// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.ports;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.List;

/**
 * Unordered mode's choice of plane ({@link TxDispatcher}, sue-rtl/DESIGN-PORTS.md): the live plane
 * holding the fewest of the XPU's credits, registered, for the next op's first beat. An area built
 * inside the dispatcher's constructor (registers {@code backlog_*}).
 *
 * <p>A plane's backlog is the credits its beats took less those its credit messages returned, from
 * {@code pool} (the credits it advertises after reset, all {VC, kind} together: the first
 * messages bring it to 0): the beats it holds queued or unacknowledged. A plane not live (its port
 * down, its peer unreachable) counts as full. Ties go round robin: a pointer that moves at every
 * op start is the low part of the compared value, so idle planes with equal backlogs take ops in
 * turn.
 *
 * <h2>Timing</h2>
 * Backlog registered, then {live ? backlog : max, rank} registered, then a tree of compares
 * (2 at 4 ports) into the registered choice {@link #best}: the choice sees a beat 3 cycles after
 * the dispatcher registered it (ops started in those cycles may pick the same plane).
 */
final class LeastBacklog {
    /** The plane for the next op (registered). */
    final UInt best;

    private final int ports;
    private final int countBits;
    private final long pool;
    private final List<UInt> backlog = new ArrayList<>();
    private final UInt[] used;
    private final UInt[] released;

    /**
     * @param pool    credits a plane advertises after reset (every {VC, kind})
     * @param live    bit p: plane p may take ops
     * @param opStart an op's first beat is dispatched this cycle (moves the tie pointer)
     */
    LeastBacklog(int ports, long pool, Bits live, Bool opStart) {
        this.ports = ports;
        this.pool = pool;
        this.countBits = bitsFor(2 * pool + 8);
        used = new UInt[ports];
        released = new UInt[ports];
        int pb = log2Up(ports);
        UInt pointer = reg("backlog_tie", uint(pb)).init(0);
        when(opStart, () -> pointer.set(pointer.add(1)));
        List<UInt> keys = new ArrayList<>();
        List<UInt> index = new ArrayList<>();
        for (int p = 0; p < ports; p++) {
            UInt b = reg("backlog_" + p, uint(countBits)).init(pool);
            backlog.add(b);
            UInt key = reg("backlog_key_" + p, uint(countBits + pb)).init(0);
            UInt rank = pointer.add(p).resize(pb);
            key.set(cat(mux(live.bit(p), b, U((1L << countBits) - 1, countBits)), rank).asUInt());
            keys.add(key);
            index.add(U(p, pb));
        }
        while (keys.size() > 1) {  // a tree of compares, the lower key wins
            List<UInt> nextKeys = new ArrayList<>();
            List<UInt> nextIndex = new ArrayList<>();
            for (int i = 0; i < keys.size(); i += 2) {
                Bool right = keys.get(i + 1).lt(keys.get(i));
                nextKeys.add(mux(right, keys.get(i + 1), keys.get(i)));
                nextIndex.add(mux(right, index.get(i + 1), index.get(i)));
            }
            keys = nextKeys;
            index = nextIndex;
        }
        best = reg("backlog_best", uint(pb)).init(0);
        best.set(index.get(0));
    }

    /** Plane p's beats took {@code used} credits this cycle and its message returned {@code released}. */
    void account(int p, UInt usedCredits, UInt releasedCredits) {
        used[p] = usedCredits;
        released[p] = releasedCredits;
    }

    /** Every plane's backlog back to {@code pool} (reset, {@code tx_reset_in}); call after {@link #account}. */
    void clear(Bool clear) {
        for (int p = 0; p < ports; p++) {
            if (used[p] == null) {
                throw new IllegalStateException("plane " + p + "'s credits are not accounted");
            }
            UInt b = backlog.get(p);
            b.set(mux(clear, U(pool, countBits),
                    b.add(used[p].resize(countBits)).sub(released[p].resize(countBits))));
        }
    }
}
