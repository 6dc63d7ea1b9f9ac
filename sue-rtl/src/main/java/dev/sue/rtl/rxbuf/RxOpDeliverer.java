// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.LutAdder;
import dev.sue.hdl.lib.util.OneHot;
import java.util.ArrayList;
import java.util.List;

/**
 * The deliverer of {@link RxDeliver}: walks the ops of each VC's validated head PDU again (nothing
 * is kept per op), within the credits the XPU returns, and drives the XPU RX interface. Port H
 * reads the next op's header pair (port M its op map, {@link RxOpMap}) while port D streams the current op's data beats, so ops and
 * beats follow back to back; a command-only op, and beat 0 of a data op whose bytes lie in the
 * header pair, leave straight from the header read. VCs are served round robin; a VC short of
 * credits is left until its credits cover the op it waits for. With nothing to serve, port H
 * keeps reading the first header of the PDU being written (parked), so that PDU's first op
 * leaves in the cycle its verdict reaches the queue head. Rules and timing: DESIGN-RX.md.
 *
 * <p>The parts: {@link VcState} (each VC's op position and credits), {@link HeaderPort} (ports H
 * and M and the walk's registers), {@link DataPort} (port D), {@link HeaderDecode} (the op a header
 * read returned), {@link ActiveOp} (port D's op), {@link Issue} (whether the op goes),
 * {@link OpReadPlan} (its port-D reads and frees), {@link VcPick} (the round robin),
 * {@link NextHeaderRead} (port H's next address), then the registers' next values in each
 * state's {@code step} and the XPU beats ({@link #xpuOutput}).
 */
final class RxOpDeliverer {
    private static final int CW = 12;

    /** An op starts this cycle (counted). */
    final Bool go;
    /** The head PDU is fully delivered (or ends) this cycle (counted). */
    final Bool pduDone;
    /** The XPU RX interface registers. */
    final RxXpuOutput output;
    /** rx_reset_out: registered rx_reset_in (1 after reset). */
    final Bool rxResetOut;

    // The stages are built in the order of the hardware's elaboration: the SV's generated names
    // of unnamed nodes (and_12, ...) are numbered in that order, so a reorder changes the SV.
    RxOpDeliverer(RxBuffer buf, RxRing ring, List<RxVcQueue> ready, Bits rxCredit,
                  Bool rxResetIn, int dataWidth) {
        // ==== deliverer: header port H (walks ops, reads ahead) and data port D ====
        // Depth: the op walk is a loop through port H/M (header and op-map read -> op length ->
        // next header's address). Only the next op's address sits on it: the op's end and type
        // come from the op map (looked up when the beat was written), the credit check drives
        // the read enable (a held read keeps its data), a VC switch address is chosen from
        // registers assuming the PDU ends, and the last-op test is one bit picked from tests of
        // every lane's end against the PDU's bound, a register (h_reach).
        VcState vc = new VcState(buf.vcs);
        HeaderPort h = new HeaderPort(buf);
        DataPort d = new DataPort(buf);
        HeaderDecode op = new HeaderDecode(buf, ring, ready, vc, h);
        ActiveOp act = new ActiveOp(buf);
        Issue issue = new Issue(h, op, act, rxResetIn);
        go = issue.go;
        pduDone = issue.pduDone;
        OpReadPlan plan = new OpReadPlan(buf, h, op, issue);
        VcPick pick = new VcPick(buf.vcs, ready, vc, h, rxResetIn);
        NextHeaderRead next = new NextHeaderRead(buf, ring, ready, vc, h, op, issue, plan, pick);
        h.step(ready, vc, op, issue, pick, next);
        act.step(d, h, op, issue, plan);
        vc.step(ring, ready, rxCredit, rxResetIn, h, op, issue, plan, pick, next, act);
        // ==== XPU RX outputs (registered) ====
        output = xpuOutput(buf, dataWidth, d, h, op, issue, plan, act);
        Bool resetOut = reg("reset_out", bool()).init(true);
        resetOut.set(rxResetIn);
        rxResetOut = resetOut;
    }

    /**
     * Each VC's walk state kept while other VCs are served: the op position in its head PDU, the
     * command and data credits the XPU returned, and the beats a VC short of credits waits for
     * (which the round robin tests before it comes back to the VC).
     */
    private static final class VcState {
        final List<UInt> opos = new ArrayList<>();
        final List<UInt> cmdC = new ArrayList<>();
        final List<UInt> dataC = new ArrayList<>();
        final List<Bool> waitF = new ArrayList<>();
        final List<UInt> need = new ArrayList<>();

        VcState(int vcs) {
            for (int v = 0; v < vcs; v++) {
                opos.add(reg("opos_" + v, uint(14)).init(0));
                cmdC.add(reg("cmd_credits_" + v, uint(CW)).init(0));
                dataC.add(reg("data_credits_" + v, uint(CW)).init(0));
                waitF.add(reg("wait_" + v, bool()).init(false));
                need.add(reg("need_" + v, uint(5)).init(0));
            }
        }

        /** Per-VC updates: op positions, credits, waits, frees, queue pops. */
        void step(RxRing ring, List<RxVcQueue> ready, Bits rxCredit, Bool rxResetIn, HeaderPort h,
                  HeaderDecode op, Issue issue, OpReadPlan plan, VcPick pick, NextHeaderRead next,
                  ActiveOp act) {
            // rx_credit {valid, data, vc[1:0], count - 1[1:0]}, registered as each VC's two increments
            Bool crValid = rxCredit.bit(5).andNot(rxResetIn);
            UInt crCount = rxCredit.slice(1, 0).asUInt().resize(CW + 1).add(1);
            UInt skipVc = pick.idle.index;
            for (int v = 0; v < opos.size(); v++) {
                final int vv = v;
                Bool isH = h.hv.eq(vv);
                when(issue.go.and(isH), () -> opos.get(vv).set(mux(op.lastOp, U(0, 14), op.hNext)))
                        .elseWhen(issue.endNow.and(isH), () -> opos.get(vv).set(U(0, 14)));
                ready.get(v).m.ready.set(issue.pduDone.and(isH).or(next.skip.and(skipVc.eq(vv))));
                // the head PDU, freed when its walk ends now or it is skipped (never both in a cycle:
                // a skip needs an idle header stage), is added last: those decisions come late
                ring.free(v, mux(act.actFreeFire.and(act.actVc.eq(vv)), act.actNw, U(0, act.actNw.bitWidth())),
                        plan.freeDec.and(isH).or(next.skip.and(skipVc.eq(vv))), op.headWords.get(v));
                Bool crHere = crValid.and(rxCredit.slice(3, 2).asUInt().eq(vv));
                UInt addCmd = reg("add_cmd_" + v, uint(CW + 1)).init(0);
                addCmd.set(mux(crHere.andNot(rxCredit.bit(4)), crCount, U(0, CW + 1)));
                UInt addData = reg("add_data_" + v, uint(CW + 1)).init(0);
                addData.set(mux(crHere.and(rxCredit.bit(4)), crCount, U(0, CW + 1)));
                Bool take = issue.go.and(isH);
                cmdC.get(v).set(mux(rxResetIn, U(0, CW), mux(take, satAdd(cmdC.get(v), addCmd, U(1, CW + 1)),
                        satAdd(cmdC.get(v), addCmd, U(0, CW + 1)))));
                UInt dataAdded = satAdd(dataC.get(v), addData);
                dataC.get(v).set(mux(rxResetIn, U(0, CW),
                        mux(take.and(op.hasData), takeBeats(dataAdded, op.lastBeatInv), dataAdded)));
                when(issue.noCredit.and(isH), () -> {
                    waitF.get(vv).set(TRUE);
                    need.get(vv).set(op.beats);
                }).elseWhen(issue.go.and(isH), () -> waitF.get(vv).set(FALSE));
            }
        }
    }

    /**
     * Ports H and M: the header walk's registers (the VC served, the op's position in its PDU,
     * the PDU's start word, the op's ring byte position) and the read of the header's word pair
     * and its op map at the address {@link NextHeaderRead} sets. Both banks are read (bank 0 a
     * word on) so a header that crosses a word boundary comes out of one two-word window.
     */
    private static final class HeaderPort {
        /** Bits of a byte position in a VC's ring. */
        final int pb;
        final Bool hPend;
        final Bool hFresh;
        final UInt hv;
        final UInt hp;
        final UInt hs;
        final UInt hA;
        final UInt hRdVc;
        final UInt hRdPos;
        final UInt hRdPosB;
        final Bool hRdEn;
        final Bits hMap;
        final Bits hWindow;

        HeaderPort(RxBuffer buf) {
            final int lb = buf.lb;
            final int wb = buf.wb;
            pb = wb + lb;
            hPend = reg("h_pend", bool()).init(false);
            hFresh = reg("h_fresh", bool()).init(false);
            hv = reg("hv", uint(2)).init(0);
            hp = reg("hp", uint(14)).init(0);
            hs = reg("hs", uint(wb)).init(0);
            hA = reg("h_abs", uint(pb)).init(0); // ring byte position of hp: hs * B + hp
            hRdVc = wire("h_rd_vc", uint(2));
            hRdPos = wire("h_rd_pos", uint(pb));
            hRdPosB = wire("h_rd_pos_b", uint(pb)); // h_rd_pos + B, chosen among sums of its own
            hRdEn = wire("h_rd_en", bool());
            Bits hr0 = buf.bank0.readSync(buf.bankAddr(hRdVc, hRdPosB.shr(lb).resize(wb)), hRdEn);
            Bits hr1 = buf.bank1.readSync(buf.bankAddr(hRdVc, hRdPos.shr(lb).resize(wb)), hRdEn);
            // port M: the op map of the header's word, read with the pair (same address, same enable)
            hMap = buf.opMap.readSync(buf.mapAddr(hRdVc, hRdPos.shr(lb).resize(wb)), hRdEn).named("h_map");
            hFresh.set(hRdEn);
            Bool hPar = hA.bit(lb);
            hWindow = cat(mux(hPar, hr0, hr1), mux(hPar, hr1, hr0)).named("h_window");
        }

        /**
         * The header state after this cycle: the next op of the PDU, the next VC's head or this
         * VC's speculative next PDU when the PDU ends, a re-read, a held read, an idle fetch or
         * skip, or the parked read.
         */
        void step(List<RxVcQueue> ready, VcState vc, HeaderDecode op, Issue issue, VcPick pick,
                  NextHeaderRead next) {
            RoundRobin sw = pick.sw;
            RoundRobin idle = pick.idle;
            UInt rr = pick.rr;
            UInt hLastOp = op.hLastOp;
            Bool hEmpty = op.hEmpty;
            Bool lastOp = op.lastOp;
            // the state after the PDU ends: the next VC's head (fetch_sw) or the speculative next PDU
            // of this VC (spec)
            UInt hvSw = mux(sw.any, sw.index, hv);
            UInt hpSw = mux(sw.any, RxBuffer.sel(vc.opos, sw.index), U(0, 14));
            // the end-test registers of the PDU taken up: a fetched head's own (it stays on the
            // head), the next head's after this VC's pop (a speculative next-PDU read) or on a
            // parked VC (its queue is empty, so whatever loads its head), or on a re-read, the
            // head's as of the next edge
            PduEnds head = new PduEnds();
            PduEnds nextHead = new PduEnds();
            PduEnds held = new PduEnds();
            for (RxVcQueue q : ready) {
                head.add(q.m.payload.reachUnits.bit(11), q.m.payload.lastOp);
                nextHead.add(q.nextEmpty, q.nextLastOp);
                held.add(mux(q.m.valid, q.m.payload.reachUnits.bit(11), q.nextEmpty),
                        mux(q.m.valid, q.m.payload.lastOp, q.nextLastOp));
            }
            Bool emptySw = mux(sw.any, head.empty(sw.index), nextHead.empty(hv)).named("h_empty_sw");
            UInt lastOpSw = mux(sw.any, head.lastOp(sw.index), nextHead.lastOp(hv)).named("h_last_op_sw");
            UInt hsSw = mux(sw.any, selDesc(ready, sw.index, d -> d.start), next.at.specStart);
            UInt hASw = mux(sw.any, RxBuffer.sel(next.at.fetch, sw.index), next.at.spec).named("h_abs_sw");
            Bool pendSw = sw.any.andNot(next.swBad).or(sw.any.not());
            UInt rrSw = mux(sw.any.andNot(next.swBad), sw.index, rr);

            hPend.set(FALSE);
            next.parkRead.set(next.park);
            when(next.reread, () -> {
                hPend.set(TRUE);
                hEmpty.set(held.empty(hv));
                hLastOp.set(held.lastOp(hv));
            }).elseWhen(issue.holdH, () -> hPend.set(TRUE))
                    .elseWhen(issue.go, () -> {
                        // a register that holds unless last_op takes it by RxBuffer#late: with a mux,
                        // last_op went into the registers' clock-enable logic in yosys
                        hv.set(RxBuffer.late(lastOp, hvSw, hv));
                        hp.set(mux(lastOp, hpSw, op.hNext));
                        hEmpty.set(RxBuffer.late(lastOp, emptySw.asUInt(), hEmpty.asUInt()).bit(0));
                        hLastOp.set(RxBuffer.late(lastOp, lastOpSw, hLastOp));
                        hs.set(RxBuffer.late(lastOp, hsSw, hs));
                        hA.set(mux(lastOp, hASw, next.at.cont));
                        hPend.set(lastOp.not().or(pendSw));
                        rr.set(RxBuffer.late(lastOp, rrSw, rr));
                    }).elseWhen(issue.endNow, () -> {
                        hv.set(hvSw);
                        hp.set(hpSw);
                        hEmpty.set(emptySw);
                        hLastOp.set(lastOpSw);
                        hs.set(hsSw);
                        hA.set(hASw);
                        hPend.set(pendSw);
                        rr.set(rrSw);
                    }).elseWhen(next.fetchIdle.or(next.skip), () -> {
                        rr.set(idle.index);
                        hv.set(idle.index);
                        hp.set(RxBuffer.sel(vc.opos, idle.index));
                        hEmpty.set(head.empty(idle.index));
                        hLastOp.set(head.lastOp(idle.index));
                        hs.set(selDesc(ready, idle.index, d -> d.start));
                        hA.set(RxBuffer.sel(next.at.fetch, idle.index));
                        hPend.set(next.fetchIdle);
                    }).elseWhen(next.park, () -> {
                        hv.set(next.parkVc);
                        hp.set(U(0, 14));
                        hEmpty.set(nextHead.empty(next.parkVc));
                        hLastOp.set(nextHead.lastOp(next.parkVc));
                        hs.set(next.parkStart);
                        hA.set(next.at.park);
                        hPend.set(TRUE);
                    });
        }
    }

    /** Per VC, a PDU's end-test values ({@link RxPduDesc}: empty, last op), chosen by a VC index. */
    private static final class PduEnds {
        private final List<UInt> empty = new ArrayList<>();
        private final List<UInt> lastOp = new ArrayList<>();

        void add(Bool isEmpty, UInt last) {
            empty.add(isEmpty.asUInt());
            lastOp.add(last);
        }

        Bool empty(UInt vc) {
            return RxBuffer.sel(empty, vc).bit(0);
        }

        UInt lastOp(UInt vc) {
            return RxBuffer.sel(lastOp, vc);
        }
    }

    /**
     * Port D: the data read of the active op (or of an op issued now), both banks at once (bank 0
     * a word on) so that a beat crossing a word boundary comes out of one two-word window.
     */
    private static final class DataPort {
        final UInt dRdVc;
        final UInt dRdWord;
        /** {@code d_rd_word + 1}, chosen among its own candidates: no adder behind the choice. */
        final UInt dRdWordNext;
        final Bits window;

        DataPort(RxBuffer buf) {
            Bool dPar = reg("d_par", bool()).init(false);
            dRdVc = wire("d_rd_vc", uint(2));
            dRdWord = wire("d_rd_word", uint(buf.wb));
            dRdWordNext = wire("d_rd_word_next", uint(buf.wb));
            // Depth: bank 0's address was d_rd_word + 1, a carry chain after the choice between the
            // active op's word and a new op's first (which the op-map lane picks): 8.75 levels in the
            // whole endpoint at 256 bits (yosys), the chain's output taken as arriving early by ABC
            Bits dr0 = buf.bank0.readSync(buf.bankAddr(dRdVc, dRdWordNext));
            Bits dr1 = buf.bank1.readSync(buf.bankAddr(dRdVc, dRdWord));
            dPar.set(dRdWord.bit(0));
            window = cat(mux(dPar, dr0, dr1), mux(dPar, dr1, dr0)).named("window");
        }
    }

    /**
     * The op port H returned: whether the read is good for the served VC's head PDU (head_ok), its
     * type, control length, beats and end from port M's op-map lane (looked up when the beat was
     * written, so no table sits on the walk), and whether it ends the PDU; plus the served VC's
     * head and credits tested per VC for the credit test.
     */
    private static final class HeaderDecode {
        final List<UInt> headWords = new ArrayList<>();
        final UInt hdSrc;
        final List<UInt> dataMany = new ArrayList<>();
        final List<UInt> dataFew = new ArrayList<>();
        final List<UInt> cmdAny = new ArrayList<>();
        final Bool hStale;
        final Bool headOk;
        final Bits hw;
        final UInt laneIdx;
        final RxOpMap.Lane hLane;
        final UInt hL1;
        final Bool hasData;
        final UInt ctrlLen;
        final UInt ctrl14;
        final UInt lastBeat;
        final UInt beats;
        final UInt readsAfter;
        final UInt lastBeatInv;
        final UInt hNext;
        final UInt hLastOp;
        final Bool hEmpty;
        final Bool pduEnd;
        final Bool lastOp;
        final Bool win0;

        HeaderDecode(RxBuffer buf, RxRing ring, List<RxVcQueue> ready, VcState vc, HeaderPort h) {
            final int nb = buf.nb;
            final int lb = buf.lb;
            final int wb = buf.wb;
            for (int v = 0; v < buf.vcs; v++) {
                headWords.add(ready.get(v).m.payload.words);
            }
            hdSrc = selDesc(ready, h.hv, d -> d.src).named("hd_src");
            // Depth: the served VC's head and credits are tested per VC and only the one-bit results
            // are chosen by hv (choosing whole fields by hv before a compare mapped as 5 LUT levels)
            int lbw = RxOpMap.LAST_BEAT_BITS;
            List<UInt> headMatch = new ArrayList<>();
            for (int v = 0; v < buf.vcs; v++) {
                RxPduDesc d = ready.get(v).m.payload;
                headMatch.add(ready.get(v).m.valid.and(d.start.eq(h.hs)).andNot(d.bad).asUInt().named("head_match_" + v));
                cmdAny.add(vc.cmdC.get(v).ne(0).asUInt());
                dataMany.add(vc.dataC.get(v).slice(CW - 1, lbw).ne(0).asUInt());
                dataFew.add(vc.dataC.get(v).resize(lbw));
            }
            // a header read that met the write of one of its two words on the same edge returned the
            // old word (only a read of a PDU not yet validated, the next-PDU read below): read it again
            Bool wenQ = regNext(ring.wen).named("wen_q");
            UInt vInQ = regNext(ring.vIn).named("v_in_q");
            UInt widxQ = regNext(ring.widx).named("widx_q");
            // the written word and the one before it, both registers: two equality tests on h_abs's
            // word, no adder before them
            UInt widxQm1 = regNext(ring.widx.sub(1)).named("widx_q_minus_one");
            UInt hWordNow = h.hA.shr(lb).resize(wb);
            hStale = h.hPend.and(h.hFresh).and(wenQ).and(vInQ.eq(h.hv)).and(widxQ.eq(hWordNow).or(widxQm1.eq(hWordNow)))
                    .named("h_stale");
            headOk = h.hPend.and(RxBuffer.sel(headMatch, h.hv).bit(0)).andNot(hStale).named("head_ok");
            // the op (control bytes and the data bytes of beat 0): 2-byte lanes from hp on
            hw = RxBuffer.lanes("hdr_lane", h.hWindow, h.hp.resize(lb).shr(1).resize(lb - 1), 9 + nb / 2).named("hdr_window");
            // the op's type, looked up when it was written: no table on the walk
            laneIdx = h.hA.resize(lb).shr(1).resize(lb - 1);
            hLane = RxOpMap.pick("h_lane", h.hMap, laneIdx);
            hL1 = hw.slice(15, 8).asUInt();
            hasData = hLane.dataPresent;
            ctrlLen = hLane.units.resize(5).shl(1).named("ctrl_len");
            ctrl14 = ctrlLen.resize(14);
            // the data beats' count and placement come from the lane too, not from the length byte
            // picked out of the word pair and added to the header's position
            lastBeat = hLane.lastBeat.resize(5).named("last_beat");
            // the op's data beats and the reads left after its issue cycle (OpReadPlan), made on
            // every lane from gates before the pick: as an add after the pick they were a carry
            // chain whose input cone ABC relaxed to its bound (RAM -> 5 LUTs -> chain -> 2 LUTs
            // to act_left, 8.25 levels in the 1024-bit AFH2 endpoint)
            beats = RxOpMap.pickField("h_beats", h.hMap, laneIdx, HeaderDecode::beats).asUInt().resize(5).named("beats");
            readsAfter = RxOpMap.pickField("h_reads_after", h.hMap, laneIdx, HeaderDecode::readsAfter)
                    .asUInt().resize(5).named("reads_after");
            // ~last_beat, inverted on every lane before the pick: the credit adder's operand comes
            // straight from the pick (inverted after it, yosys kept an INV before the carry chain)
            lastBeatInv = RxOpMap.pickField("h_last_beat_inv", h.hMap, laneIdx, l -> l.lastBeat.not().asBits()).asUInt();
            // the next op's position (PDU bytes) is the lane's end: no add after the pick
            hNext = cat(hLane.end, B(0, 1)).asUInt().resize(14).named("h_next");
            // the head PDU's last op (RxPduDesc#lastOp, found by the validator's walk) and whether
            // it is empty, registers loaded whenever the walk takes up a PDU. Depth: the last-op
            // test is the op's position against a register, so no op-map lane is compared or picked
            // for it (a compare on every lane against (len - 1) / 2 and a 64:1 pick put it 6 LUTs
            // from port M at 1024 bits, and what it decides at the whole endpoint's bound)
            hLastOp = reg("h_last_op", uint(14)).init(0);
            hEmpty = reg("h_empty", bool()).init(false);
            // a PDU the validator passed holds only valid types up to its end or a PAD byte; an op
            // continues the walk only below the end, so the walk is at the end only on an empty PDU
            pduEnd = hEmpty.or(RxOpMap.pickBit("lane_pad", RxOpMap.perLane("lane_pad_at", h.hMap, RxOpMap::isPad), laneIdx))
                    .named("pdu_end");
            lastOp = h.hp.eq(hLastOp).named("last_op");
            // beat 0 of a data op comes from the header's own word pair when it lies in it
            win0 = hLane.beat0InPair.named("win0");
        }

        /** The data beats of an op starting on {@code lane} (none for a command): last beat + 1, from gates. */
        private static Bits beats(RxOpMap.Lane lane) {
            int w = RxOpMap.LAST_BEAT_BITS + 1;
            return mux(lane.dataPresent, LutAdder.sum(lane.lastBeat.resize(w), U(1, 1)), U(0, w)).asBits();
        }

        /**
         * The reads a data op starting on {@code lane} needs after its issue cycle: its beats less
         * the first read's index less one (beat 0, and beat 1 when beat 0 lies in the header's pair,
         * go in the issue cycle), as last beat - 1 or the last beat; the decrement from gates.
         */
        private static Bits readsAfter(RxOpMap.Lane lane) {
            int w = RxOpMap.LAST_BEAT_BITS;
            UInt lastLessOne = LutAdder.sum(lane.lastBeat, U((1 << w) - 1, w));
            UInt afterPair = mux(lane.lastBeat.ne(0), lastLessOne, U(0, w));
            return mux(lane.dataPresent, mux(lane.beat0InPair, afterPair, lane.lastBeat), U(0, w)).asBits();
        }
    }

    /**
     * Port D's active data op: its remaining reads, word, beat index and what its beats carry
     * (VC, source, control bytes, rotation, last beat's bytes), and the beat port D returns.
     */
    private static final class ActiveOp {
        final UInt actLeft;
        final UInt actWord;
        // act_word + 1, kept beside it (port D's bank-0 address)
        final UInt actWordNext;
        final UInt actIdx;
        final UInt actVc;
        final UInt actSrc;
        final Bits actCtrl;
        final UInt actRot;
        final UInt actRem;
        final Bool actFree;
        final UInt actNw;
        final Bool dRet;
        final UInt dIdx;
        final Bool dLast;
        final Bool actReading;
        final Bool actFreeFire;

        ActiveOp(RxBuffer buf) {
            actLeft = reg("act_left", uint(5)).init(0);
            actWord = reg("act_word", uint(buf.wb)).init(0);
            actWordNext = reg("act_word_next", uint(buf.wb)).init(1);
            actIdx = reg("act_idx", uint(4)).init(0);
            actVc = reg("act_vc", uint(2)).init(0);
            actSrc = reg("act_src", uint(10)).init(0);
            actCtrl = reg("act_ctrl", bits(144)).init(0);
            actRot = reg("act_rot", uint(buf.lb)).init(0);
            actRem = reg("act_rem", uint(buf.lb)).init(0);
            actFree = reg("act_free", bool()).init(false);
            actNw = reg("act_nw", uint(buf.pw)).init(0);
            dRet = reg("d_ret", bool()).init(false);
            dIdx = reg("d_idx", uint(4)).init(0);
            dLast = reg("d_last", bool()).init(false);
            actReading = actLeft.ne(0).named("act_reading");
            // the active op's last read is issued now and frees its PDU: a register set a cycle ahead,
            // so the ring's free adders start from registers (from act_left's compare they mapped as
            // a chain of 6 LUTs before the adders)
            actFreeFire = reg("act_free_fire", bool()).init(false);
        }

        /** Port D: the active op's beats, or the first data read of an op issued now. */
        void step(DataPort d, HeaderPort h, HeaderDecode op, Issue issue, OpReadPlan plan) {
            d.dRdVc.set(h.hv);
            d.dRdWord.set(plan.dFirst);
            d.dRdWordNext.set(plan.dAfterFirst);
            dRet.set(FALSE);
            Bool goReads = issue.go.and(plan.readsNow.ne(0)).named("go_reads");
            when(actReading, () -> {
                d.dRdVc.set(actVc);
                d.dRdWord.set(actWord);
                d.dRdWordNext.set(actWordNext);
                actWord.set(actWordNext);
                actWordNext.set(actWordNext.add(1));
                actLeft.set(actLeft.sub(1));
                actIdx.set(actIdx.add(1));
                dRet.set(TRUE);
                dIdx.set(actIdx);
                dLast.set(actLeft.eq(1));
            }).elseWhen(goReads, () -> {
                actWord.set(plan.dAfterFirst);
                actWordNext.set(plan.dAfterSecond);
                actLeft.set(op.readsAfter);
                actIdx.set(plan.firstRead.resize(4).add(1));
                dRet.set(TRUE);
                dIdx.set(plan.firstRead.resize(4));
                dLast.set(plan.noReadsAfter);
            });
            assertThat(actWordNext.eq(actWord.add(1)), "act_word_next is not act_word + 1");
            actFreeFire.set(mux(actReading, actLeft.eq(2).and(actFree), goReads.and(op.lastOp).and(plan.oneReadAfter)));
            when(issue.go.and(op.hasData), () -> {
                actVc.set(h.hv);
                actSrc.set(op.hdSrc);
                actCtrl.set(plan.ctrlMasked);
                actRot.set(plan.dataOff.resize(actRot.bitWidth()));
                actRem.set(op.hL1.resize(actRem.bitWidth()));
                actFree.set(op.lastOp.andNot(plan.noReadsAfter));
                actNw.set(plan.nwDec);
            });
        }
    }

    /**
     * Whether the op at the header goes now (`go`: credits, and port D free or not needed), waits
     * for credits, ends the PDU, or holds port H's read until port D is done.
     */
    private static final class Issue {
        final Bool opHere;
        final Bool go;
        final Bool noCredit;
        final Bool endNow;
        final Bool holdH;
        final Bool pduDone;

        Issue(HeaderPort h, HeaderDecode op, ActiveOp act, Bool rxResetIn) {
            // Depth: whether an op may go, and whether the PDU ends here, are tested on every lane of
            // port M's word (PAD, emits from the header while a port-D beat returns), and only the
            // one-bit results are picked by h_abs (RxOpMap.perLane), so the late pick of the whole
            // lane feeds only the credit test. (The credit test and last_op per lane as well put
            // their register side, the served VC's credits or units left, before the pick: deeper.)
            UInt dataFewSel = RxBuffer.sel(op.dataFew, h.hv);
            Bool dataOk = RxBuffer.sel(op.dataMany, h.hv).bit(0).or(dataFewSel.gt(op.hLane.lastBeat));
            Bool issueLane = RxOpMap.pickBit("lane_issue", RxOpMap.perLane("lane_issue_at", h.hMap,
                    l -> l.dataPresent.not().or(l.beat0InPair).and(act.dRet).not()), op.laneIdx);
            Bool cmdCredit = RxBuffer.sel(op.cmdAny, h.hv).bit(0).andNot(rxResetIn);
            Bool canIssue = act.actReading.not().and(issueLane).named("can_issue");
            opHere = op.headOk.andNot(op.pduEnd).named("op_here");
            Bool creditOk = cmdCredit.and(op.hasData.not().or(dataOk)).named("credit_ok");
            go = opHere.and(creditOk).and(canIssue).named("go");
            noCredit = opHere.andNot(creditOk).named("no_credit");
            endNow = op.headOk.and(op.pduEnd).andNot(act.actReading).named("end_now");
            holdH = opHere.and(creditOk).andNot(canIssue).or(op.headOk.and(op.pduEnd).and(act.actReading)).named("hold_h");
            pduDone = endNow.or(go.and(op.lastOp)).named("pdu_done");
        }
    }

    /**
     * What port D reads for an op issued now (its first word, the reads after the issue cycle),
     * whether its PDU is freed now or by port D's last read, and the control bytes and data offset
     * the active op keeps.
     */
    private static final class OpReadPlan {
        final UInt readsNow;
        final Bool noReadsAfter;
        final Bool oneReadAfter;
        final Bool freeDec;
        final UInt nwDec;
        final Bits ctrlMasked;
        final UInt dataOff;
        final UInt firstRead;
        final UInt dFirst;
        final UInt dAfterFirst;
        final UInt dAfterSecond;

        OpReadPlan(RxBuffer buf, HeaderPort h, HeaderDecode op, Issue issue) {
            Bool hasData = op.hasData;
            Bool win0 = op.win0;
            UInt lastBeat = op.lastBeat;
            // data reads this op still needs after its issue cycle (beat 0 and, if in the window, beat 1 go now)
            readsNow = mux(hasData, mux(win0, mux(lastBeat.ne(0), U(1, 5), U(0, 5)), U(1, 5)), U(0, 5));
            // whether it needs none or one: tests on the lane's last-beat index, so the frees and
            // the free pointers' adders do not wait for readsAfter's pick
            UInt lastIdx = op.hLane.lastBeat;
            noReadsAfter = hasData.not().or(mux(win0, lastIdx.le(1), lastIdx.eq(0))).named("no_reads_after");
            oneReadAfter = hasData.and(mux(win0, lastIdx.eq(2), lastIdx.eq(1))).named("one_read_after");
            freeDec = issue.endNow.or(issue.go.and(op.lastOp).and(noReadsAfter)).named("free_dec");
            nwDec = RxBuffer.sel(op.headWords, h.hv);

            ctrlMasked = op.hw.slice(143, 0).and(byteMask(144 / 8, k -> op.ctrlLen.gt(k))).named("ctrl_masked");
            dataOff = h.hp.add(op.ctrl14).named("data_off");
            // the op's first port-D read: the data's word (the header's word hA / B, or the next)
            // plus one when beat 0 leaves from the pair; as that offset is 1 or 2, both candidates
            // (and the word after each) are adds on the register h_abs, the lane only picks
            UInt hWord = h.hA.shr(buf.lb).resize(buf.wb);
            Bool readTwoOn = op.hLane.dataNextWord.and(win0).named("read_two_on");
            firstRead = mux(win0, U(1, 5), U(0, 5)).named("first_read");
            dFirst = mux(readTwoOn, hWord.add(2), hWord.add(1)).named("d_first");
            dAfterFirst = mux(readTwoOn, hWord.add(3), hWord.add(2)).named("d_after_first");
            dAfterSecond = mux(readTwoOn, hWord.add(4), hWord.add(3)).named("d_after_second");
        }
    }

    /**
     * The VCs the header walk may take up next, from registers only: the one picked round robin
     * among VCs whose head is bad or covered by credits when nothing is being walked ("idle"), and
     * the one picked when the current PDU ends ("switch": the current VC excluded, its next PDU is
     * read speculatively when no other VC is eligible).
     */
    private static final class VcPick {
        final UInt rr;
        final RoundRobin idle;
        final RoundRobin sw;

        VcPick(int vcs, List<RxVcQueue> ready, VcState vc, HeaderPort h, Bool rxResetIn) {
            rr = reg("rr", uint(2)).init(0);
            List<Bool> eligIdle = new ArrayList<>();
            List<Bool> eligSw = new ArrayList<>();
            for (int v = 0; v < vcs; v++) {
                RxPduDesc head = ready.get(v).m.payload;
                // the credit test is registered: a cycle late it can only be optimistic just after an
                // op took credits (the header read then finds them short, the VC waits, a lost cycle)
                // or hold a VC back a cycle after its credits came; the queue head counts at once
                Bool creditsFor = reg("credits_for_" + v, bool()).init(false);
                creditsFor.set(vc.cmdC.get(v).ne(0).and(vc.waitF.get(v).not().or(vc.dataC.get(v).ge(vc.need.get(v).resize(CW))))
                        .andNot(rxResetIn));
                // (rx_reset_in is not tested here: a header fetched in its first cycle is harmless, `go`
                // tests it through cmd_credit; from the input through the round robin to port H's
                // address it was 9.25 levels in the whole endpoint)
                Bool e = ready.get(v).m.valid.and(head.bad.or(creditsFor)).named("elig_" + v);
                eligIdle.add(e);
                eligSw.add(e.andNot(h.hv.eq(v)).named("elig_sw_" + v));
            }
            idle = new RoundRobin(eligIdle, rr, "idle");
            sw = new RoundRobin(eligSw, rr, "sw");
        }
    }

    /**
     * Port H's next address and enable: the next op of this PDU, a re-read of a stale header,
     * the switch or idle pick's head, this VC's speculative next PDU, or the parked read of the PDU
     * being written. Each address is chosen among candidates computed from registers, with the late
     * last_op choosing last.
     */
    private static final class NextHeaderRead {
        final Bool parkRead;
        final Bool reread;
        final UInt parkVc;
        final UInt parkStart;
        final Bool park;
        final Bool skip;
        final Bool fetchIdle;
        final ReadPos at;
        final Bool swBad;

        NextHeaderRead(RxBuffer buf, RxRing ring, List<RxVcQueue> ready, VcState vc, HeaderPort h,
                       HeaderDecode op, Issue issue, OpReadPlan plan, VcPick pick) {
            final RoundRobin idle = pick.idle;
            final RoundRobin sw = pick.sw;
            // a stale parked read is not read again: the idle stage parks anew (the target may have moved)
            parkRead = reg("park_read", bool()).init(false);
            reread = op.hStale.andNot(parkRead).named("h_reread");
            Bool walking = h.hPend.and(op.headOk.or(reread));
            Bool idleCase = walking.not().named("idle_case");
            // Latency: with nothing to serve, port H keeps reading the first header of the PDU being
            // written (the last written beat's VC and first word, from registers) as a speculative
            // next-PDU read, so its decode is due the cycle its verdict reaches the VC queue's head
            // instead of a cycle later. Only onto a VC with an empty queue: a head there could be a
            // PDU part delivered (op position not 0) that the read would take for a new one.
            parkVc = reg("park_vc", uint(2)).init(0);
            parkStart = reg("park_start", uint(buf.wb)).init(0);
            when(ring.wen, () -> {
                parkVc.set(ring.vIn);
                parkStart.set(ring.wpSel.resize(buf.wb));
            });
            List<UInt> headValid = new ArrayList<>();
            for (RxVcQueue q : ready) {
                headValid.add(q.m.valid.asUInt());
            }
            park = idleCase.andNot(idle.any).andNot(RxBuffer.sel(headValid, parkVc).bit(0)).named("park");
            skip = idleCase.and(idle.any).and(idle.bad(ready)).named("skip");
            fetchIdle = idleCase.and(idle.any).andNot(idle.bad(ready)).named("fetch_idle");
            // the read position and the same plus one word (bank 0's address), each chosen among
            // candidates that carry their own offset: no adder after the late choice
            at = new ReadPos("", 0, ready, vc.opos, h.hA, h.hs, plan.nwDec, op.hNext, parkStart, buf.lb, h.pb);
            ReadPos atB = new ReadPos("_b", 1, ready, vc.opos, h.hA, h.hs, plan.nwDec, op.hNext, parkStart, buf.lb, h.pb);
            for (ReadPos r : List.of(at, atB)) {
                UInt switchPos = mux(sw.any, RxBuffer.sel(r.fetch, sw.index), r.spec).named("switch_pos" + r.suffix);
                UInt idlePos = mux(idle.any, RxBuffer.sel(r.fetch, idle.index), r.park).named("idle_pos" + r.suffix);
                UInt otherPos = mux(reread, r.cur, mux(walking, switchPos, idlePos)).named("other_pos" + r.suffix);
                // Depth: last_op (after the op-map lane pick) selects last, between values that assume
                // it either way (through sel_cont, before the choice, 8.5 levels at 512 bits)
                (r == at ? h.hRdPos : h.hRdPosB).set(mux(op.lastOp, otherPos, mux(issue.opHere, r.cont, otherPos)));
            }
            UInt otherVc = mux(walking, sw.index, mux(idle.any, idle.index, parkVc));
            UInt vcIfLast = mux(walking.and(sw.any.not().or(reread)), h.hv, otherVc);
            UInt vcIfNotLast = mux(walking.and(sw.any.not().or(issue.opHere).or(reread)), h.hv, otherVc);
            h.hRdVc.set(mux(op.lastOp, vcIfLast, vcIfNotLast));
            // Depth: `last_op` comes after the op-map lane pick and a 12-bit compare, so it only
            // selects data: an op issued (`go`) enables the read and the header state whatever it is,
            // and picks between the continuation and the switch values (both from registers). A
            // switch onto a malformed head reads and loads state needlessly: harmless, h_pend drops
            // and the idle stage skips it next cycle.
            swBad = sw.bad(ready);
            h.hRdEn.set(reread.or(issue.go).or(issue.endNow).or(fetchIdle).or(park));
        }
    }

    /**
     * The beats onto the XPU RX interface: port D's beat rotated to the op's data offset and cut at
     * its last byte, or beat 0 straight from the header's window with the op's control bytes.
     */
    private static RxXpuOutput xpuOutput(RxBuffer buf, int dataWidth, DataPort d, HeaderPort h,
                                         HeaderDecode op, Issue issue, OpReadPlan plan, ActiveOp act) {
        final int nb = buf.nb;
        final int lb = buf.lb;
        Bits dw = RxBuffer.lanes("d_lane", d.window, act.actRot.shr(1).resize(lb - 1), nb / 2);
        Bits dKeep = byteMask(nb, k -> k == 0 ? TRUE : act.dLast.not().or(act.actRem.ge(k)));
        Bits h0 = RxBuffer.lanes("h_beat0_lane", op.hw, op.hLane.units, nb / 2).named("h_beat0");
        // (more than one beat: the lane's last-beat index, not beats = index + 1, so no adder before it)
        Bits h0Keep = byteMask(nb, k -> k == 0 ? TRUE : op.lastBeat.ne(0).or(op.hL1.resize(lb).ge(k)));
        Bool cmdOut = issue.go.andNot(op.hasData).named("cmd_out");
        Bool beat0Out = issue.go.and(op.hasData).and(op.win0).named("beat0_out");
        RxXpuOutput out = new RxXpuOutput(dataWidth);
        out.drive(act.dRet, act.dIdx, act.actVc, act.actSrc, act.actCtrl, dw.and(dKeep),
                cmdOut, beat0Out, h.hv, op.hdSrc, plan.ctrlMasked, h0.and(h0Keep));
        return out;
    }

    private static Bits byteMask(int bytes, java.util.function.IntFunction<Bool> keep) {
        List<Bool> bits = new ArrayList<>();
        for (int k = 0; k < bytes; k++) {
            Bool b = keep.apply(k);
            for (int i = 0; i < 8; i++) {
                bits.add(b);
            }
        }
        return OneHot.fromBools(bits);
    }

    private static UInt selDesc(List<RxVcQueue> qs, UInt idx,
                                java.util.function.Function<RxPduDesc, UInt> f) {
        List<UInt> l = new ArrayList<>();
        for (RxVcQueue q : qs) {
            l.add(f.apply(q.m.payload));
        }
        return RxBuffer.sel(l, idx);
    }

    /** cur + add - take, clamped to the counter's range (a misbehaving XPU cannot wrap it). */
    private static UInt satAdd(UInt cur, UInt add, UInt take) {
        int w = cur.bitWidth();
        return clamp(cur.resize(w + 2).add(add.resize(w + 2)).sub(take.resize(w + 2)), w);
    }

    /**
     * The data credits after an op of lastBeat + 1 beats takes them: {@code added} (the credits
     * plus those returned, clamped, from registers) - (lastBeat + 1), as added + ~lastBeat in the
     * counter's width ({@code lastBeatInv} below ones), so the late lastBeat meets one carry chain
     * and no clamp. It cannot wrap: an op goes only when the credits before the return already
     * cover it (the credit test, `data_ok`), and a return only adds.
     */
    private static UInt takeBeats(UInt added, UInt lastBeatInv) {
        int w = added.bitWidth();
        return added.add(cat(repeat(TRUE, w - lastBeatInv.bitWidth()), lastBeatInv).asUInt());
    }

    /** cur + add, clamped to the counter's range: a carry chain and one OR of its carries out. */
    private static UInt satAdd(UInt cur, UInt add) {
        int w = cur.bitWidth();
        UInt s = cur.resize(w + 2).add(add.resize(w + 2));
        return mux(s.slice(w + 1, w).ne(0), U((1L << w) - 1, w), s.resize(w));
    }

    private static UInt clamp(UInt s, int w) {
        return mux(s.gt((1L << w) - 1), U((1L << w) - 1, w), s.resize(w));
    }

    /**
     * The candidates of the next header read position plus {@code words} words: each VC's fetch
     * position (queue head start, op position), the speculative next PDU (hs + head words), the
     * current position, the continuation (the PDU's start + the op's end) and the parked read (the PDU being
     * written).
     */
    private static final class ReadPos {
        final String suffix;
        final List<UInt> fetch = new ArrayList<>();
        final UInt specStart;
        final UInt spec;
        final UInt cur;
        final UInt cont;
        final UInt park;

        ReadPos(String suffix, int words, List<RxVcQueue> ready, List<UInt> opos, UInt hA, UInt hs,
                UInt nwDec, UInt next, UInt parkStart, int lb, int pb) {
            this.suffix = suffix;
            if (words != 0 && words != 1) {
                throw new IllegalArgumentException("a read position is 0 or 1 words on, not " + words);
            }
            for (int v = 0; v < ready.size(); v++) {
                fetch.add(plus(ready.get(v).m.payload.start, words).resize(pb).shl(lb).add(opos.get(v).resize(pb))
                        .named("fetch_pos" + suffix + "_" + v));
            }
            specStart = plus(hs, words).add(nwDec.resize(hs.bitWidth())).named("spec_start" + suffix);
            spec = specStart.resize(pb).shl(lb);
            cur = plus(hA, words << lb);
            // the next op of this PDU: its start word (hs) plus the lane's end. Depth: the end comes
            // from the op-map lane pick, and a carry chain after it let the pick's cone grow to the
            // design's bound (8.25 levels to port D's address at 256 bits): a gate adder on the word
            // part, the + words as its carry in
            UInt endWord = next.shr(lb).resize(hs.bitWidth());
            UInt contWord = words == 0 ? LutAdder.sum(hs, endWord) : LutAdder.sum(hs, endWord, TRUE);
            cont = cat(contWord.asBits(), next.resize(lb).asBits()).asUInt().named("cont_pos" + suffix);
            park = plus(parkStart, words).resize(pb).shl(lb).named("park_pos" + suffix);
        }

        private static UInt plus(UInt x, int k) {
            return k == 0 ? x : x.add(k);
        }
    }

    /** Round-robin choice among eligible VCs: the lowest eligible VC above {@code rr}, else the lowest. */
    private static final class RoundRobin {
        final Bool any;
        final UInt index;

        RoundRobin(List<Bool> elig, UInt rr, String name) {
            List<Bool> above = new ArrayList<>();
            for (int v = 0; v < elig.size(); v++) {
                above.add(v == 0 ? FALSE : elig.get(v).and(rr.lt(v)));
            }
            Bits e = OneHot.fromBools(elig);
            Bits a = OneHot.fromBools(above);
            // Depth: by gates, not x & -x (a carry chain from hv; 9.25 levels to port H's address)
            Bits pick = mux(a.ne(0), OneHot.lowestSetByGates(a), OneHot.lowestSetByGates(e)).named("pick_" + name);
            index = elig.size() == 1 ? U(0, 2) : OneHot.toIndex(pick).resize(2).named("pick_" + name + "_vc");
            any = e.ne(0).named("pick_" + name + "_any");
        }

        /** The chosen VC's head PDU is malformed (skipped without reads). */
        Bool bad(List<RxVcQueue> qs) {
            return selDesc(qs, index, d -> d.bad.asUInt()).bit(0);
        }
    }
}
