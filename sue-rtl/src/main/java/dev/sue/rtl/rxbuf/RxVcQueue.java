// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Stream;

/**
 * A VC's queue of validated PDUs for {@link RxDeliver}'s deliverer: a head register in front of
 * an {@link RxDescQueue}, loaded straight from the validator's unregistered verdict while the
 * queue is empty (cut-through), else from the validator's registered verdict.
 *
 * <h2>Why</h2>
 * The validator's end-of-walk decision comes late (after a lane pick and a compare), so it is
 * registered before it meets a queue's counts and pointers. On an idle VC that register costs a
 * cycle of receive latency; here the late verdict only meets the head register's valid bit (and
 * its {@code bad} bit), whose load needs no count: the queue is known empty from registers.
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code d} (slave): the unregistered verdict; taken only when {@code directOk}
 *       ({@code d_ready} = {@code directOk}).</li>
 *   <li>{@code directOk} (out, from registers): nothing is held and no registered verdict is
 *       pushed now, so a direct verdict keeps arrival order.</li>
 *   <li>{@code s} (slave): the registered verdict (one the validator did not hand over on
 *       {@code d}); {@code s_ready} is always 1.</li>
 *   <li>{@code m} (master): the head, from registers only; popped by {@code m_ready}.</li>
 *   <li>{@code nextEmpty}, {@code nextLastOp} (out): whether the entry the head takes when it
 *       loads (it is empty or popped) is an empty PDU ({@link RxPduDesc#reachUnits}' top bit),
 *       and its {@link RxPduDesc#lastOp}, for the deliverer's end-test registers.</li>
 * </ul>
 *
 * <h2>Parameters</h2>
 * {@code wordBits} (width of {@link RxPduDesc#start}), {@code depth} (RAM entries of the
 * {@link RxDescQueue} behind the head; capacity is {@code depth + 3}).
 *
 * <h2>Latency</h2>
 * Direct push at edge k: head from edge k+1. Registered push while nothing is behind the head
 * and the head is empty or popped at k: head from k+1; otherwise behind the other entries in
 * arrival order, the next entry on the head from the edge after a pop.
 */
public final class RxVcQueue extends Component {
    public final Stream<RxPduDesc> d;
    public final Stream<RxPduDesc> s;
    public final Stream<RxPduDesc> m;
    public final Bool directOk = out(bool());
    /** The entry the head loads when it loads (popped or empty) is an empty PDU. */
    public final Bool nextEmpty = out(bool());
    /** The {@code lastOp} of the entry the head loads when it loads. */
    public final UInt nextLastOp = out(uint(14));

    public RxVcQueue(int wordBits, int depth) {
        param("wordBits", wordBits);
        param("depth", depth);
        require(depth >= 1, "depth must be at least 1, got " + depth);
        d = slave(Stream.of(() -> new RxPduDesc(wordBits)));
        s = slave(Stream.of(() -> new RxPduDesc(wordBits)));
        m = master(Stream.of(() -> new RxPduDesc(wordBits)));
        latency(1);

        RxDescQueue behind = instance("behind", () -> new RxDescQueue(wordBits, depth));
        Bool headValid = reg("head_valid", bool()).init(false);
        RxPduDesc head = reg("head", new RxPduDesc(wordBits));
        // nothing held: a verdict pushed now (either way) goes straight to the head register
        Bool allEmpty = headValid.not().and(behind.empty).named("all_empty");
        directOk.set(allEmpty.andNot(s.valid));
        d.ready.set(directOk);
        Bool load = headValid.not().or(m.ready).named("head_load");
        // a registered verdict also goes straight to the head when nothing is behind it and the
        // head leaves now, so a VC's next PDU is on the head the cycle after the current one's
        // pop. It is pushed behind all the same whenever the head is held (the late pop must not
        // reach the FIFO's counts); that copy ("dup") is dropped from the front the next cycle.
        Bool sToHead = s.valid.and(behind.empty).and(load).named("s_to_head");
        Bool dup = reg("dup", bool()).init(false);
        dup.set(sToHead.and(headValid));
        behind.s.valid.set(s.valid.andNot(allEmpty));
        assignLeaves(behind.s.payload, s.payload);
        s.ready.set(TRUE);
        behind.m.ready.set(load.or(dup));
        RxPduDesc next = wire("head_next", new RxPduDesc(wordBits));
        assignLeaves(next, behind.m.payload);
        when(behind.empty, () -> when(s.valid, () -> assignLeaves(next, s.payload))
                .otherwise(() -> assignLeaves(next, d.payload)));
        nextEmpty.set(next.reachUnits.bit(11));
        nextLastOp.set(next.lastOp);
        when(load, () -> {
            assignLeaves(head, next);
            headValid.set(mux(behind.empty, s.valid.or(d.valid.and(directOk)), behind.m.valid.andNot(dup)));
        });
        m.valid.set(headValid);
        assignLeaves(m.payload, head);
    }

    @Override
    public String moduleBaseName() {
        return "sue_rx_vc_queue";
    }
}
