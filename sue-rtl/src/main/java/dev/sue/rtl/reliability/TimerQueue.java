// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
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
 *       2^(timeBits-1) - 2^16 cycles). {@code now - interval} is registered a cycle ahead from the
 *       {@code now} and {@code interval} of the cycle before, so {@code now} must count up by one per
 *       cycle and a new {@code interval} applies from the next cycle.</li>
 *   <li>{@code head_src}: the head's source (meaningful with {@code due}).</li>
 *   <li>{@code pop}: remove the head (only with {@code due}).</li>
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
        // now - start >= interval  <=>  start is at or before cutoff = now - interval; cutoff is computed a
        // cycle ahead, so the head's test is one subtraction from registers (its sign, see the class doc)
        UInt cutoff = reg("cutoff", uint(timeBits)).init(0);
        cutoff.set(now.add(1).sub(interval.resize(timeBits)));
        Bool ripe = cutoff.sub(q.m.payload.start).bit(timeBits - 1).not().named("ripe");
        due.set(q.m.valid.and(ripe));
        headSrc.set(q.m.payload.src);
        q.m.ready.set(pop.and(due));
        latency(registeredPush ? 3 : 2);
    }

    /** Emitted as {@code sue_timer_queue} (SUE modules carry the {@code sue_} prefix). */
    @Override
    public String moduleBaseName() {
        return "sue_timer_queue";
    }
}
