// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Stream;

/**
 * A per-VC queue of validated PDU descriptors for {@link RxDeliver}: a 2-entry register FIFO
 * (the front) before a RAM FIFO, with a bypass into the front while the RAM part is empty.
 *
 * <h2>Why</h2>
 * A plain RAM {@link StreamFifo} offers an entry two edges after its push, a cycle more than the
 * receive path can spare (the validator's PDU queue, and behind each {@link RxVcQueue}'s head).
 * Here a push goes straight into the front while the RAM part is empty and the
 * front has room: offered from the next edge, also as the entry right behind the head, so the
 * deliverer finds the next PDU of a VC in the cycle after it pops the current one, even when
 * that PDU was validated only one cycle before. Older entries wait in the RAM FIFO and refill
 * the front as it drains (one per cycle), keeping arrival order.
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code s} (slave, {@link RxPduDesc}): push; {@code s_ready} is always 1 (the owner
 *       sizes the queue so it cannot overflow: an assertion checks it).</li>
 *   <li>{@code m} (master): the head, from registers only; popped by {@code m_ready}.</li>
 *   <li>{@code empty} (out): no entry held in either part (from registers only).</li>
 * </ul>
 *
 * <h2>Parameters</h2>
 * {@code wordBits} (width of {@link RxPduDesc#start}), {@code depth} (RAM entries behind the
 * front; capacity is {@code depth + 2}).
 *
 * <h2>Latency</h2>
 * Push at edge k while the RAM part is empty: in the front from edge k+1 (latency 1); a pop at
 * edge k shows the next entry from edge k+1 whenever it is in the front.
 */
public final class RxDescQueue extends Component {
    public final Stream<RxPduDesc> s;
    public final Stream<RxPduDesc> m;
    public final Bool empty = out(bool());

    public RxDescQueue(int wordBits, int depth) {
        param("wordBits", wordBits);
        param("depth", depth);
        require(depth >= 1, "depth must be at least 1, got " + depth);
        s = slave(Stream.of(() -> new RxPduDesc(wordBits)));
        m = master(Stream.of(() -> new RxPduDesc(wordBits)));
        latency(1);

        StreamFifo<RxPduDesc> ram = instance("ram_fifo",
                () -> new StreamFifo<>(() -> new RxPduDesc(wordBits), depth, FifoStorage.RAM, depth));
        StreamFifo<RxPduDesc> front = instance("front",
                () -> new StreamFifo<>(() -> new RxPduDesc(wordBits), 2, FifoStorage.REGISTERS, 2));
        Bool ramEmpty = ram.occupancy.eq(0).named("ram_empty");
        Bool bypass = s.valid.and(ramEmpty).and(front.s.ready).named("bypass");
        Bool refill = ram.m.valid.and(front.s.ready).named("refill");
        ram.s.valid.set(s.valid.andNot(bypass));
        assignLeaves(ram.s.payload, s.payload);
        ram.m.ready.set(refill);
        front.s.valid.set(bypass.or(refill));
        RxPduDesc in = wire("front_in", new RxPduDesc(wordBits));
        assignLeaves(in, ram.m.payload);
        when(bypass, () -> assignLeaves(in, s.payload));
        assignLeaves(front.s.payload, in);
        s.ready.set(TRUE);
        m.valid.set(front.m.valid);
        assignLeaves(m.payload, front.m.payload);
        front.m.ready.set(m.ready);
        empty.set(ramEmpty.and(front.occupancy.eq(0)));
        assertThat(s.valid.not().or(bypass).or(ram.s.ready), "descriptor queue overflow");
    }

    @Override
    public String moduleBaseName() {
        return "sue_rx_desc_queue";
    }
}
