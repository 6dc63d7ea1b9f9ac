// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.stream.StreamForwardRegister;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.rtl.pdu.PduBeats;
import java.math.BigInteger;

/**
 * The queue manager's list engine (a stage of {@link TxQueueManager}): everything between a
 * closed PDU and the reader's prefetch FIFO. Appends of closed PDUs (close FIFO) and pops of
 * granted queues share the command port of {@link QueueLists}; the list events, the DONE events
 * and the window wake-ups are merged (in that priority) and registered into
 * {@link ActiveScheduler}; a granted queue is popped when its destination's window is open (parked
 * otherwise: the take is decided from registers, the window bit only picks pop or park) and the
 * popped PDU's info is read from {@code pdu_info} into the prefetch FIFO.
 */
final class ListEngine {
    /** Open windows, one bit per destination (all open after reset). */
    final Bits winOpen;
    /** A window changes this cycle (destination {@link #winEventDest}, opens or closes). */
    private final Bool winEvent;
    private final UInt winEventDest;
    private final Bool winEventOpen;
    /** PDUs in the lists (appended, not popped). */
    final UInt listPdus;
    /** Popped PDUs waiting for the reader. */
    final StreamFifo<TxQueueManager.PrefetchEntry> prefetch;
    /** Pops issued whose PDU info is not yet in the prefetch FIFO. */
    final UInt inflight;
    /** A popped PDU's info is read this cycle (it enters the prefetch FIFO). */
    final Bool infoValid;
    final UInt infoQ;
    /** The PDU popped was its queue's last closed one. */
    final Bool infoLastOfQueue;
    final TxQueueManager.PduInfo infoRd;
    /** Set by the reader: the flush of the PDU entering the prefetch FIFO is sent now, at its pop. */
    final Bool flushAtPop;

    ListEngine(QueueGeometry g, QueueLists lists, ActiveScheduler sched, StreamFifo<ClosedPdu> closeFifo,
            StreamFifo<UInt> flushFifo, Mem<TxQueueManager.PduInfo> pduInfo, Flow<TxQueueManager.Window> win,
            Bool initDone) {
        final int xpus = g.xpus();
        final int vcs = g.vcs();
        final int vw = g.vw();
        final int xw = g.xw();
        final int qw = g.qw();
        final int cw = g.cw();

        // ---- command port: appends (closes) and grants alternate under contention ------------
        // Whether the grant takes the port (take_grant) comes from registers only; its window bit,
        // a wide multiplexer, decides only between a pop and a park after it, so the scheduler's
        // stage (grant.ready) and the appends never wait for it (timing, issue 13). A parked grant
        // takes the port's slot for nothing.
        Bool grantTurn = reg("grant_turn", bool()).init(false);
        Bool takeGrant = wire("take_grant", bool());
        Bool grantWin = wire("grant_win", bool());
        Bool appendReq = closeFifo.m.valid.and(initDone);
        Bool doPop = takeGrant.and(grantWin).named("do_pop");
        Bool doPark = takeGrant.andNot(grantWin).named("do_park");
        Bool doAppend = appendReq.andNot(takeGrant).and(lists.cmd.ready).named("do_append");
        // a park's DONE event waits here for a cycle without a pop response (the DONE FIFO takes
        // one event per cycle); no grant is taken meanwhile
        Bool parkHeld = reg("park_held", bool()).init(false);
        UInt parkQ = reg("park_q", uint(qw)).init(0);
        when(takeGrant.or(doAppend), () -> grantTurn.set(doAppend));
        listPdus = reg("list_pdus", uint(cw + 1)).init(0);
        when(doAppend, () -> listPdus.set(listPdus.add(1)))
                .elseWhen(doPop, () -> listPdus.set(listPdus.sub(1)));
        closeFifo.m.ready.set(doAppend);
        UInt grantQ = sched.grant.payload;
        lists.cmd.valid.set(doPop.or(doAppend));
        lists.cmd.payload.op.set(mux(takeGrant, U(QueueCmd.OP_POP, 2), U(QueueCmd.OP_APPEND, 2)));
        lists.cmd.payload.queue.set(mux(takeGrant, grantQ, closeFifo.m.payload.queue));
        lists.cmd.payload.cell.set(closeFifo.m.payload.cell);

        // ---- windows --------------------------------------------------------------------------
        winOpen = reg("win_state", bits(xpus)).init(BigInteger.ONE.shiftLeft(xpus).subtract(BigInteger.ONE));
        Bool winInRange = xpus == 1024 ? TRUE : win.payload.dest.lt(xpus);
        UInt winDest = win.payload.dest.resize(xw);
        Bool wasOpen = winOpen.bit(winDest);
        Bits winSel = OneHot.decode(winDest, xpus);
        winEvent = win.valid.and(winInRange).named("win_event");
        winEventDest = winDest;
        winEventOpen = win.payload.open;
        when(winEvent, () -> winOpen.set(mux(win.payload.open, winOpen.or(winSel),
                winOpen.and(winSel.not()))));
        // a window that opens wakes its queues from the next cycle (the bit select is a wide
        // multiplexer: registered before the wake FIFO's push)
        Bool wakeNew = reg("wake_new", bool()).init(false);
        UInt wakeNewDest = reg("wake_new_dest", uint(xw)).init(0);
        wakeNew.set(win.valid.and(winInRange).and(win.payload.open).andNot(wasOpen));
        wakeNewDest.set(winDest);
        StreamFifo<UInt> wakeFifo = instance("wake_fifo",
                () -> new StreamFifo<>(() -> uint(xw), 8, FifoStorage.REGISTERS, 8));
        wakeFifo.s.valid.set(wakeNew);
        wakeFifo.s.payload.set(wakeNewDest);
        assertThat(wakeFifo.s.valid.not().or(wakeFifo.s.ready), "window wake-up FIFO overflow");

        // ---- scheduler events: list events > DONE FIFO > wake-ups ----------------------------
        // The merged event is registered before the scheduler (its state read -> enqueue -> list
        // update is a path of its own): a grant comes one cycle later than the scheduler alone
        // would give it, hidden behind the prefetched work except on an idle system, where the
        // idle bypass serves the PDU without the scheduler.
        StreamForwardRegister<SchedEvent> evStage = instance("sched_ev_stage",
                () -> new StreamForwardRegister<>(() -> new SchedEvent(qw)));
        sched.ev.connectFrom(evStage.m);
        Stream<SchedEvent> schedEv = evStage.s;
        StreamFifo<DoneEvent> doneFifo = instance("done_fifo",
                () -> new StreamFifo<>(() -> new DoneEvent(qw), 10, FifoStorage.REGISTERS, 10));
        QueueRsp rsp = lists.rsp.payload;
        Bool listEv = lists.rsp.valid.and(rsp.becameNonEmpty.or(rsp.becameEmpty)).named("list_ev");
        UInt wakeVc = vcs == 1 ? U(0, 1) : reg("wake_vc", uint(vw)).init(0);
        Bool useDone = listEv.not().and(doneFifo.m.valid);
        // (a wake-up waits for a held park: it may be the one that ends that park)
        Bool useWake = listEv.not().andNot(doneFifo.m.valid).andNot(parkHeld).and(wakeFifo.m.valid);
        schedEv.valid.set(listEv.or(doneFifo.m.valid).or(wakeFifo.m.valid));
        schedEv.payload.kind.set(mux(listEv, mux(rsp.becameNonEmpty, U(SchedEvent.KIND_NON_EMPTY, 2),
                U(SchedEvent.KIND_EMPTY, 2)), mux(useDone, U(SchedEvent.KIND_DONE, 2), U(SchedEvent.KIND_WAKE, 2))));
        UInt wakeQ = g.queueOf(wakeFifo.m.payload, wakeVc.resize(2));
        schedEv.payload.queue.set(mux(listEv, rsp.queue, mux(useDone, doneFifo.m.payload.queue, wakeQ)));
        schedEv.payload.eligible.set(doneFifo.m.payload.eligible);
        doneFifo.m.ready.set(useDone.and(schedEv.ready));
        Bool wakeStep = useWake.and(schedEv.ready);
        Bool wakeEnd = vcs == 1 ? TRUE : wakeVc.eq(vcs - 1);
        wakeFifo.m.ready.set(wakeStep.and(wakeEnd));
        if (vcs > 1) {
            when(wakeStep, () -> wakeVc.set(mux(wakeEnd, U(0, vw), wakeVc.add(1))));
        }
        assertThat(listEv.not().or(schedEv.ready), "scheduler not ready for a list event");

        // ---- grant -> pop -> PDU info -> prefetch FIFO ---------------------------------------
        prefetch = instance("prefetch",
                () -> new StreamFifo<>(() -> new TxQueueManager.PrefetchEntry(qw, cw), 8, FifoStorage.REGISTERS, 8));
        StreamFifo<TxQueueManager.PrefetchEntry> pf = prefetch;
        inflight = reg("pops_in_flight", uint(3)).init(0);
        UInt grantDest = g.destOf(grantQ).named("grant_dest");
        grantWin.set(winOpen.bit(grantDest));
        // Room for one more pop, decided a cycle ahead (registered: off the grant -> pop path) from
        // the levels of the cycle before, which grow by at most 1 (prefetch + pops in flight) or
        // 2 (done FIFO + pops in flight, a pop response or a held park entering the done FIFO;
        // flush FIFO + prefetch + pops in flight: every prefetched PDU may still send one flush)
        // per cycle: prefetch depth 8, done and flush FIFOs 10.
        Bool room = reg("pop_room", bool()).init(false);
        room.set(pf.occupancy.resize(5).add(inflight.resize(5)).le(5)
                .and(doneFifo.occupancy.resize(5).add(inflight.resize(5)).le(6))
                .and(flushFifo.occupancy.resize(5).add(pf.occupancy.resize(5)).add(inflight.resize(5)).le(6)));
        Bool portFree = appendReq.not().or(grantTurn).and(lists.cmd.ready).and(initDone);
        takeGrant.set(sched.grant.valid.and(room).and(portFree).andNot(parkHeld));
        sched.grant.ready.set(takeGrant);
        Bool rspPop = lists.rsp.valid.and(rsp.op.eq(QueueCmd.OP_POP)).named("rsp_pop");
        assertThat(rspPop.not().or(rsp.ok), "pop of an empty PDU list");
        assertThat(lists.rsp.valid.and(rsp.op.eq(QueueCmd.OP_APPEND)).not().or(rsp.ok), "append refused");
        Bool parkDone = parkHeld.andNot(rspPop).named("park_done");
        when(doPark, () -> {
            parkHeld.set(true);
            parkQ.set(grantQ);
        }).elseWhen(parkDone, () -> parkHeld.set(false));
        UInt rspDest = g.destOf(rsp.queue);
        doneFifo.s.valid.set(parkDone.or(rspPop));
        doneFifo.s.payload.queue.set(mux(rspPop, rsp.queue, parkQ));
        doneFifo.s.payload.eligible.set(rspPop.and(winOpen.bit(rspDest)));
        infoRd = pduInfo.readSync(rsp.cell).named("info_rd");
        infoValid = reg("info_valid", bool()).init(false);
        UInt infoCell = reg("info_cell", uint(cw)).init(0);
        infoQ = reg("info_q", uint(qw)).init(0);
        infoLastOfQueue = reg("info_last_of_queue", bool()).init(false);
        infoValid.set(rspPop);
        infoCell.set(rsp.cell);
        infoQ.set(rsp.queue);
        infoLastOfQueue.set(rsp.becameEmpty);
        pf.s.valid.set(infoValid);
        flushAtPop = wire("flush_at_pop", bool());
        pf.s.payload.lastOfQueue.set(infoLastOfQueue.andNot(flushAtPop));
        pf.s.payload.queue.set(infoQ);
        pf.s.payload.cell.set(infoCell);
        assignLeaves(pf.s.payload.info, infoRd);
        pf.s.payload.oneBeat.set(PduBeats.one(infoRd.len, g.bytes()));
        pf.s.payload.twoBeats.set(PduBeats.two(infoRd.len, g.bytes()));
        // Counted from the grant taken, a park included, whose count goes a cycle later
        // (parked_q): the window bit (a 1024:1 select) then chooses only between a pop and a park,
        // and no counter waits for it (do_pop -> pops_in_flight was 8.25 levels in the whole
        // endpoint). A park thus counts as a pop for a cycle: room is then conservative.
        Bool parkedQ = reg("parked_q", bool()).init(false);
        parkedQ.set(doPark);
        inflight.set(inflight.add(takeGrant.asUInt().resize(3)).sub(infoValid.asUInt().resize(3))
                .sub(parkedQ.asUInt().resize(3)));
    }

    /**
     * Whether the window of {@code dest} is open from the next cycle on (this cycle's window
     * event included): the value to register beside a destination register.
     */
    Bool openNext(UInt dest) {
        return mux(winEvent.and(winEventDest.eq(dest)), winEventOpen, winOpen.bit(dest));
    }
}
