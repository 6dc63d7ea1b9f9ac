// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;

/**
 * Per-destination occupancy for DEST_LIMIT (part of {@link Packer}): cells allocated and cells
 * freed per destination, two counters modulo 2^(dw+1) in RAMs (occupancy = allocated - freed),
 * read in R's cycle for the op's destination and compared with the limit in the packer's cycle
 * ({@link #overLimit}, which the packer registers before it acts on it); {@link #allClear} says
 * from registers when no destination can be over its limit at all. The allocated count grows at a commit ({@link #commit}), the freed count
 * at each freed cell ({@link #countFree}; two copies, one read here, one updated there).
 */
final class DestOccupancy {
    /** The destination of R's chunk holds too many cells: its op is refused (late in the cycle). */
    final Bool overLimit;
    private final QueueGeometry g;
    private final Mem<Bits> destAlloc;
    private final Mem<Bits> destFreedCopy;
    private final UInt allocNow;
    private final Bool pendValid;
    private final UInt pendDest;
    private final UInt pendSum0;
    private final UInt pendSum1;
    private final UInt pendSum2;
    private final Bool pendTakeA;
    private final Bool pendTakeB;
    private final UInt pendVal;
    private final UInt daWrVal;
    /** Occupancy from which an op is refused (see the constructor). */
    private final UInt refuseFrom;
    private final Bool clearing;
    private final UInt clrDest;
    private final Bool clrDestEn;

    /**
     * @param readDest the destination read this cycle (R's next content)
     * @param rDest the destination of R (the chunk in the packer's cycle)
     * @param clearing the RAM clear sweep after reset is running (index {@code clr})
     */
    DestOccupancy(QueueGeometry g, UInt readDest, UInt rDest, UInt destLimit, Bool clearing, UInt clr) {
        this.g = g;
        this.clearing = clearing;
        final int xw = g.xw();
        final int ow = g.ow();
        destAlloc = Mem.of(g.xpus(), ow).named("dest_alloc");
        destFreedCopy = Mem.of(g.xpus(), ow).named("dest_freed_copy");
        UInt allocRd = destAlloc.readSync(readDest).asUInt().named("dest_alloc_rd");
        UInt freedRd = destFreedCopy.readSync(readDest).asUInt().named("dest_freed_rd");
        daWrVal = reg("da_wr_val", uint(ow)).init(0);
        clrDest = clr.resize(xw);
        clrDestEn = clearing.and(clr.lt(g.xpus()));
        // A commit's count is written a cycle after the commit (from registers: the sums with 0, 1 and
        // 2 cells taken in the commit's cycle, chosen by its registered takes), so a read sees
        // the pending write (committed in the cycle of the read), the last write (of the cycle of
        // the read: not yet in the RAM), or the RAM.
        pendValid = reg("da_pend_valid", bool()).init(false);
        pendDest = reg("da_pend_dest", uint(xw)).init(0);
        pendSum0 = reg("da_pend_sum0", uint(ow)).init(0);
        pendSum1 = reg("da_pend_sum1", uint(ow)).init(0);
        pendSum2 = reg("da_pend_sum2", uint(ow)).init(0);
        pendTakeA = reg("da_pend_take_a", bool()).init(false);
        pendTakeB = reg("da_pend_take_b", bool()).init(false);
        pendVal = mux(pendTakeB, pendSum2, mux(pendTakeA, pendSum1, pendSum0)).named("da_pend_val");
        Bool pendSameDest = reg("da_pend_same_dest", bool()).init(false);
        pendSameDest.set(rDest.eq(readDest));
        // the last write's destination (valid bit included) compared a cycle ahead
        Bool daFwd = reg("dest_alloc_fwd", bool()).init(false);
        daFwd.set(cat(pendValid.or(clearing), mux(clearing, clrDest, pendDest))
                .eq(cat(TRUE, readDest)));
        Bool pendFwd = pendValid.and(pendSameDest).named("dest_alloc_fwd_pend");
        allocNow = mux(pendFwd, pendVal, mux(daFwd, daWrVal, allocRd)).named("dest_alloc_now");
        // DEST_LIMIT = cells (the default) is no limit: in replay-store mode a destination's
        // unacknowledged PDUs count too, so one busy destination may approach the whole buffer,
        // and refusing then would drop ops the XPU was given credits for on a healthy link.
        // Refused when occupancy + K > DEST_LIMIT, i.e. occupancy >= refuse_from = DEST_LIMIT -
        // K + 1 (a register: 0 below K, every op; cells + 1 at DEST_LIMIT = cells, none). The
        // compare on the three candidate counts in parallel, the forwarding choice after them.
        refuseFrom = reg("dest_refuse_from", uint(ow)).init(g.cells() + 1);
        refuseFrom.set(mux(destLimit.ge(g.cells()), U(g.cells() + 1, ow),
                mux(destLimit.lt(g.kMax()), U(0, ow), destLimit.resize(ow).sub(g.kMax() - 1))));
        Bool overRd = allocRd.sub(freedRd).ge(refuseFrom).named("over_limit_rd");
        Bool overWr = daWrVal.sub(freedRd).ge(refuseFrom).named("over_limit_fwd");
        Bool overPend = pendVal.sub(freedRd).ge(refuseFrom).named("over_limit_pend");
        overLimit = mux(pendFwd, overPend, mux(daFwd, overWr, overRd)).named("over_limit");
    }

    /**
     * No destination can be over its limit: fewer cells are in use (neither free in the
     * allocators nor held by the packer) than {@code refuse_from}, even after four more
     * allocations: {@code freeOrHeldQ} is a cycle old (a register: the two allocators' counts
     * and the held cells summed) and this flag one more (the packer takes at most two cells per
     * cycle).
     */
    Bool allClear(UInt freeOrHeldQ) {
        final int sw = g.ow() + 2;
        Bool clear = reg("dest_limit_clear_r", bool()).init(false);
        clear.set(freeOrHeldQ.resize(sw).add(refuseFrom.resize(sw)).gt(g.cells() + 4));
        return clear;
    }

    /**
     * The allocated count: + the cells a committed op took ({@code used}, + 1 or 2 when the
     * commit's cycle takes more: {@code takeA}, {@code takeB}), written a cycle after the commit.
     *
     * @param firstTaken the packer takes an op's first chunk (the op's base count is kept)
     */
    void commit(Bool commit, UInt rDest, Bool isFirst, Bool firstTaken, UInt used, Bool takeA, Bool takeB) {
        final int ow = g.ow();
        UInt dAllocBase = reg("dest_alloc_base", uint(ow)).init(0);
        when(firstTaken, () -> dAllocBase.set(allocNow));
        UInt daBase = mux(isFirst, allocNow, dAllocBase).named("da_base");
        pendValid.set(commit);
        pendDest.set(rDest);
        UInt daUsed = daBase.add(used.resize(ow)).named("da_used");
        pendSum0.set(daUsed);
        pendSum1.set(daUsed.add(1));
        pendSum2.set(daUsed.add(2));
        pendTakeA.set(takeA);
        pendTakeB.set(takeB);
        destAlloc.write(mux(clearing, clrDest, pendDest), mux(clearing, B(0, ow), pendVal.asBits()),
                pendValid.or(clrDestEn));
        daWrVal.set(mux(clearing, U(0, ow), pendVal));
    }

    /** The freed count: + 1 for a cell of {@code dest} freed this cycle ({@code freeEv}). */
    void countFree(Bool freeEv, UInt dest) {
        final int xw = g.xw();
        final int ow = g.ow();
        Mem<Bits> destFreed = Mem.of(g.xpus(), ow).named("dest_freed");
        Bool dfValid = reg("df_valid", bool()).init(false);
        UInt dfDest = reg("df_dest", uint(xw)).init(0);
        UInt dfRd = destFreed.readSync(dest, freeEv).asUInt();
        Bool dfwValid = reg("dfw_valid", bool()).init(false);
        UInt dfwDest = reg("dfw_dest", uint(xw)).init(0);
        UInt dfwVal = reg("dfw_val", uint(ow)).init(0);
        dfValid.set(freeEv);
        dfDest.set(dest);
        UInt dfNew = mux(dfwValid.and(dfwDest.eq(dfDest)), dfwVal, dfRd).add(1).named("df_new");
        UInt wrDest = mux(clearing, clrDest, dfDest);
        Bits wrVal = mux(clearing, B(0, ow), dfNew.asBits());
        destFreed.write(wrDest, wrVal, dfValid.or(clrDestEn));
        destFreedCopy.write(wrDest, wrVal, dfValid.or(clrDestEn));
        dfwValid.set(dfValid);
        dfwDest.set(dfDest);
        dfwVal.set(dfNew);
    }
}
