// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;

/**
 * The head for the next cycle: the same entry (cur, or the fresh one kept in cur) with this
 * cycle's beats counted into its registered flags, or, when its frame is done, the next entry
 * (from the header queue, else the fresh one) with none and the assembler's beat counters
 * cleared. One block because the current entry and the beat counters change together at an
 * entry's end.
 */
final class HeadAdvance {
    HeadAdvance(HeaderQueue hq, FrameAssembler a, FreshEntry fresh, FrameGeometry g) {
        int q = g.q;
        Bool entryDone = hq.entryDone;
        Bool penultimate = a.jPlusTwo.eq(hq.head.nOut).named("penultimate_out");
        when(hq.headValid.andNot(entryDone), () -> {
            hq.curMoreIn.set(hq.moreIn.andNot(a.lastIn));
            hq.curIsLast.set(mux(a.asmFire, penultimate, hq.isLast));
            if (q > 0) {
                when(a.asmFire.and(a.j.eq(q - 1)), () -> a.pastPrefix.set(true));
            }
        });
        when(hq.curValid.not().and(fresh.valid).andNot(entryDone), () -> {
            hq.curValid.set(true);
            assignLeaves(hq.cur, fresh.entry);
        });
        SueFramer.Entry next = wire("next_entry", g.entry());
        assignLeaves(next, fresh.entry);
        when(hq.nextFromQueue, () -> assignLeaves(next, hq.fifo.m.payload));
        when(entryDone, () -> {
            a.j.set(0);
            a.jPlusTwo.set(2);
            a.kTaken.set(0);
            if (q > 0) {
                a.pastPrefix.set(false);
            }
            when(hq.curValid, () -> {
                hq.curValid.set(hq.nextFromQueue.or(fresh.valid));
                assignLeaves(hq.cur, next);
                hq.curMoreIn.set(next.hasData);
                hq.curIsLast.set(next.oneOut);
            });
        });
    }
}
