// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.fifo;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.BaseType;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.OneHot;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Synchronous FIFO between two streams of one clock domain, with occupancy and almost-full
 * outputs.
 *
 * <p><b>Parameters:</b>
 * <ul>
 * <li>{@code payloadType}: any payload type (leaf, bundle or Vec, at least 1 bit); the RAM
 *     holds words of that type ({@code Mem<T>}), the registers one payload each.
 * <li>{@code depth}: capacity in entries, 1 or more (any value, not only powers of two).
 * <li>{@code storage}: {@link FifoStorage#REGISTERS}, {@link FifoStorage#LUT_RAM} or
 *     {@link FifoStorage#RAM}; the RAMs have {@code max(depth, 2)} words.
 * <li>{@code almostFullThreshold}: 1..depth; {@code almostFull} is high while
 *     {@code occupancy >= almostFullThreshold}.
 * </ul>
 *
 * <p><b>Ports:</b> {@code s} push side (this block is its sink), {@code m} pop side (this block
 * is its source), {@code occupancy} (UInt of {@code bitsFor(depth)} bits), {@code almostFull}.
 *
 * <p><b>Occupancy and full/empty timing.</b> {@code occupancy} counts entries pushed and not
 * yet popped, wherever they sit (RAM, registers or the output stage); a push or pop at clock
 * edge k shows from edge k. {@code s.ready} is {@code occupancy != depth} and {@code
 * almostFull} is {@code occupancy >= almostFullThreshold}: a pop frees space for a push in the
 * <em>next</em> cycle, not the same one, so no combinational path runs from {@code m.ready} to
 * {@code s.ready}. Likewise {@code m.valid} and {@code m.payload} come from registers, never
 * combinationally from {@code s}.
 *
 * <p><b>Depth.</b> {@code s.ready}, {@code almostFull} and (register and LUT RAM storage) {@code m.valid}
 * are flip-flops, not compares of the count: each is loaded with the compare of the next
 * count, taken from the count register ({@code count == depth - 1} for a step up, ...) and
 * picked by the step. The count's own next value is {@code count + 1}, {@code count - 1} or
 * {@code count}, the sums made from the register beside the handshake and picked bit by bit by
 * a 4:1 multiplexer on {push, pop}. So the push and pop, which in a flattened design come from
 * the neighbouring blocks' logic, are one LUT from every register here (a multiplexer of whole
 * words would be merged by yosys into one adder whose operand, and so whose carry chain, comes
 * after the handshake). Assertions check each flag against its compare.
 *
 * <p><b>First-word latency</b> (declared with {@code latency}): a beat pushed at edge k is
 * offered on {@code m} from edge k+1 with {@link FifoStorage#REGISTERS} and
 * {@link FifoStorage#LUT_RAM} ({@code m.valid = occupancy != 0}), and from edge k+2 with {@link FifoStorage#RAM}: the
 * RAM's registered read needs one edge to fetch the head into its read register, which is the
 * output stage. The fetch runs ahead whenever the output stage is empty or being popped, so a
 * full RAM FIFO still delivers one beat per cycle.
 *
 * <p><b>Throughput:</b> one push and one pop per cycle once {@code depth >= latency + 1}
 * (2 for registers, 3 for RAM); smaller FIFOs alternate, because a full FIFO accepts again only
 * the cycle after a pop. A 1-entry FIFO is a half-rate register slice.
 *
 * @param <T> payload type
 */
public final class StreamFifo<T extends Data> extends Component {
    public final Stream<T> s;
    public final Stream<T> m;
    public final UInt occupancy;
    public final Bool almostFull;

    private final int depth;

    public StreamFifo(Supplier<T> payloadType, int depth, FifoStorage storage, int almostFullThreshold) {
        this.depth = param("depth", depth);
        param("storage", String.valueOf(storage));
        param("almostFullThreshold", almostFullThreshold);
        require(depth >= 1, "depth must be at least 1, got " + depth);
        require(storage != null, "storage must be REGISTERS, LUT_RAM or RAM");
        require(almostFullThreshold >= 1 && almostFullThreshold <= depth,
                "almostFullThreshold must be 1.." + depth + " (the depth), got " + almostFullThreshold);
        s = slave(Stream.of(payloadType));
        m = master(Stream.of(payloadType));
        param("payloadWidth", s.payload.bitWidth());
        occupancy = out(uint(bitsFor(depth)));
        almostFull = out(bool());
        latency(storage == FifoStorage.RAM ? 2 : 1);

        UInt count = reg("count", uint(bitsFor(depth))).init(0);
        Bool notFull = reg("not_full", bool()).init(true);
        Bool push = s.valid.and(notFull).named("push");
        Bool pop = m.fire().named("pop");
        Step step = new Step(push, pop);
        // count + 1 and count - 1 come from the register beside the handshake; the step picks one
        count.set(step.select(count.add(1).named("count_up"), count.sub(1).named("count_down"), count));
        // every flag is the count's compare, registered: its next value is the compare of the
        // next count, i.e. a compare of the count register picked by the step
        notFull.set(step.flag(count.ne(depth - 1), TRUE, notFull));
        Bool almost = reg("almost_full_q", bool()).init(false);
        almost.set(step.flag(atLeast(count, almostFullThreshold - 1), atLeast(count, almostFullThreshold + 1),
                almost));
        s.ready.set(notFull);
        occupancy.set(count);
        almostFull.set(almost);
        switch (storage) {
            case REGISTERS -> buildRegisterStorage(payloadType, push, pop, count, step);
            case LUT_RAM -> buildLutRamStorage(payloadType, push, pop, count, step);
            case RAM -> buildRamStorage(payloadType, push, count);
        }

        s.assertProtocol("s", false);
        m.assertProtocol("m", true);
        assertThat(push.not().or(count.ne(depth)), "push while full");
        assertThat(pop.not().or(count.ne(0)), "pop while empty");
        if (depth < (1L << count.width()) - 1) { // otherwise always true, and Verilator flags the constant compare
            assertThat(count.le(depth), "occupancy above depth");
        }
        assertThat(notFull.eq(count.ne(depth)), "ready flag out of step with the occupancy");
        assertThat(almost.eq(count.ge(almostFullThreshold)), "almost-full flag out of step with the occupancy");
    }

    /**
     * The count's step in a cycle, by {push, pop}: up (push alone), down (pop alone) or none.
     * {@link #select} and {@link #flag} pick a next value as a 4:1 multiplexer on push and pop,
     * one LUT after the handshake.
     */
    private static final class Step {
        private final Bool push;
        private final Bool pop;

        Step(Bool push, Bool pop) {
            this.push = push;
            this.pop = pop;
        }

        /**
         * Bit by bit: a multiplexer of whole words would be merged by yosys (opt_share) into one
         * adder whose operand, and so whose carry chain, comes after the handshake.
         */
        UInt select(UInt ifUp, UInt ifDown, UInt ifStay) {
            List<Bool> bits = new ArrayList<>();
            for (int i = 0; i < ifStay.width(); i++) {
                bits.add(flag(ifUp.bit(i), ifDown.bit(i), ifStay.bit(i)));
            }
            return OneHot.fromBools(bits).asUInt();
        }

        /** A flag's next value: {@code ifUp} after a step up, {@code ifDown} after one down, else {@code now}. */
        Bool flag(Bool ifUp, Bool ifDown, Bool now) {
            return mux(pop, mux(push, now, ifDown), mux(push, ifUp, now));
        }
    }

    /** {@code count >= k}, a constant where the count's range decides it (no constant compare in the SV). */
    private Bool atLeast(UInt count, int k) {
        if (k <= 0) {
            return TRUE;
        }
        if (k > depth) {
            return FALSE;
        }
        return count.ge(k);
    }

    /** {@code count != 0} as a flip-flop loaded with the compare of the next count (m.valid, one level). */
    private static Bool notEmptyFlag(UInt count, Step step) {
        Bool notEmpty = reg("not_empty", bool()).init(false);
        notEmpty.set(step.flag(TRUE, count.ne(1), notEmpty));
        assertThat(notEmpty.eq(count.ne(0)), "valid flag out of step with the occupancy");
        return notEmpty;
    }

    /** A ring of payload registers; the head is selected by the read pointer, field by field. */
    private void buildRegisterStorage(Supplier<T> payloadType, Bool push, Bool pop, UInt count, Step step) {
        Vec<T> slots = reg(Vec.of(depth, i -> payloadType.get())).named("slots");
        m.valid.set(notEmptyFlag(count, step));
        if (depth == 1) { // no pointers needed: the one slot is always the head
            when(push, () -> assignLeaves(slots.get(0), s.payload));
            assignLeaves(m.payload, slots.get(0));
            return;
        }
        UInt writePtr = reg("write_ptr", uint(log2Up(depth))).init(0);
        UInt readPtr = reg("read_ptr", uint(log2Up(depth))).init(0);
        for (int i = 0; i < depth; i++) {
            T slot = slots.get(i);
            when(push.and(writePtr.eq(i)), () -> assignLeaves(slot, s.payload));
        }
        when(push, () -> writePtr.set(increment(writePtr, depth)));
        when(pop, () -> readPtr.set(increment(readPtr, depth)));
        T head = wire(payloadType.get()).named("head");
        List<BaseType> headFields = head.leaves();
        for (int f = 0; f < headFields.size(); f++) {
            int field = f;
            Vec<BaseType> column = Vec.of(slots.asList().stream().map(slot -> slot.leaves().get(field)).toList());
            assignLeaves(headFields.get(f), column.get(readPtr));
        }
        assignLeaves(m.payload, head);
        assertPointersMatch(writePtr, readPtr, depth, count);
    }

    /**
     * A RAM read asynchronously at the read pointer: the head is the slot the read pointer names,
     * as with registers. The read never sees the slot being written: the writer reaches the read
     * pointer's slot only when the FIFO is empty (and then {@code m.valid} is low) or full (and
     * then {@code s.ready} is low).
     */
    private void buildLutRamStorage(Supplier<T> payloadType, Bool push, Bool pop, UInt count, Step step) {
        RamRing<T> ring = new RamRing<>(payloadType, depth, "read_ptr");
        ring.write(s.payload, push);
        ring.advance(pop);
        m.valid.set(notEmptyFlag(count, step));
        assignLeaves(m.payload, ring.ram.readAsync(ring.readPtr));
        ring.assertHolds(count);
    }

    /**
     * A RAM whose registered read port is the output stage. {@code out_valid} says the read
     * register holds the head; the next entry is fetched whenever that stage is empty or popped.
     * A fetch never reads the word being written: an entry is fetched only once it is in the
     * RAM (counted in {@code count} at an earlier edge), and the writer can only reach the fetch
     * address again after {@code depth} pushes, which {@code s.ready} forbids.
     */
    private void buildRamStorage(Supplier<T> payloadType, Bool push, UInt count) {
        RamRing<T> ring = new RamRing<>(payloadType, depth, "fetch_ptr");
        Bool outValid = reg("out_valid", bool()).init(false);
        // count >= out_valid always, so "differs" means an entry waits in the RAM.
        Bool ramHasData = count.ne(outValid.asUInt().resize(count.width())).named("ram_has_data");
        Bool stageFree = outValid.not().or(m.ready).named("stage_free");
        Bool fetch = stageFree.and(ramHasData).named("fetch");

        ring.write(s.payload, push);
        ring.advance(fetch);
        T head = ring.ram.readSync(ring.readPtr, fetch);
        when(stageFree, () -> outValid.set(ramHasData));
        m.valid.set(outValid);
        assignLeaves(m.payload, head);
        assertThat(outValid.not().or(count.ne(0)), "output stage valid in an empty FIFO");
        ring.assertHolds(count.sub(outValid.asUInt().resize(count.width())));
    }

    /**
     * The RAM of {@link FifoStorage#LUT_RAM} and {@link FifoStorage#RAM} storage and its two
     * pointers: {@code max(depth, 2)} words ({@link Mem} needs two; a 1-deep FIFO leaves one
     * unused), a write pointer stepped by each push and a read pointer (named by the storage:
     * the LUT RAM reads the head at it, the RAM fetches the next head) stepped by {@link #advance}.
     */
    private static final class RamRing<T extends Data> {
        final int words;
        final Mem<T> ram;
        final UInt writePtr;
        final UInt readPtr;

        RamRing(Supplier<T> payloadType, int depth, String readPtrName) {
            words = Math.max(depth, 2);
            ram = Mem.ofFactory(words, payloadType).named("ram");
            writePtr = reg("write_ptr", uint(log2Up(words))).init(0);
            readPtr = reg(readPtrName, uint(log2Up(words))).init(0);
        }

        /** Writes {@code payload} at the write pointer and steps it, when {@code push}. */
        void write(T payload, Bool push) {
            ram.write(writePtr, payload, push);
            when(push, () -> writePtr.set(increment(writePtr, words)));
        }

        /** Steps the read pointer when {@code advance}. */
        void advance(Bool advance) {
            when(advance, () -> readPtr.set(increment(readPtr, words)));
        }

        /** Asserts that the RAM holds {@code entries} words between the pointers ({@link #assertPointersMatch}). */
        void assertHolds(UInt entries) {
            assertPointersMatch(writePtr, readPtr, words, entries);
        }
    }

    /**
     * Asserts that the pointers of a ring of {@code size} slots are {@code entries} apart
     * (modulo {@code size}) and address a slot. Redundant in simulation, this is the invariant
     * that lets a formal tool prove the FIFO by induction: without it, a state with pointers and
     * count out of step looks like a reachable one.
     */
    private static void assertPointersMatch(UInt writePtr, UInt readPtr, int size, UInt entries) {
        UInt apart = writePtr.sub(readPtr);
        if (!isPowerOfTwo(size)) { // the subtraction wrapped modulo 2^width, not modulo size
            apart = mux(writePtr.lt(readPtr), apart.add(size), apart);
            assertThat(writePtr.lt(size).and(readPtr.lt(size)), "pointer beyond the last slot");
        }
        UInt expected = entries.resize(writePtr.width());
        if (entries.width() > writePtr.width() || !isPowerOfTwo(size)) {
            // entries reaches size at most (full): size slots apart is 0 apart
            expected = mux(entries.eq(size), U(0, writePtr.width()), expected);
        }
        assertThat(apart.eq(expected), "pointers out of step with the occupancy");
    }

    /** {@code ptr + 1}, wrapping to 0 after {@code size - 1} (free for powers of two). */
    static UInt increment(UInt ptr, int size) {
        if (isPowerOfTwo(size)) {
            return ptr.add(1);
        }
        return mux(ptr.eq(size - 1), U(0, ptr.width()), ptr.add(1));
    }
}
