// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.fifo;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.Data;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.cdc.Gray;
import dev.sue.hdl.lib.cdc.GraySynchronizer;
import dev.sue.hdl.lib.stream.Stream;
import java.util.function.Supplier;

/**
 * Asynchronous (dual-clock) FIFO: a stream enters in the push domain and leaves in the pop
 * domain. The entries sit in a RAM written with the push clock and read with the pop clock;
 * each side keeps a binary pointer with one extra wrap bit and publishes it as a gray-coded
 * register, which the other side reads through a {@link GraySynchronizer}. Those two
 * synchronisers are the only clock-domain crossings besides the RAM itself, so the
 * elaboration's crossing check still covers the rest of this block.
 *
 * <p><b>Parameters:</b>
 * <ul>
 * <li>{@code payloadType}: any payload type (leaf, bundle or Vec, at least 1 bit): the RAM holds
 *     words of that type ({@code Mem<T>}).
 * <li>{@code depth}: capacity in entries, a power of two, 2..65536 (gray pointers wrap cleanly
 *     only at powers of two).
 * <li>{@code pushDomain}, {@code popDomain}: the two clocks (different domains).
 * <li>{@code syncStages}: flip-flops per synchroniser bit, 2..8.
 * </ul>
 *
 * <p><b>Ports:</b> {@code s} (push domain; this block is its sink), {@code pushOccupancy}
 * (push domain), {@code m} (pop domain; this block is its source), {@code popOccupancy} (pop
 * domain). Both occupancies are {@code bitsFor(depth)} bits.
 *
 * <p><b>Occupancy:</b> each side counts with its own pointer and a delayed copy of the other:
 * {@code pushOccupancy} may over-count (pops reach it late), so {@code s.ready =
 * pushOccupancy != depth} never overfills; {@code popOccupancy} may under-count (pushes reach it
 * late). Both agree once the other side has been idle for {@code syncStages + 1} cycles.
 *
 * <p><b>Timing:</b> a beat pushed at a push-clock edge is offered on {@code m} from the
 * {@code syncStages + 1}-th pop-clock edge after it ({@code syncStages} to synchronise the push
 * pointer, one to fetch), so at most {@code syncStages + 1} pop cycles later (declared latency);
 * the RAM's read register is the output stage, fetched ahead like in
 * {@link StreamFifo} with RAM storage, so {@code m} delivers one beat per pop cycle. {@code
 * s.ready}, {@code m.valid} and {@code m.payload} come from registers. Full throughput needs a
 * depth that covers the pointer round trip, about {@code 2 * (syncStages + 2)} cycles of the
 * slower clock.
 *
 * <p><b>Reset:</b> assert both domains' resets together (overlapping), each for at least one
 * edge of its clock, so that both pointers restart at zero.
 *
 * @param <T> payload type
 */
public final class AsyncStreamFifo<T extends Data> extends Component {
    public final Stream<T> s;
    public final Stream<T> m;
    public final UInt pushOccupancy;
    public final UInt popOccupancy;

    private final int depth;
    private final int addressWidth;
    private final Mem<T> ram;

    public AsyncStreamFifo(Supplier<T> payloadType, int depth, ClockDomain pushDomain, ClockDomain popDomain,
            int syncStages) {
        this.depth = param("depth", depth);
        param("syncStages", syncStages);
        require(isPowerOfTwo(depth) && depth >= 2 && depth <= 65536,
                "depth must be a power of two in 2..65536, got " + depth);
        require(pushDomain != null && popDomain != null && pushDomain != popDomain,
                "pushDomain and popDomain must be two different clock domains");
        require(syncStages >= 2 && syncStages <= 8, "syncStages must be 2..8, got " + syncStages);
        s = slave(Stream.of(payloadType));
        m = master(Stream.of(payloadType));
        param("payloadWidth", s.payload.bitWidth());
        pushOccupancy = out(uint(bitsFor(depth)));
        popOccupancy = out(uint(bitsFor(depth)));
        latency(syncStages + 1);
        inDomain(pushDomain, s.valid);
        inDomain(pushDomain, s.payload);
        inDomain(popDomain, m.ready);

        addressWidth = log2Up(depth);
        int pointerWidth = addressWidth + 1; // the extra bit tells a full FIFO from an empty one
        ram = Mem.ofFactory(depth, payloadType).named("ram");
        UInt pushGray = withDomain(pushDomain, () -> reg("push_gray", uint(pointerWidth)).init(0));
        UInt popGray = withDomain(popDomain, () -> reg("pop_gray", uint(pointerWidth)).init(0));
        GraySynchronizer popToPush = withDomain(pushDomain,
                () -> instance("pop_gray_sync", () -> new GraySynchronizer(pointerWidth, syncStages)));
        GraySynchronizer pushToPop = withDomain(popDomain,
                () -> instance("push_gray_sync", () -> new GraySynchronizer(pointerWidth, syncStages)));
        popToPush.grayIn.set(popGray);
        pushToPop.grayIn.set(pushGray);

        withDomain(pushDomain, () -> buildPushSide(pushGray, Gray.toBinary(popToPush.grayOut).named("pop_ptr_seen")));
        withDomain(popDomain, () -> buildPopSide(popGray, Gray.toBinary(pushToPop.grayOut).named("push_ptr_seen")));
    }

    /** Writes the RAM and advances the push pointer; everything here runs on the push clock. */
    private void buildPushSide(UInt pushGray, UInt popPtrSeen) {
        UInt pushPtr = reg("push_ptr", uint(addressWidth + 1)).init(0);
        UInt used = pushPtr.sub(popPtrSeen).named("push_used");
        Bool push = s.fire().named("push");
        s.ready.set(used.ne(depth));
        when(push, () -> {
            pushPtr.set(pushPtr.add(1));
            pushGray.set(Gray.fromBinary(pushPtr.add(1)));
        });
        ram.write(pushPtr.low(addressWidth), s.payload, push);
        pushOccupancy.set(used);

        s.assertProtocol("s", false);
        assertThat(push.not().or(used.ne(depth)), "push while full");
        assertThat(used.le(depth), "push-side occupancy above depth");
    }

    /**
     * Fetches the head into the RAM's read register (the output stage) whenever that stage is
     * empty or being popped, and advances the pop pointer on each pop. The fetch address is
     * always one the writer has finished with: it is below the synchronised push pointer, and
     * the writer cannot wrap onto it before the pop pointer, which trails it, comes back.
     */
    private void buildPopSide(UInt popGray, UInt pushPtrSeen) {
        UInt popPtr = reg("pop_ptr", uint(addressWidth + 1)).init(0);
        UInt fetchPtr = reg("fetch_ptr", uint(addressWidth + 1)).init(0);
        Bool outValid = reg("out_valid", bool()).init(false);
        Bool stageFree = outValid.not().or(m.ready).named("stage_free");
        Bool fetch = stageFree.and(fetchPtr.ne(pushPtrSeen)).named("fetch");
        Bool pop = m.fire().named("pop");
        when(fetch, () -> fetchPtr.set(fetchPtr.add(1)));
        when(stageFree, () -> outValid.set(fetch));
        when(pop, () -> {
            popPtr.set(popPtr.add(1));
            popGray.set(Gray.fromBinary(popPtr.add(1)));
        });
        T head = ram.readSync(fetchPtr.low(addressWidth), fetch);
        m.valid.set(outValid);
        assignLeaves(m.payload, head);
        UInt available = pushPtrSeen.sub(popPtr).named("pop_available");
        popOccupancy.set(available);

        m.assertProtocol("m", true);
        assertThat(available.le(depth), "pop-side occupancy above depth");
        assertThat(fetchPtr.sub(popPtr).eq(outValid.asUInt().resize(addressWidth + 1)),
                "fetch pointer must lead the pop pointer by exactly the output stage");
    }
}
