// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.arbiter.Arbiter;
import dev.sue.hdl.lib.arbiter.ArbiterPolicy;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.OneHot;
import java.util.ArrayList;
import java.util.List;

/**
 * Work-conserving transmit scheduler: one active list per VC, round robin over the VCs that are
 * not paused, round robin over the active queues of a VC, and parking of queues whose window
 * is closed, so a stalled destination never takes a turn from the others.
 *
 * <p><b>Parameters:</b> {@code xpus} 2..1024; {@code vcs} 1, 2, 4 or 8. Queue id =
 * {@code dest * vcs + vc}.
 *
 * <p><b>Storage.</b> Per-queue state in a RAM of {@code xpus * vcs} words of 3 bits
 * ({@code hasData}, mode IDLE / ACTIVE / PARKED), read asynchronously (a LUT RAM: 12 Kbit at
 * 1024 x 4) so each event is a single-cycle read-modify-write with no hazard. The active lists
 * are FIFOs of destination ids, one RAM per VC of {@code 2^log2Up(xpus)} words of
 * {@code log2Up(xpus)} bits, each read asynchronously at its own head pointer, so the choice of
 * the VC only selects among heads already read; only the head/tail/count pointers are registers
 * (per VC, not per queue). A
 * queue is in its VC's list at most once, so a list never overflows. After reset the state RAM
 * is cleared, one word per cycle ({@code xpus * vcs} cycles, {@code ev.ready} low meanwhile).
 *
 * <p><b>Ports:</b>
 * <ul>
 * <li>{@code ev} (Stream of {@link SchedEvent}, input): one event per cycle, {@code ready} high
 *     from the end of the clear sweep on. The integrator merges the queue lists' events, the
 *     service-done reports and the wake-ups into this stream, in the order they happened.
 * <li>{@code grant} (Stream of UInt({@code log2Up(xpus * vcs)}), output): the next queue to
 *     serve. A transfer removes it from its active list; the queue stays ACTIVE (in service)
 *     until its {@code DONE} event. Several queues may be in service at once.
 * <li>{@code pause} (Bits({@code vcs}), input): bit v high = VC v is skipped by the selection
 *     (PFC/CBFC). A grant already offered stays offered (at most one, see below).
 * <li>{@code initDone} (Bool): the clear sweep has finished.
 * </ul>
 *
 * <p><b>Per-queue protocol</b> ({@code hasData} tracks the queue lists' events, mode the
 * scheduling state):
 * <ul>
 * <li>{@code NON_EMPTY}: hasData = 1; an IDLE queue becomes ACTIVE and enters its VC's list.
 * <li>{@code EMPTY}: hasData = 0 (normally during service, by the reader's pops).
 * <li>{@code DONE(eligible)}: the queue must be ACTIVE and in service. No data: IDLE. Data and
 *     eligible: re-enters its list at the tail (round robin). Data, not eligible: PARKED, in
 *     no list, so it takes no turns.
 * <li>{@code WAKE}: a PARKED queue becomes ACTIVE and enters its list (IDLE if it has no data);
 *     other modes are unchanged. Waking a destination = one WAKE per VC queue.
 * </ul>
 * SVA flag a NON_EMPTY for a queue with data, an EMPTY for a queue without, and a DONE for a
 * queue that is not ACTIVE.
 *
 * <p><b>Selection and timing.</b> The grant is a registered output stage. Whenever it is empty
 * or being taken, the library round-robin {@link Arbiter} picks among the VCs whose list is
 * non-empty and that are not paused, rotating past the VC served last; that VC's head queue is
 * popped into the stage. Hence one grant per cycle while any eligible list is non-empty, and
 * parked queues cost nothing. When no list can be served (all empty or paused) and the grant
 * stage is free, a queue that an event would append to an unpaused list bypasses the list and
 * is loaded into the grant stage at once (the round-robin pointer is not moved by a bypass).
 * So a queue that becomes non-empty on an idle system is offered on {@code grant} one cycle
 * after its event (latency 1: {@code NON_EMPTY} accepted in cycle t, {@code grant.valid} in
 * cycle t+1); through a list (other queues waiting) it takes at least 2. A served queue
 * reported DONE (eligible) in the cycle after its grant is offered again 2 cycles after that
 * grant at the earliest when it is alone, 3 when it goes through its list. Selection uses the
 * list contents before the edge's append, so the append and a pop of the same list in one cycle
 * never touch the same word.
 */
public final class ActiveScheduler extends Component {
    static final int IDLE = 0;
    static final int ACTIVE = 1;
    static final int PARKED = 2;

    /** A queue's word of the state RAM: whether it holds data, its mode (IDLE, ACTIVE, PARKED). */
    static final class SchedState extends Bundle {
        final Bool hasData = bool();
        final UInt mode = uint(2);

        @Override
        public SchedState copyType() {
            return new SchedState();
        }
    }

    public final Stream<SchedEvent> ev;
    public final Stream<UInt> grant;
    public final Bits pause;
    public final Bool initDone;

    public ActiveScheduler(int xpus, int vcs) {
        param("xpus", xpus);
        param("vcs", vcs);
        require(xpus >= 2 && xpus <= 1024, "xpus must be 2..1024, got " + xpus);
        require(vcs == 1 || vcs == 2 || vcs == 4 || vcs == 8, "vcs must be 1, 2, 4 or 8, got " + vcs);
        int queues = xpus * vcs;
        int qw = log2Up(queues);
        int xw = log2Up(xpus);
        int vw = Integer.numberOfTrailingZeros(vcs);
        int cw = bitsFor(xpus);
        ev = slave(Stream.of(() -> new SchedEvent(qw)));
        grant = master(Stream.of(() -> uint(qw)));
        pause = in(bits(vcs));
        initDone = out(bool());
        latency(1);

        Mem<SchedState> state = Mem.of(queues, new SchedState()).named("queue_state");
        // one RAM per VC, each read at its own head pointer (a register): the VC choice then
        // only picks among the heads already read, off the RAM's read path (timing, issue 13)
        List<Mem<UInt>> lists = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            lists.add(Mem.of(1 << xw, uint(xw)).named(vcs == 1 ? "list" : "list_" + v));
        }
        Vec<UInt> head = reg(Vec.of(vcs, i -> uint(xw))).named("head");
        Vec<UInt> tail = reg(Vec.of(vcs, i -> uint(xw))).named("tail");
        // the list lengths, and each length + 1 and - 1 kept beside it: pop and push (late: the
        // grant's taker) only choose among registers, no adder after them (timing, issue 13)
        Vec<UInt> count = reg(Vec.of(vcs, i -> uint(cw))).named("count");
        Vec<UInt> countUp = reg(Vec.of(vcs, i -> uint(cw))).named("count_up");
        Vec<UInt> countDown = reg(Vec.of(vcs, i -> uint(cw))).named("count_down");
        for (int v = 0; v < vcs; v++) {
            count.get(v).init(0);
            countUp.get(v).init(1);
            countDown.get(v).init((1L << cw) - 1);
        }
        for (UInt h : head) {
            h.init(0);
        }
        for (UInt t : tail) {
            t.init(0);
        }

        // ---- clear sweep ------------------------------------------------------------------
        ClearSweep sweep = new ClearSweep("clear_idx", "clearing", queues);
        UInt clearIdx = sweep.index;
        Bool clearing = sweep.active;
        initDone.set(clearing.not());
        ev.ready.set(clearing.not());

        // ---- events: read-modify-write of the queue's state, maybe append to its list -------
        Bool evFire = ev.fire().named("ev_fire");
        UInt evQueue = ev.payload.queue;
        UInt evDest = evQueue.shr(vw).resize(xw).named("ev_dest");
        UInt evVc = vcOf(evQueue, vw);
        SchedState cur = state.readAsync(evQueue).named("cur_state");
        Bool hasData = cur.hasData;
        UInt mode = cur.mode;
        Bool isIdle = mode.eq(IDLE);
        Bool isActive = mode.eq(ACTIVE);
        Bool isParked = mode.eq(PARKED);
        UInt kind = ev.payload.kind;

        SchedState written = wire("new_state", new SchedState());
        Bool enqueue = wire("enqueue", bool());
        assignLeaves(written, cur);
        enqueue.set(false);
        switchOn(kind, s -> s
                .is(SchedEvent.KIND_NON_EMPTY, () -> {
                    written.hasData.set(true);
                    when(isIdle, () -> {
                        written.mode.set(ACTIVE);
                        enqueue.set(true);
                    });
                })
                .is(SchedEvent.KIND_EMPTY, () -> written.hasData.set(false))
                .is(SchedEvent.KIND_DONE, () -> {
                    when(hasData.not(), () -> written.mode.set(IDLE))
                            .elseWhen(ev.payload.eligible, () -> enqueue.set(true))
                            .otherwise(() -> written.mode.set(PARKED));
                })
                .otherwise(() -> when(isParked, () -> {
                    when(hasData, () -> {
                        written.mode.set(ACTIVE);
                        enqueue.set(true);
                    }).otherwise(() -> written.mode.set(IDLE));
                })));
        // the sweep writes every queue idle and empty
        when(clearing, () -> {
            written.hasData.set(false);
            written.mode.set(IDLE);
        });

        UInt clearAddr = clearIdx.resize(qw).named("clear_addr");
        state.write(mux(clearing, clearAddr, evQueue), written, clearing.or(evFire));

        // ---- selection into the grant stage ----------------------------------------------
        // count != 0 per VC, kept in a register beside the count: the selection starts from flip-flops
        Bits nonEmpty = reg("non_empty", bits(vcs)).init(0);
        Arbiter arb = instance("vc_arbiter", () -> new Arbiter(vcs, ArbiterPolicy.ROUND_ROBIN));
        Bits eligible = nonEmpty.and(pause.not()).named("eligible");
        arb.request.set(eligible);
        // the arbiter grants whenever a VC asks: the OR of the requests, two LUTs from flip-flops,
        // not of the grant (four levels through the round robin, in front of the bypass and the
        // list counts: timing, issue 13)
        Bool anyEligible = eligible.orR().named("any_eligible");
        UInt selVc = vcs == 1 ? U(0, 1) : arb.grantIndex;

        Bool outValid = reg("out_valid", bool()).init(false);
        UInt outQueue = reg("out_queue", uint(qw));
        Bool stageFree = outValid.not().or(grant.ready).named("stage_free");
        Bool load = stageFree.and(anyEligible).named("load");
        arb.advance.set(load);
        List<UInt> heads = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            heads.add(lists.get(v).readAsync(head.get(v)).named("head_dest_" + v));
        }
        UInt headDest = (vcs == 1 ? heads.get(0) : Vec.of(heads).get(selVc)).named("head_dest");
        // Bypass: when no list can be served, a queue entering its list (VC not paused) goes
        // straight into the free grant stage instead; it would have been the next pick anyway.
        Bool evPaused = (vcs == 1 ? pause.bit(0) : pause.bit(evVc)).named("ev_vc_paused");
        Bool bypass = stageFree.andNot(anyEligible).and(evFire).and(enqueue).andNot(evPaused).named("bypass");
        when(stageFree, () -> outValid.set(anyEligible.or(bypass)));
        when(load, () -> outQueue.set(queueOf(headDest, selVc, vcs, qw)))
                .elseWhen(bypass, () -> outQueue.set(evQueue));
        grant.valid.set(outValid);
        grant.payload.set(outQueue);

        // append = an enqueue that does not bypass; what decides besides enqueue (the state RAM's
        // read, late) comes from registers, so each list's push is one LUT after enqueue
        Bool appendOk = evFire.andNot(stageFree.andNot(anyEligible).andNot(evPaused)).named("append_ok");
        List<Bool> nonEmptyNext = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            Bool pop = load.and(selVc.eq(v));
            Bool push = enqueue.and(appendOk.and(evVc.eq(v)).named("append_ok_" + v)).named("push_" + v);
            lists.get(v).write(tail.get(v), evDest, push);
            UInt h = head.get(v);
            UInt t = tail.get(v);
            UInt c = count.get(v);
            UInt up = countUp.get(v);
            UInt down = countDown.get(v);
            when(pop, () -> h.set(wrap(h, xpus)));
            when(push, () -> t.set(wrap(t, xpus)));
            when(push.andNot(pop), () -> {
                c.set(up);
                up.set(up.add(1));
                down.set(c);
            }).elseWhen(pop.andNot(push), () -> {
                c.set(down);
                up.set(c);
                down.set(down.sub(1));
            });
            nonEmptyNext.add(push.or(c.gt(1)).or(c.eq(1).andNot(pop)));
            assertThat(push.andNot(pop).not().or(c.ne(xpus)), "active list overflow");
        }

        nonEmpty.set(OneHot.fromBools(nonEmptyNext));

        // ---- checks ------------------------------------------------------------------------
        assertThat(evFire.and(kind.eq(SchedEvent.KIND_NON_EMPTY)).not().or(hasData.not()),
                "NON_EMPTY for a queue that has data");
        assertThat(evFire.and(kind.eq(SchedEvent.KIND_EMPTY)).not().or(hasData), "EMPTY for a queue without data");
        assertThat(evFire.and(kind.eq(SchedEvent.KIND_DONE)).not().or(isActive), "DONE for a queue not in service");
        assertThat(evFire.not().or(mode.ne(3)), "corrupt queue state");
        if (!isPowerOfTwo(queues)) {
            assertThat(evFire.not().or(evQueue.lt(queues)), "queue id >= xpus * vcs");
        }
        grant.assertProtocol("grant", true);
    }

    private static UInt vcOf(UInt queue, int vw) {
        return vw == 0 ? U(0, 1) : queue.low(vw);
    }

    private static UInt queueOf(UInt dest, UInt vc, int vcs, int qw) {
        return (vcs == 1 ? dest : cat(dest, vc).asUInt()).resize(qw);
    }

    private static UInt wrap(UInt ptr, int size) {
        return isPowerOfTwo(size) ? ptr.add(1) : mux(ptr.eq(size - 1), U(0, ptr.width()), ptr.add(1));
    }
}
