// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;

/**
 * Per-source deadlines with one common interval, for any number of sources and no scan: a FIFO of
 * {source, start time}. Because every entry waits the same {@code interval}, entries fall due in
 * the order they were pushed, so only the head has to be compared with the clock and every
 * deadline is exact (a scan over 1024 sources would make a short interval coarse). Whether an entry
 * is still wanted (stale entries) is decided by the owner when the head falls due; the owner keeps
 * at most one entry per source (an "in queue" bit per source, in its RAMs), so {@code numXpus + 1}
 * words never overflow (a pop frees room only in the next cycle).
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code push} / {@code push_src}: enqueue {source, {@code now}} (must not be full: the owner
 *       guarantees at most {@code numXpus} entries; asserted).</li>
 *   <li>{@code now} ({@code timeBits}): the owner's free-running cycle counter.</li>
 *   <li>{@code interval} (16): cycles from push to due; may change at run time (later entries then
 *       fall due by the new value, order is kept because the value is common).</li>
 *   <li>{@code due}: the head exists and {@code now - start >= interval}, i.e. {@code (now - interval
 *       - start) mod 2^timeBits < 2^(timeBits-1)} (the owner pops a due head within far less than
 *       2^(timeBits-1) - 2^16 cycles). {@code due} is registered: the next cycle's {@code now - interval}
 *       is itself registered a cycle ahead (from the {@code now} and {@code interval} of the cycle
 *       before), and the test is made a cycle ahead both for the head and for the entry behind it
 *       ({@code next_src}), the next cycle taking the one that is the head then. So {@code now} must
 *       count up by one per cycle and a new {@code interval} applies from the second cycle after it
 *       changes.</li>
 *   <li>{@code head_src}: the head's source (meaningful with {@code due}).</li>
 *   <li>{@code pop}: remove the head (only with {@code due}).</li>
 *   <li>{@code next_src}: the source of the entry the FIFO fetches this cycle if its output stage is free
 *       (the head is popped or absent), from a LUT copy of the FIFO's words read a cycle ahead at the FIFO's
 *       own fetch address (which advances exactly as the FIFO's, from the FIFO's ports), so it comes from
 *       flip-flops (one mux after them); {@code head_fresh}
 *       (registered): that fetch happened, so the head now is the entry {@code next_src} named in the
 *       previous cycle. An owner that reads a per-source
 *       state for both {@code head_src} and {@code next_src} into registers has the current head's state
 *       in the next cycle, chosen by {@code head_fresh}, with no pop bubble.</li>
 * </ul>
 *
 * <h2>Timing</h2>
 * A RAM FIFO ({@link StreamFifo}, latency 2) of {@link Entry} words: an entry pushed in cycle t is
 * at the head from t+2 at the earliest, so it falls due in cycle {@code t + max(interval, 2)} when
 * it is the head; one pop per cycle. With {@code registeredPush} the push (and its start time t) is
 * registered before the FIFO, which takes the owner's push logic off the FIFO's pointer and count
 * logic: the entry is at the head from t+3, due in {@code t + max(interval, 3)}.
 */
public final class TimerQueue extends Component {
    public final Bool push = in(bool());
    public final UInt pushSrc;
    public final UInt now;
    public final UInt interval = in(uint(16));
    public final Bool due = out(bool());
    public final UInt headSrc;
    public final Bool pop = in(bool());
    /** The source of the entry that becomes the head at the next edge if the head leaves now (see the class doc). */
    public final UInt nextSrc;
    /** The head was loaded at the last edge: it is the entry {@code next_src} named in the previous cycle. */
    public final Bool headFresh = out(bool());

    /** A FIFO word: the source and the cycle its wait started. */
    static final class Entry extends Bundle {
        final UInt src;
        final UInt start;
        private final int aw;
        private final int timeBits;

        Entry(int aw, int timeBits) {
            this.aw = aw;
            this.timeBits = timeBits;
            src = uint(aw);
            start = uint(timeBits);
        }

        @Override
        public Entry copyType() {
            return new Entry(aw, timeBits);
        }
    }

    public TimerQueue(int numXpus, int timeBits, boolean registeredPush) {
        param("numXpus", numXpus);
        param("timeBits", timeBits);
        param("registeredPush", registeredPush);
        require(numXpus >= 1 && numXpus <= 1024, "numXpus must be 1..1024, got " + numXpus);
        require(timeBits >= 18 && timeBits <= 32, "timeBits must be 18..32, got " + timeBits);
        int aw = log2Up(Math.max(2, numXpus));
        pushSrc = in(uint(aw));
        now = in(uint(timeBits));
        headSrc = out(uint(aw));
        nextSrc = out(uint(aw));
        StreamFifo<Entry> q = instance("q", () -> new StreamFifo<>(() -> new Entry(aw, timeBits), numXpus + 1,
                FifoStorage.RAM, numXpus + 1));
        Entry entry = wire("entry", new Entry(aw, timeBits));
        entry.src.set(pushSrc);
        entry.start.set(now);
        if (registeredPush) {
            Bool pushR = reg("push_r", bool()).init(false);
            pushR.set(push);
            q.s.valid.set(pushR);
            assignLeaves(q.s.payload, regNext(entry).named("entry_r"));
            assertThat(pushR.not().or(q.s.ready), "timer queue overflow");
        } else {
            q.s.valid.set(push);
            assignLeaves(q.s.payload, entry);
            assertThat(push.not().or(q.s.ready), "timer queue overflow");
        }
        // now - start >= interval  <=>  start is at or before cutoff = now - interval (the sign of one
        // subtraction, see the class doc); the test is made a cycle ahead, for the head and for the entry behind
        // it, against the next cycle's cutoff (itself registered a cycle ahead), and chosen by head_fresh
        UInt cutoffAhead = reg("cutoff_ahead", uint(timeBits)).init(0);
        cutoffAhead.set(now.add(2).sub(interval.resize(timeBits)));
        headSrc.set(q.m.payload.src);
        q.m.ready.set(pop.and(due));
        Entry next = new NextHead(q, aw, timeBits, numXpus + 1, this).entry;
        Bool ripeCur = regNext(ripeAt(cutoffAhead, q.m.payload.start)).named("ripe_cur");
        Bool ripeNext = regNext(ripeAt(cutoffAhead, next.start)).named("ripe_next");
        due.set(q.m.valid.and(mux(headFresh, ripeNext, ripeCur)));
        latency(registeredPush ? 3 : 2);
    }

    /**
     * The entry behind the head, for an owner that reads per-source state a cycle ahead: a LUT copy of the
     * FIFO's words, written with every push and read at the FIFO's own fetch address, which advances
     * exactly as the FIFO's (a fetch whenever the output stage is free and the RAM holds an entry, both
     * visible on the FIFO's ports), so the FIFO itself and its latency stay as they are. The entry is
     * registered: the copy is read a cycle ahead at both addresses the fetch pointer can hold next (it, and
     * it plus one, kept in a register of its own), the fetch picks one, and a push landing at the picked
     * address in that cycle is forwarded. The owner's per-source reads at {@code next_src} then start from a
     * flip-flop, not behind a 1024-deep LUT RAM read (two chained RAM reads made 9 levels in the 8192-cell
     * endpoint at 1024 bits, issue 13).
     */
    private static final class NextHead {
        /** The entry at the FIFO's fetch address (meaningful when the RAM holds one). */
        final Entry entry;

        NextHead(StreamFifo<Entry> q, int aw, int timeBits, int depth, TimerQueue t) {
            int words = Math.max(depth, 2);
            int pw = log2Up(words);
            Mem<Entry> copy = Mem.ofFactory(words, () -> new Entry(aw, timeBits)).named("next_mem");
            UInt writePtr = reg("next_write_ptr", uint(pw)).init(0);
            UInt fetchPtr = reg("next_fetch_ptr", uint(pw)).init(0);
            UInt fetchPtrPlusOne = reg("next_fetch_ptr_plus_one", uint(pw)).init(1);
            Bool push = q.s.valid.and(q.s.ready);
            Bool ramHasData = q.occupancy.ne(q.m.valid.asUInt().resize(q.occupancy.width())).named("next_in_ram");
            Bool fetch = q.m.valid.not().or(q.m.ready).and(ramHasData).named("next_fetch");
            copy.write(writePtr, q.s.payload, push);
            when(push, () -> writePtr.set(wrapIncrement(writePtr, words)));
            when(fetch, () -> {
                fetchPtr.set(fetchPtrPlusOne);
                fetchPtrPlusOne.set(wrapIncrement(fetchPtrPlusOne, words));
            });
            Entry atFetch = copy.readAsync(fetchPtr);
            Entry afterFetch = copy.readAsync(fetchPtrPlusOne);
            Entry held = regNext(mux("next_ahead", fetch, afterFetch, atFetch)).named("next_held");
            Bool pushHits = push.and(mux(fetch, writePtr.eq(fetchPtrPlusOne), writePtr.eq(fetchPtr)));
            Bool forwarded = regNext(pushHits).named("next_fwd");
            Entry pushed = regNext(q.s.payload).named("next_fwd_entry");
            entry = mux("next_entry", forwarded, pushed, held);
            t.nextSrc.set(entry.src);
            t.headFresh.set(regNext(fetch).named("head_fresh_r"));
            UInt nextSrcR = regNext(t.nextSrc).named("next_src_r");
            assertThat(t.headFresh.not().or(t.headSrc.eq(nextSrcR)), "timer queue next-head copy out of step");
        }

        private static UInt wrapIncrement(UInt ptr, int size) {
            return isPowerOfTwo(size) ? ptr.add(1) : mux(ptr.eq(size - 1), U(0, ptr.width()), ptr.add(1));
        }
    }

    /** {@code cutoff - start} is not negative (see the class doc). */
    private static Bool ripeAt(UInt cutoff, UInt start) {
        return cutoff.sub(start).bit(cutoff.width() - 1).not();
    }

    /** Emitted as {@code sue_timer_queue} (SUE modules carry the {@code sue_} prefix). */
    @Override
    public String moduleBaseName() {
        return "sue_timer_queue";
    }
}
