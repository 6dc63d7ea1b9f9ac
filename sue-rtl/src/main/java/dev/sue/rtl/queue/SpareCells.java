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
    private final List<UInt> regs = new ArrayList<>();
    private final Vec<UInt> all;
    private final UInt count;

    SpareCells(QueueGeometry g) {
        kMax = g.kMax();
        kw = bitsFor(kMax);
        List<UInt> padded = new ArrayList<>();
        for (int i = 0; i < (1 << kw); i++) {
            UInt r = i < kMax ? reg("spare_" + i, uint(g.cw())) : U(0, g.cw());
            if (i < kMax) {
                regs.add(r);
            }
            padded.add(r);
        }
        all = Vec.of(padded);
        count = reg("spare_cnt", uint(kw)).init(0);
        used = reg("used", uint(kw)).init(0);
        fromSpare = used.lt(count).named("from_spare");
        cell = all.get(used);
        usedPlus1 = used.add(1).named("used_plus_1");
    }

    /**
     * This cycle's update. Whether this cycle takes a cell ({@code take}) comes late in the cycle
     * (fill arithmetic), so every update is computed for both outcomes from registers and
     * {@code take} only picks one at the end.
     *
     * @param allocCell the allocator's cell (taken when {@code take} and not {@link #fromSpare})
     * @param commit the op commits: the cells it used leave the front of the list
     * @param rollback the op ends without a commit: the cells it took stay in the list
     */
    void update(Bool take, UInt allocCell, Bool commit, Bool rollback) {
        UInt usedNow = mux(take, usedPlus1, used).named("used_now");
        // Entry `used` past the count is the allocator's offered cell whether or not it is taken
        // (unused entries are don't-care), so the fill enable comes from registers (timing).
        for (int i = 0; i < kMax; i++) {
            final int ii = i;
            when(fromSpare.not().and(used.eq(ii)), () -> regs.get(ii).set(allocCell));
        }
        when(commit.or(rollback), () -> used.set(U(0, kw)))
                .elseWhen(take, () -> used.set(usedPlus1));
        // at a commit the cells the op used leave the front of the list: shift it by used(+1)
        UInt cntLeft0 = mux(count.gt(used), count.sub(used), U(0, kw)).named("spare_left_0");
        UInt cntLeft1 = mux(count.gt(usedPlus1), count.sub(usedPlus1), U(0, kw)).named("spare_left_1");
        List<UInt> shift0 = new ArrayList<>();
        List<UInt> shift1 = new ArrayList<>();
        // (entries past the count are don't-care: the shift fills them from the padding, never
        // from the entry itself, so the commit is a plain load enable of every entry: timing)
        for (int i = 0; i < kMax; i++) {
            shift0.add(all.get(used.add(i).resize(kw)));
            shift1.add(all.get(usedPlus1.add(i).resize(kw)));
        }
        when(commit, () -> {
            count.set(mux(take, cntLeft1, cntLeft0));
            for (int i = 0; i < kMax; i++) {
                regs.get(i).set(mux(take, shift1.get(i), shift0.get(i)));
            }
        }).elseWhen(rollback, () -> count.set(mux(take, mux(count.gt(usedPlus1), count, usedPlus1),
                mux(count.gt(used), count, used))));
        assertThat(usedNow.le(kMax), "an op took more cells than the spare list holds");
    }
}
