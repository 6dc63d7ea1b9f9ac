// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import java.util.ArrayList;
import java.util.List;

/**
 * The packer's spare cells (part of {@link Packer}): the cells of an op that did not commit
 * (aborted or refused) are kept here and handed to the next allocations before the allocator's,
 * so a rollback needs no frees. {@link #used} counts the cells the op in progress has taken from
 * the front of the list (or from the allocator, which then fills the list behind them).
 *
 * <p>The list is a ring of K entries that never move: {@code head} is its front, {@code cur}
 * = head + used the entry the next cell comes from (or the allocator's cell goes to). A commit
 * moves the head past the op's cells, a rollback leaves it.
 *
 * <p><b>Timing (issue 13).</b> Whether the packer takes a cell is known late in the cycle (its
 * fill arithmetic), so the take feeds no logic here: every state register is kept twice, as it
 * is after a take in the previous cycle and as it is without one ({@link TakePair}), both
 * computed from this cycle's state and the op's fate, and the registered take ({@code tookQ})
 * picks one. {@link #fromSpare} is kept twice in the same way, so it stays one LUT from
 * registers.
 */
final class SpareCells {
    /** Cells the op in progress has taken. */
    final UInt used;
    /** The next cell comes from the list ({@link #cell}), not from the allocator. */
    final Bool fromSpare;
    /** The list's next cell. */
    final UInt cell;
    /** {@link #used} + 1 (the count after a take). */
    final UInt usedPlus1;
    private final int kMax;
    private final int kw;
    private final List<UInt> ring = new ArrayList<>();
    private final TakePair count;
    private final TakePair usedPair;
    private final TakePair head;
    private final TakePair cur;
    private final Bool fromSpareTook;
    private final Bool fromSpareKept;
    private final String prefix;

    /**
     * @param prefix of the register names (one list per cell parity); the list holds the cells of
     *     one parity an op takes at most, half of {@link QueueGeometry#kMax} rounded up (a
     *     chain's cells alternate parity)
     * @param tookQ the packer took this parity's offered cell in the previous cycle (a register)
     */
    SpareCells(QueueGeometry g, String prefix, Bool tookQ) {
        this.prefix = prefix;
        kMax = (g.kMax() + 1) / 2;
        kw = bitsFor(kMax);
        int iw = log2Up(kMax);
        for (int i = 0; i < kMax; i++) {
            ring.add(reg(prefix + "spare_" + i, uint(g.cw())));
        }
        count = new TakePair(prefix + "spare_cnt", kw, tookQ);
        usedPair = new TakePair(prefix + "used", kw, tookQ);
        head = new TakePair(prefix + "spare_head", iw, tookQ);
        cur = new TakePair(prefix + "spare_cur", iw, tookQ);
        used = usedPair.now;
        fromSpareTook = reg(prefix + "from_spare_took", bool()).init(false);
        fromSpareKept = reg(prefix + "from_spare_kept", bool()).init(false);
        fromSpare = mux(tookQ, fromSpareTook, fromSpareKept).named(prefix + "from_spare");
        List<UInt> padded = new ArrayList<>(ring);
        while (padded.size() < (1 << iw)) {
            padded.add(U(0, g.cw()));
        }
        cell = Vec.of(padded).get(cur.now);
        usedPlus1 = used.add(1).named(prefix + "used_plus_1");
        assertThat(fromSpare.eq(used.lt(count.now)), "spare list's from_spare out of step with its count");
    }

    /**
     * This cycle's update: the next state for both fates of {@code take} (late in the cycle),
     * which only the registered take picks, next cycle.
     *
     * @param allocCell the allocator's offered cell (taken when {@code take} and not {@link #fromSpare})
     * @param commit the op commits: the cells it used leave the front of the list
     * @param rollback the op ends without a commit: the cells it took stay in the list
     */
    void update(Bool take, UInt allocCell, Bool commit, Bool rollback) {
        UInt curNow = cur.now;
        UInt curNext = (isPowerOfTwo(kMax) ? curNow.add(1) : mux(curNow.eq(kMax - 1), U(0, curNow.width()), curNow.add(1)))
                .named(prefix + "spare_cur_next");
        // entry `cur` past the count holds the allocator's offered cell whether or not it is taken
        // (entries past the count are don't-care), so the fill enable comes from registers
        for (int i = 0; i < kMax; i++) {
            final int ii = i;
            when(fromSpare.not().and(curNow.eq(ii)), () -> ring.get(ii).set(allocCell));
        }
        UInt cnt = count.now;
        Bool ends = commit.or(rollback).named(prefix + "op_ends");
        UInt zero = U(0, kw);
        // the count after a commit (the op's cells leave the front) or a rollback (they stay:
        // the count covers them)
        UInt cntTook = mux(commit, mux(cnt.gt(usedPlus1), cnt.sub(usedPlus1), zero),
                mux(rollback, mux(cnt.gt(usedPlus1), cnt, usedPlus1), cnt)).named(prefix + "spare_cnt_if_take");
        UInt cntKept = mux(commit, mux(cnt.gt(used), cnt.sub(used), zero),
                mux(rollback, mux(cnt.gt(used), cnt, used), cnt)).named(prefix + "spare_cnt_no_take");
        UInt usedTook = mux(ends, zero, usedPlus1).named(prefix + "used_if_take");
        UInt usedKept = mux(ends, zero, used).named(prefix + "used_no_take");
        count.set(cntTook, cntKept);
        usedPair.set(usedTook, usedKept);
        head.set(mux(commit, curNext, head.now), mux(commit, curNow, head.now));
        cur.set(mux(rollback, head.now, curNext), mux(rollback, head.now, curNow));
        fromSpareTook.set(usedTook.lt(cntTook));
        fromSpareKept.set(usedKept.lt(cntKept));
        assertThat(take.not().or(usedPlus1.le(kMax)), "an op took more cells than the spare list holds");
    }

    /**
     * A register kept twice: its next value after a take ({@code took}) and without one
     * ({@code kept}); the registered take picks ({@link #now}), so the late take drives only
     * that one register.
     */
    private static final class TakePair {
        final UInt now;
        private final UInt took;
        private final UInt kept;

        TakePair(String name, int width, Bool tookQ) {
            took = reg(name + "_took", uint(width)).init(0);
            kept = reg(name + "_kept", uint(width)).init(0);
            now = mux(tookQ, took, kept).named(name);
        }

        void set(UInt afterTake, UInt withoutTake) {
            took.set(afterTake);
            kept.set(withoutTake);
        }
    }
}
