// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
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
 *   <li>{@code due}: the head exists and {@code now - start >= interval} (modulo 2^timeBits: the
 *       owner pops a due head within far less than 2^timeBits - 2^16 cycles).</li>
 *   <li>{@code head_src}: the head's source (meaningful with {@code due}).</li>
 *   <li>{@code pop}: remove the head (only with {@code due}).</li>
 * </ul>
 *
 * <h2>Timing</h2>
 * A RAM FIFO ({@link StreamFifo}, latency 2): an entry pushed in cycle t is at the head from t+2
 * at the earliest, so it falls due in cycle {@code t + max(interval, 2)} when it is the head; one
 * pop per cycle.
 */
public final class TimerQueue extends Component {
    public final Bool push = in(bool());
    public final UInt pushSrc;
    public final UInt now;
    public final UInt interval = in(uint(16));
    public final Bool due = out(bool());
    public final UInt headSrc;
    public final Bool pop = in(bool());

    public TimerQueue(int numXpus, int timeBits) {
        param("numXpus", numXpus);
        param("timeBits", timeBits);
        require(numXpus >= 1 && numXpus <= 1024, "numXpus must be 1..1024, got " + numXpus);
        require(timeBits >= 18 && timeBits <= 32, "timeBits must be 18..32, got " + timeBits);
        int aw = log2Up(Math.max(2, numXpus));
        pushSrc = in(uint(aw));
        now = in(uint(timeBits));
        headSrc = out(uint(aw));
        int width = aw + timeBits;
        StreamFifo<Bits> q = instance("q", () -> new StreamFifo<>(() -> bits(width), numXpus + 1, FifoStorage.RAM,
                numXpus + 1));
        q.s.valid.set(push);
        q.s.payload.set(cat(pushSrc, now));
        assertThat(push.not().or(q.s.ready), "timer queue overflow");
        UInt start = q.m.payload.slice(timeBits - 1, 0).asUInt();
        Bool ripe = now.sub(start).ge(interval.resize(timeBits));
        due.set(q.m.valid.and(ripe));
        headSrc.set(q.m.payload.slice(width - 1, timeBits).asUInt());
        q.m.ready.set(pop.and(due));
        latency(2);
    }

    /** Emitted as {@code sue_timer_queue} (SUE modules carry the {@code sue_} prefix). */
    @Override
    public String moduleBaseName() {
        return "sue_timer_queue";
    }
}
