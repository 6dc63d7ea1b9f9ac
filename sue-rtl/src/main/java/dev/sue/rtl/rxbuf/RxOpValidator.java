// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.LutAdder;
import dev.sue.hdl.lib.util.LutCompare;
import java.util.List;

/**
 * The op validator ("walker") of {@link RxDeliver}: visits stored PDUs in arrival order and
 * checks their ops, one op header per cycle (the end of its lane in the op map,
 * {@link RxOpMap}: the next op's position), before any op is delivered (a malformed op anywhere
 * drops the whole PDU). While it has caught up it follows the PDU streaming in ("live"), one cycle behind the input
 * ({@link RxWrittenBeat}): a header in that beat is read from its register, an older one from RAM
 * port V (every word it can need is written by then: no bypass); the verdict then leaves in the
 * cycle after the last beat: at once into an empty VC queue's head register ({@link RxVcQueue},
 * which needs no count for it), else registered before the VC queue (the end-of-walk decision
 * comes after the lane pick and its compare, too late for a queue's count in the same cycle).
 * PDUs completed while it is busy wait in the descriptor queue ({@code pdu_fifo}, an
 * {@link RxDescQueue}: its register front keeps the walker's late pop off the RAM FIFO's count)
 * and are walked from port V. Rules: DESIGN-RX.md, "Walk rules".
 */
final class RxOpValidator {
    /** A verdict now (late: after the lane pick), {@link #verdictNow}; its VC's queue may take it at once. */
    final Bool pushNow;
    final RxPduDesc verdictNow;
    /**
     * Set by the owner, from registers: the queue of {@link #verdictNow}'s VC takes a verdict at
     * once this cycle ({@link RxVcQueue#directOk}).
     */
    final Bool directOk = wire("verdict_direct_ok", bool());
    /** A registered verdict this cycle (one its queue did not take at once): {@link #verdict} goes to its VC's queue. */
    final Bool push;
    /** The PDU judged: {@code bad} set when an op is malformed. */
    final RxPduDesc verdict;
    /** A malformed PDU was judged in the cycle before (registered, for the counter). */
    final Bool badJudged;
    private final int wordBits;

    RxOpValidator(RxBuffer buf, RxWrittenBeat in) {
        wordBits = buf.wb;
        final int vcs = buf.vcs;
        final int w = buf.w;
        final int wb = buf.wb;
        final int lb = buf.lb;
        final UInt vIn = in.vc;
        final UInt inStart = in.start.resize(wb);
        final UInt nEff = in.n;
        final Bool wen = in.wen;
        final Bool store = in.store;
        final Bool lastIn = in.last;
        final Bool inValid = in.valid;
        // the walker: one op header per cycle, from the input beat or port V (below)
        WalkerState walker = reg("w", new WalkerState(wb));
        walker.init();
        Bool wRd = reg("w_rd", bool()).init(false);
        // ==== stored PDUs the walker has not reached yet (global arrival order) ====
        // The walker follows the input ("live") while it has caught up; a PDU completed while
        // it is still busy with an older one waits here with its descriptor.
        // a queue with a register front: the walker's late pop (when a walk ends) meets a 2-bit
        // count, not the RAM FIFO's pointers and count
        RxDescQueue stored = instance("pdu_fifo", () -> new RxDescQueue(wb, vcs * w));
        Bool fifoPush = store.andNot(walker.live).named("fifo_push");
        stored.s.valid.set(fifoPush);
        stored.s.payload.vc.set(vIn);
        stored.s.payload.start.set(inStart);
        stored.s.payload.length.set(in.length);
        stored.s.payload.words.set(buf.words(in.length));
        stored.s.payload.reachUnits.set(RxCodeBounds.reachUnits(in.length));
        stored.s.payload.lastOp.set(U(0, 14)); // the verdict's, found by the walk
        stored.s.payload.src.set(in.src);
        stored.s.payload.bad.set(FALSE);

        // ==== validator ("walker"): one op header per cycle, from the input beat or port V ====
        UInt liveVcQ = reg("live_vc", uint(2)).init(0);
        UInt liveStartQ = reg("live_start", uint(wb)).init(0);
        when(inValid, () -> {
            liveVcQ.set(vIn);
            liveStartQ.set(inStart);
        });
        UInt liveVc = mux(inValid, vIn, liveVcQ).named("live_vc_now");
        UInt liveStart = mux(inValid, inStart, liveStartQ).named("live_start_now");
        UInt curVc = mux(walker.stored, walker.vc, liveVc).named("w_cur_vc");
        // the walked PDU's start word, registered (the stored PDU's or the live one's, set a cycle
        // ahead below): the lanes' ring-word adders start from a register
        UInt curStart = reg("w_cur_start", uint(wb)).init(0);
        assertThat(curStart.eq(mux(walker.stored, walker.start, liveStart)),
                "w_cur_start differs from the walked PDU's start");
        Bool lastNow = walker.live.and(lastIn).named("w_last_now");
        Bool lenKnown = walker.stored.or(lastNow);
        UInt curLen = walker.len.resize(14);

        UInt vAddr = wire("v_addr", uint(buf.mapAw));
        Bool vIssue = wire("v_issue", bool());
        Bits vRam = buf.opMap.readSync(vAddr, vIssue).named("v_ram");
        Bool inHere = walker.live.and(wen).andNot(wRd).and(walker.pos.shr(lb).eq(nEff.resize(14))).named("w_in_here");
        Bool hdrAvail = wRd.or(inHere).andNot(walker.stop).named("w_hdr_avail");
        // the header's word is port V's (wRd) or the input beat's: one indexed read over both
        UInt laneIdx = cat(wRd, walker.pos.resize(lb).shr(1).resize(lb - 1)).asUInt().named("w_lane_idx");
        RxOpMap.Lane vLane = RxOpMap.pick("v_lane", List.of(in.map, vRam), laneIdx);
        Bool atEnd = lenKnown.andNot(LutCompare.less(walker.pos, curLen)).named("w_at_end");
        // Depth: the walk's decisions on the op are one bit each, picked by the lane index from
        // tests made on every lane of both words against bounds fixed per PDU (registers): the
        // lane's end (PDU units) against (len - 1) / 2 (reaches the end: the walk ends), len / 2
        // (runs past it: malformed) and the live PDU's written words (its next op is readable).
        // So no compare follows the pick (a 64:1 lane pick mapped in 4-5 LUTs, and the compare
        // and what follows it in 3-5 more: 9.25-10.25 levels in the sixth round).
        UInt passCur = walker.len.shr(1).resize(12).named("w_pass");
        UInt nWritten = in.written;
        final int endWordBits = RxOpMap.END_BITS - (lb - 1);
        Bits endsAt = perLane("w_ends_at", in.map, vRam, l -> RxCodeBounds.reaches(l, walker.reach));
        Bits badAt = perLane("w_bad_at", in.map, vRam, l -> RxCodeBounds.malformed(l, passCur));
        Bits readableAt = perLane("w_readable_at", in.map, vRam,
                l -> LutCompare.less(l.end.shr(lb - 1).resize(endWordBits), nWritten));
        Bool hdrStops = hdrAvail.and(vLane.stop).named("w_hdr_stops");
        // Depth: the walk ends on the header (a stop, or the op reaching the end) comes last, after
        // the pick; every decision on it (the verdict, the walker's next PDU, the descriptor
        // queue's pop) is computed for both outcomes from registers and picked by it
        Bool hdrEnds = RxOpMap.pickBit("w_hdr_ends", endsAt, laneIdx);
        Bool judging = walker.stored.or(lastNow);
        Bool doneAnyway = judging.and(atEnd.or(walker.stop)).named("w_done_anyway");
        Bool doneIfEnds = judging.and(atEnd.or(walker.stop).or(hdrAvail)).named("w_done_if_ends");
        Bool vBad = mux(atEnd, walker.pos.gt(curLen),
                mux(walker.stop, walker.bad, RxOpMap.pickBit("w_hdr_bad", badAt, laneIdx))).named("v_bad");
        // a stop lane's end is its own position: the walk stays on it
        UInt posNext = mux(hdrAvail, cat(vLane.end, B(0, 1)).asUInt().resize(14), walker.pos).named("w_pos_next");
        Bool stopNow = walker.live.andNot(lastNow).and(hdrStops).named("w_stop_now");
        // the position of the op the walker last moved past: when the walk meets the PDU's end
        // there (w_at_end), that op is its last (RxPduDesc#lastOp)
        UInt passedOp = reg("w_passed_op", uint(14)).init(0);
        when(hdrAvail.andNot(vLane.stop), () -> passedOp.set(walker.pos));
        // verdicts leave at once to the VC queues (live: in the cycle of the last beat)
        Bool pushing = walker.stored.or(store);
        Bool vPush = mux(hdrEnds, doneIfEnds.and(pushing), doneAnyway.and(pushing)).named("v_push");
        UInt vOutVc = mux(walker.stored, walker.vc, vIn);

        // what the walker does next cycle: worked out for both outcomes of the end test, each from
        // registers and the lane picks, and picked by w_hdr_ends last (Depth: with the choice
        // of port V's address and of the walker's registers after it, the whole endpoint mapped
        // w_reach -> w_ends_at -> pick -> w_load -> v_idx in 9.5 levels)
        Bool idleNow = walker.stored.not().and(walker.live.not());
        Bool goLiveOk = stored.m.valid.not().and(stored.empty).andNot(fifoPush);
        Bool contLive = walker.live.andNot(lastNow).andNot(walker.stop).andNot(stopNow);
        // The live PDU's words in the RAM are nEff + wen; the next position is readable when its
        // word is below that (the picked lane test; the current word's from registers)
        Bool stayReadable = LutCompare.less(walker.pos.shr(lb), nWritten).named("w_stay_readable");
        Bool nextReadable = RxOpMap.pickBit("w_next_readable", readableAt, laneIdx);
        Bool liveReadable = mux(hdrAvail, nextReadable, stayReadable);
        // the ring word of the next position: the PDU's start plus the picked end's word. Depth:
        // an add from gates (LutAdder), so the mapper balances pick and add as one cone. With
        // `+` the whole endpoint mapped pick -> adder -> port V's address in 9.75 levels (512
        // bits); with one `+` per lane before the pick, yosys' opt_share merged the adders (they
        // share the start) by moving part of the pick in front of one adder, and the logic after
        // the carry chain grew to the design's bound: 8.5 levels at 256 bits
        UInt endRingWord = LutAdder.sum(curStart, vLane.end.shr(lb - 1).resize(wb)).named("w_end_ring_word");
        UInt stayRingWord = curStart.add(walker.pos.shr(lb).resize(wb)).named("w_stay_ring_word");
        WalkStep ifEnds = new WalkStep("_if_ends", doneIfEnds, walker.stored.and(doneIfEnds).or(idleNow));
        WalkStep anyway = new WalkStep("_anyway", doneAnyway, walker.stored.and(doneAnyway).or(idleNow));
        for (WalkStep step : List.of(ifEnds, anyway)) {
            step.load.set(step.selecting.and(stored.m.valid));
            Bool contStored = walker.stored.andNot(step.done);
            Bool contConv = lastNow.and(store).andNot(step.done);
            Bool readMore = contStored.or(contConv).or(contLive.and(liveReadable));
            step.issue.set(step.load.or(readMore));
            step.rdVc.set(mux(step.load, stored.m.payload.vc, curVc));
            // Depth: the picked ring word meets one choice made from registers (it or the other
            // word), so one LUT follows the pick with w_hdr_ends (through hdr_avail then the load
            // choice, three 2:1 muxes followed it: 8.25 levels in the whole endpoint at 512 bits)
            Bool useEnd = hdrAvail.andNot(step.load);
            UInt otherIdx = mux(step.load, stored.m.payload.start, stayRingWord);
            step.rdIdx.set(mux(useEnd, endRingWord, otherIdx));
            step.next.pos.set(posNext);
            step.next.stop.set(walker.stop);
            step.next.bad.set(walker.bad);
            step.next.stored.set(walker.stored);
            step.next.live.set(walker.live);
            step.take(walker.vc, walker.start, in.nextLength, in.nextReach, walker.src);
            when(walker.stored.or(walker.live.not()), () -> {
                when(step.selecting, () -> {
                    step.restart();
                    step.next.stored.set(step.load);
                    step.next.live.set(step.selecting.and(goLiveOk));
                    when(step.load, () -> step.take(stored.m.payload.vc, stored.m.payload.start,
                            stored.m.payload.length, stored.m.payload.reachUnits, stored.m.payload.src));
                }).otherwise(() -> {
                    step.next.len.set(walker.len);
                    step.next.reach.set(walker.reach);
                });
            }).otherwise(() -> when(lastNow, () -> {
                when(contConv, () -> {
                    step.next.live.set(FALSE);
                    step.next.stored.set(TRUE);
                    step.take(vIn, inStart, walker.len, walker.reach, in.src);
                }).otherwise(() -> {
                    step.restart();
                });
            }).otherwise(() -> when(stopNow, () -> {
                step.next.stop.set(TRUE);
                step.next.bad.set(vLane.invalid);
            })));
        }
        Bool wLoad = mux(hdrEnds, ifEnds.load, anyway.load).named("w_load");
        stored.m.ready.set(wLoad);
        vIssue.set(mux(hdrEnds, ifEnds.issue, anyway.issue));
        vAddr.set(buf.mapAddr(mux(hdrEnds, ifEnds.rdVc, anyway.rdVc), mux(hdrEnds, ifEnds.rdIdx, anyway.rdIdx).named("v_idx")));
        wRd.set(vIssue);
        // Depth: the state takes the outcome by RxBuffer#late, not a mux (w_hdr_ends was 4 LUTs
        // from w_src's clock enable in the whole endpoint)
        UInt walkerNext = RxBuffer.late(hdrEnds, asBits(ifEnds.next).asUInt(), asBits(anyway.next).asUInt());
        assignFromBits(walker, walkerNext.asBits());
        UInt liveStartNext = mux(in.nextValid, in.nextStart.resize(wb), liveStart);
        curStart.set(RxBuffer.late(hdrEnds, mux(ifEnds.next.stored, ifEnds.next.start, liveStartNext),
                mux(anyway.next.stored, anyway.next.start, liveStartNext)));

        // the verdict leaves at once into an empty VC queue's head register (RxVcQueue), else
        // registered: the late end-of-walk decision meets one register, not a queue's counts
        pushNow = vPush;
        Bool pushQ = reg("verdict_push", bool()).init(false);
        // Depth: the queue's consent is chosen by the verdict's VC (registers) before the late
        // push meets it (pushed-and-taken OR'd over the VCs after it put the queues' counts
        // 6 LUTs from here in yosys)
        pushQ.set(vPush.andNot(directOk));
        push = pushQ;
        Bool badQ = reg("verdict_bad_judged", bool()).init(false);
        badQ.set(vPush.and(vBad));
        badJudged = badQ;
        RxPduDesc v = wire("verdict_now", new RxPduDesc(wb));
        v.vc.set(vOutVc);
        v.start.set(mux(walker.stored, walker.start, inStart));
        v.length.set(walker.len);
        v.words.set(buf.words(v.length));
        v.reachUnits.set(walker.reach);
        // the op here reaches the end, or the walk stopped on a PAD here (no op starts at it), or
        // the walk already stands at the end: the op it moved past last
        v.lastOp.set(mux(atEnd, passedOp, walker.pos));
        v.src.set(mux(walker.stored, walker.src, in.src));
        v.bad.set(vBad);
        verdictNow = v;
        verdict = regNext(v).named("verdict");
    }

    /**
     * Where the walker is: the position ({@code pos}, PDU bytes) of the next op header in the PDU
     * it walks, a stop (PAD or invalid type) or malformed op seen, whether the PDU is a stored
     * one ({@code stored}, from the descriptor queue) or the one streaming in ({@code live}),
     * and the stored PDU's descriptor: VC, start word, source. {@code len} and {@code reach}
     * (the length and (length - 1) / 2, RxPduDesc#reachUnits): while live, the input beat's,
     * loaded from the ring's beat a cycle early, so the end tests meet one register, not a
     * choice between the stored and the live PDU's.
     */
    static final class WalkerState extends Bundle {
        final UInt pos = uint(14);
        final Bool stop = bool();
        final Bool bad = bool();
        final Bool stored = bool();
        final Bool live = bool();
        final UInt vc = uint(2);
        final UInt start;
        final UInt len = uint(13);
        final UInt reach = uint(12);
        final UInt src = uint(10);
        private final int wordBits;

        WalkerState(int wordBits) {
            this.wordBits = wordBits;
            start = uint(wordBits);
        }

        /** Reset: live at position 0, nothing seen. */
        void init() {
            pos.init(0);
            stop.init(false);
            bad.init(false);
            stored.init(false);
            live.init(true);
            vc.init(0);
            start.init(0);
            len.init(0);
            reach.init(0);
            src.init(0);
        }

        @Override
        public WalkerState copyType() {
            return new WalkerState(wordBits);
        }
    }

    /**
     * The walker's next state for one outcome of the late end test ({@code w_hdr_ends}): the
     * validator computes one for "the header ends the walk" and one for "it does not", and picks.
     */
    private final class WalkStep {
        final Bool done;
        final Bool selecting;
        final Bool load;
        final Bool issue;
        final UInt rdVc;
        final UInt rdIdx;
        /** The walker's state after this outcome. */
        final WalkerState next;

        WalkStep(String suffix, Bool done, Bool selecting) {
            this.done = done;
            this.selecting = selecting.named("w_selecting" + suffix);
            load = wire("w_load" + suffix, bool());
            issue = wire("v_issue" + suffix, bool());
            rdVc = wire("v_vc" + suffix, uint(2));
            rdIdx = wire("v_idx" + suffix, uint(wordBits));
            next = wire("w_next" + suffix, new WalkerState(wordBits));
        }

        /** The walk goes on with a stored PDU: its descriptor. */
        void take(UInt vc, UInt start, UInt len, UInt reach, UInt src) {
            next.vc.set(vc);
            next.start.set(start);
            next.len.set(len);
            next.reach.set(reach);
            next.src.set(src);
        }

        /** The walk starts over at position 0 of a PDU, with no stop and no fault seen. */
        void restart() {
            next.pos.set(U(0, 14));
            next.stop.set(FALSE);
            next.bad.set(FALSE);
        }
    }

    /** {@code test} of every lane of the input beat's op map (bits 0..) and port V's word (above). */
    private static Bits perLane(String name, Bits inMap, Bits vRam, java.util.function.Function<RxOpMap.Lane, Bool> test) {
        return cat(RxOpMap.perLane(name + "_v", vRam, test), RxOpMap.perLane(name + "_in", inMap, test)).named(name);
    }
}
