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
 * moves the head past the op's cells, a rollback leaves it, so whether the commit's cycle takes
 * one more cell (known late: the packer's fill arithmetic) only picks between registers and
 * their precomputed successors (timing, issue 13).
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
    private final UInt count;
    private final UInt head;
    private final UInt cur;
    private final String prefix;

    /**
     * @param prefix of the register names (one list per cell parity); the list holds the cells of
     *     one parity an op takes at most, half of {@link QueueGeometry#kMax} rounded up (a
     *     chain's cells alternate parity)
     */
    SpareCells(QueueGeometry g, String prefix) {
        this.prefix = prefix;
        kMax = (g.kMax() + 1) / 2;
        kw = bitsFor(kMax);
        int iw = log2Up(kMax);
        for (int i = 0; i < kMax; i++) {
            ring.add(reg(prefix + "spare_" + i, uint(g.cw())));
        }
        count = reg(prefix + "spare_cnt", uint(kw)).init(0);
        used = reg(prefix + "used", uint(kw)).init(0);
        head = reg(prefix + "spare_head", uint(iw)).init(0);
        cur = reg(prefix + "spare_cur", uint(iw)).init(0);
        fromSpare = used.lt(count).named(prefix + "from_spare");
        List<UInt> padded = new ArrayList<>(ring);
        while (padded.size() < (1 << iw)) {
            padded.add(U(0, g.cw()));
        }
        cell = Vec.of(padded).get(cur);
        usedPlus1 = used.add(1).named(prefix + "used_plus_1");
    }

    /**
     * This cycle's update; {@code take} comes late in the cycle, so it only picks between values
     * computed from registers.
     *
     * @param allocCell the allocator's offered cell (taken when {@code take} and not {@link #fromSpare})
     * @param commit the op commits: the cells it used leave the front of the list
     * @param rollback the op ends without a commit: the cells it took stay in the list
     */
    void update(Bool take, UInt allocCell, Bool commit, Bool rollback) {
        UInt curNext = (isPowerOfTwo(kMax) ? cur.add(1) : mux(cur.eq(kMax - 1), U(0, cur.width()), cur.add(1)))
                .named(prefix + "spare_cur_next");
        UInt usedNow = mux(take, usedPlus1, used).named(prefix + "used_now");
        UInt curNow = mux(take, curNext, cur).named(prefix + "spare_cur_now");
        // entry `cur` past the count holds the allocator's offered cell whether or not it is taken
        // (entries past the count are don't-care), so the fill enable comes from registers
        for (int i = 0; i < kMax; i++) {
            final int ii = i;
            when(fromSpare.not().and(cur.eq(ii)), () -> ring.get(ii).set(allocCell));
        }
        // the count after a commit (the op's cells leave the front) or a rollback (they stay:
        // the count covers them), for both fates of the take; the take picks last
        UInt cntLeft0 = mux(count.gt(used), count.sub(used), U(0, kw)).named(prefix + "spare_left_0");
        UInt cntLeft1 = mux(count.gt(usedPlus1), count.sub(usedPlus1), U(0, kw)).named(prefix + "spare_left_1");
        UInt cntKept0 = mux(count.gt(used), count, used);
        UInt cntKept1 = mux(count.gt(usedPlus1), count, usedPlus1);
        UInt cntIfTake = mux(commit, cntLeft1, mux(rollback, cntKept1, count)).named(prefix + "spare_cnt_if_take");
        UInt cntNoTake = mux(commit, cntLeft0, mux(rollback, cntKept0, count)).named(prefix + "spare_cnt_no_take");
        count.set(mux(take, cntIfTake, cntNoTake));
        when(commit, () -> {
            used.set(U(0, kw));
            head.set(curNow);
            cur.set(curNow);
        }).elseWhen(rollback, () -> {
            used.set(U(0, kw));
            cur.set(head);
        }).elseWhen(take, () -> {
            used.set(usedPlus1);
            cur.set(curNext);
        });
        assertThat(usedNow.le(kMax), "an op took more cells than the spare list holds");
    }
}
