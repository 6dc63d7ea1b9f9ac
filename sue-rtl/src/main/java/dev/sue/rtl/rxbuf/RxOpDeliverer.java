// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.OneHot;
import java.util.ArrayList;
import java.util.List;

/**
 * The deliverer of {@link RxDeliver}: walks the ops of each VC's validated head PDU again (nothing
 * is kept per op), within the credits the XPU returns, and drives the XPU RX interface. Port H
 * reads the next op's header pair (port M its op map, {@link RxOpMap}) while port D streams the current op's data beats, so ops and
 * beats follow back to back; a command-only op, and beat 0 of a data op whose bytes lie in the
 * header pair, leave straight from the header read. VCs are served round robin; a VC short of
 * credits is left until its credits cover the op it waits for. Rules and timing: DESIGN-RX.md.
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

    RxOpDeliverer(RxBuffer buf, RxRing ring, List<RxDescQueue> ready, Bits rxCredit,
                  Bool rxResetIn, int dataWidth) {
        final int vcs = buf.vcs;
        final int nb = buf.nb;
        final int lb = buf.lb;
        final int wb = buf.wb;
        final int pw = buf.pw;
        final Bool wen = ring.wen;
        final UInt vIn = ring.vIn;
        final UInt widx = ring.widx;
        // ==== deliverer: header port H (walks ops, reads ahead) and data port D ====
        // Depth: the op walk is a loop through port H/M (header and op-map read -> op length ->
        // next header's address). Only the next op's address sits on it: the op's length and
        // type come from the op map (looked up when the beat was written), the credit check
        // drives the read enable (a held read keeps its data), a VC switch address is chosen from
        // registers assuming the PDU ends, and the last-op test compares the op length with the
        // bytes left.
        List<UInt> opos = new ArrayList<>();
        List<UInt> cmdC = new ArrayList<>();
        List<UInt> dataC = new ArrayList<>();
        List<Bool> waitF = new ArrayList<>();
        List<UInt> need = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            opos.add(reg("opos_" + v, uint(14)).init(0));
            cmdC.add(reg("cmd_credits_" + v, uint(CW)).init(0));
            dataC.add(reg("data_credits_" + v, uint(CW)).init(0));
            waitF.add(reg("wait_" + v, bool()).init(false));
            need.add(reg("need_" + v, uint(5)).init(0));
        }
        final int pb = wb + lb; // a byte position in a VC's ring
        Bool hPend = reg("h_pend", bool()).init(false);
        Bool hFresh = reg("h_fresh", bool()).init(false);
        UInt hv = reg("hv", uint(2)).init(0);
        UInt hp = reg("hp", uint(14)).init(0);
        UInt hs = reg("hs", uint(wb)).init(0);
        UInt hA = reg("h_abs", uint(pb)).init(0); // ring byte position of hp: hs * B + hp
        UInt hRdVc = wire("h_rd_vc", uint(2));
        UInt hRdPos = wire("h_rd_pos", uint(pb));
        Bool hRdEn = wire("h_rd_en", bool());
        Bits hr0 = buf.bank0.readSync(buf.bankAddr(hRdVc, hRdPos.add(nb).shr(lb).resize(wb)), hRdEn);
        Bits hr1 = buf.bank1.readSync(buf.bankAddr(hRdVc, hRdPos.shr(lb).resize(wb)), hRdEn);
        // port M: the op map of the header's word, read with the pair (same address, same enable)
        Bits hMap = buf.opMap.readSync(buf.mapAddr(hRdVc, hRdPos.shr(lb).resize(wb)), hRdEn).named("h_map");
        hFresh.set(hRdEn);
        Bool hPar = hA.bit(lb);
        Bits hWindow = cat(mux(hPar, hr0, hr1), mux(hPar, hr1, hr0)).named("h_window");

        Bool dPar = reg("d_par", bool()).init(false);
        UInt dRdVc = wire("d_rd_vc", uint(2));
        UInt dRdWord = wire("d_rd_word", uint(wb));
        Bits dr0 = buf.bank0.readSync(buf.bankAddr(dRdVc, dRdWord.add(1)));
        Bits dr1 = buf.bank1.readSync(buf.bankAddr(dRdVc, dRdWord));
        dPar.set(dRdWord.bit(0));
        Bits window = cat(mux(dPar, dr0, dr1), mux(dPar, dr1, dr0)).named("window");

        List<UInt> headWords = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            headWords.add(buf.words(ready.get(v).m.payload.length).named("head_words_" + v));
        }
        UInt hdStart = selDesc(ready, hv, d -> d.start).named("hd_start");
        UInt hdLen = selDesc(ready, hv, d -> d.length).named("hd_len");
        UInt hdSrc = selDesc(ready, hv, d -> d.src).named("hd_src");
        Bool hdBad = selDesc(ready, hv, d -> d.bad.asUInt()).bit(0);
        List<UInt> headValid = new ArrayList<>();
        for (RxDescQueue q : ready) {
            headValid.add(q.m.valid.asUInt());
        }
        Bool hdValid = RxBuffer.sel(headValid, hv).bit(0);
        // a header read that met the write of one of its two words on the same edge returned the
        // old word (only a read of a PDU not yet validated, the next-PDU read below): read it again
        Bool wenQ = regNext(wen).named("wen_q");
        UInt vInQ = regNext(vIn).named("v_in_q");
        UInt widxQ = regNext(widx).named("widx_q");
        UInt hWord = hA.shr(lb).resize(wb);
        Bool hStale = hPend.and(hFresh).and(wenQ).and(vInQ.eq(hv)).and(widxQ.eq(hWord).or(widxQ.eq(hWord.add(1))))
                .named("h_stale");
        Bool headOk = hPend.and(hdValid).and(hdStart.eq(hs)).andNot(hdBad).andNot(hStale).named("head_ok");
        // the op (control bytes and the data bytes of beat 0): 2-byte lanes from hp on
        Bits hw = RxBuffer.lanes("hdr_lane", hWindow, hp.resize(lb).shr(1).resize(lb - 1), 9 + nb / 2).named("hdr_window");
        // the op's type, looked up when it was written: no table on the walk
        RxOpMap.Lane hLane = RxOpMap.pick("h_lane", hMap, hA.resize(lb).shr(1).resize(lb - 1));
        UInt hL1 = hw.slice(15, 8).asUInt();
        Bool hasData = hLane.dataPresent;
        UInt ctrlLen = hLane.units.resize(5).shl(1).named("ctrl_len");
        UInt ctrl14 = ctrlLen.resize(14);
        UInt beats = mux(hasData, hL1.shr(lb).resize(5).add(1), U(0, 5)).named("beats");
        UInt opLen = RxOpMap.bytes(hLane).named("op_len");
        UInt hNext = hp.add(opLen).named("h_next");
        UInt hdLen14 = hdLen.resize(14);
        UInt rem = hdLen14.sub(hp).named("h_rem");
        // a PDU the validator passed holds only valid types up to its end or a PAD byte
        Bool pduEnd = hp.ge(hdLen14).or(RxOpMap.isPad(hLane)).named("pdu_end");
        Bool lastOp = opLen.ge(rem).named("last_op");
        // beat 0 of a data op comes from the header's own word pair when it lies in it
        Bool win0 = U(nb, lb + 1).sub(hp.resize(lb).resize(lb + 1)).ge(ctrlLen.resize(lb + 1)).named("win0");
        Bool creditOk = RxBuffer.sel(cmdC, hv).ne(0).and(hasData.not().or(RxBuffer.sel(dataC, hv).gt(hL1.shr(lb).resize(CW))))
                .andNot(rxResetIn).named("credit_ok");

        // active data op (port D)
        UInt actLeft = reg("act_left", uint(5)).init(0);
        UInt actWord = reg("act_word", uint(wb)).init(0);
        UInt actIdx = reg("act_idx", uint(4)).init(0);
        UInt actVc = reg("act_vc", uint(2)).init(0);
        UInt actSrc = reg("act_src", uint(10)).init(0);
        Bits actCtrl = reg("act_ctrl", bits(144)).init(0);
        UInt actRot = reg("act_rot", uint(lb)).init(0);
        UInt actRem = reg("act_rem", uint(lb)).init(0);
        Bool actFree = reg("act_free", bool()).init(false);
        UInt actNw = reg("act_nw", uint(pw)).init(0);
        Bool dRet = reg("d_ret", bool()).init(false);
        UInt dIdx = reg("d_idx", uint(4)).init(0);
        Bool dLast = reg("d_last", bool()).init(false);
        Bool actReading = actLeft.ne(0).named("act_reading");
        Bool actFreeFire = actReading.and(actLeft.eq(1)).and(actFree).named("act_free_fire");

        Bool emitsNow = hasData.not().or(win0).named("emits_now");
        Bool canIssue = actReading.not().and(emitsNow.not().or(dRet.not())).named("can_issue");
        Bool opHere = headOk.andNot(pduEnd).named("op_here");
        go = opHere.and(creditOk).and(canIssue).named("go");
        Bool noCredit = opHere.andNot(creditOk).named("no_credit");
        Bool endNow = headOk.and(pduEnd).andNot(actReading).named("end_now");
        Bool holdH = opHere.and(creditOk).andNot(canIssue).or(headOk.and(pduEnd).and(actReading)).named("hold_h");
        pduDone = endNow.or(go.and(lastOp)).named("pdu_done");
        Bool contH = go.andNot(lastOp).named("cont_h");
        // data reads this op still needs after its issue cycle (beat 0 and, if in the window, beat 1 go now)
        UInt readsNow = mux(hasData, mux(win0, mux(beats.ge(2), U(1, 5), U(0, 5)), U(1, 5)), U(0, 5));
        UInt firstRead = mux(win0, U(1, 5), U(0, 5)).named("first_read");
        // = beats - first_read - 1 when it reads now, from the length byte (beats - 1) without a
        // chain of subtractions after it
        UInt lastBeat = hL1.shr(lb).resize(5).named("last_beat");
        UInt readsAfter = mux(hasData, mux(win0, mux(lastBeat.ne(0), lastBeat.sub(1), U(0, 5)), lastBeat), U(0, 5))
                .named("reads_after");
        Bool freeDec = endNow.or(go.and(lastOp).and(readsAfter.eq(0))).named("free_dec");
        UInt nwDec = RxBuffer.sel(headWords, hv);

        Bits ctrlMasked = hw.slice(143, 0).and(byteMask(144 / 8, k -> ctrlLen.gt(k))).named("ctrl_masked");
        UInt dataOff = hp.add(ctrl14).named("data_off");
        UInt firstWord = hdStart.add(dataOff.shr(lb).resize(wb)).named("first_word");

        // next header read. From registers only: the VC picked (round robin among VCs whose head
        // is bad or covered by credits) when nothing is being walked ("idle"), and the one picked
        // when the current PDU ends ("switch": the current VC excluded, its next PDU is read
        // speculatively when no other VC is eligible).
        UInt rr = reg("rr", uint(2)).init(0);
        List<Bool> eligIdle = new ArrayList<>();
        List<Bool> eligSw = new ArrayList<>();
        List<UInt> fetchPos = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            RxPduDesc h = ready.get(v).m.payload;
            Bool creditsFor = cmdC.get(v).ne(0).and(waitF.get(v).not().or(dataC.get(v).ge(need.get(v).resize(CW))))
                    .andNot(rxResetIn);
            Bool e = ready.get(v).m.valid.and(h.bad.or(creditsFor)).named("elig_" + v);
            eligIdle.add(e);
            eligSw.add(e.andNot(hv.eq(v)).named("elig_sw_" + v));
            fetchPos.add(h.start.resize(pb).shl(lb).add(opos.get(v).resize(pb)).named("fetch_pos_" + v));
        }
        RoundRobin idle = new RoundRobin(eligIdle, rr, "idle");
        RoundRobin sw = new RoundRobin(eligSw, rr, "sw");
        Bool walking = hPend.and(headOk.or(hStale));
        Bool idleCase = walking.not().named("idle_case");
        Bool skip = idleCase.and(idle.any).and(idle.bad(ready)).named("skip");
        Bool fetchIdle = idleCase.and(idle.any).andNot(idle.bad(ready)).named("fetch_idle");
        Bool fetchSw = pduDone.and(sw.any).andNot(sw.bad(ready)).named("fetch_sw");
        Bool spec = pduDone.andNot(sw.any).named("spec");
        UInt specStart = hs.add(nwDec.resize(wb)).named("spec_start");
        UInt specPos = specStart.resize(pb).shl(lb);
        UInt switchPos = mux(sw.any, RxBuffer.sel(fetchPos, sw.index), specPos).named("switch_pos");
        UInt otherPos = mux(hStale, hA, mux(walking, switchPos, RxBuffer.sel(fetchPos, idle.index))).named("other_pos");
        UInt contPos = hA.add(opLen.resize(pb)).named("cont_pos");
        Bool selCont = opHere.andNot(lastOp).named("sel_cont");
        hRdPos.set(mux(selCont, contPos, otherPos));
        hRdVc.set(mux(walking.and(sw.any.not().or(selCont).or(hStale)), hv, mux(walking, sw.index, idle.index)));
        Bool fetch = fetchIdle.or(fetchSw).named("fetch");
        UInt sv = mux(fetchSw, sw.index, idle.index).named("sv");
        hRdEn.set(hStale.or(contH).or(fetch).or(spec));
        when(fetch.or(skip), () -> rr.set(mux(skip, idle.index, sv)));

        hPend.set(FALSE);
        when(hStale.or(holdH), () -> hPend.set(TRUE))
                .elseWhen(contH, () -> {
                    hp.set(hNext);
                    hA.set(contPos);
                    hPend.set(TRUE);
                }).elseWhen(fetch, () -> {
                    // both candidates from registers, the late fetch_sw only picks
                    hv.set(sv);
                    hp.set(mux(fetchSw, RxBuffer.sel(opos, sw.index), RxBuffer.sel(opos, idle.index)));
                    hs.set(mux(fetchSw, selDesc(ready, sw.index, d -> d.start), selDesc(ready, idle.index, d -> d.start)));
                    hA.set(mux(fetchSw, RxBuffer.sel(fetchPos, sw.index), RxBuffer.sel(fetchPos, idle.index)));
                    hPend.set(TRUE);
                }).elseWhen(spec, () -> {
                    hp.set(U(0, 14));
                    hs.set(specStart);
                    hA.set(specPos);
                    hPend.set(TRUE);
                });

        // port D: the active op's beats, or the first data read of an op issued now
        dRdVc.set(hv);
        dRdWord.set(firstWord.add(firstRead.resize(wb)));
        dRet.set(FALSE);
        Bool goReads = go.and(readsNow.ne(0)).named("go_reads");
        when(actReading, () -> {
            dRdVc.set(actVc);
            dRdWord.set(actWord);
            actWord.set(actWord.add(1));
            actLeft.set(actLeft.sub(1));
            actIdx.set(actIdx.add(1));
            dRet.set(TRUE);
            dIdx.set(actIdx);
            dLast.set(actLeft.eq(1));
        }).elseWhen(goReads, () -> {
            actWord.set(firstWord.add(firstRead.resize(wb)).add(1));
            actLeft.set(readsAfter);
            actIdx.set(firstRead.resize(4).add(1));
            dRet.set(TRUE);
            dIdx.set(firstRead.resize(4));
            dLast.set(readsAfter.eq(0));
        });
        when(go.and(hasData), () -> {
            actVc.set(hv);
            actSrc.set(hdSrc);
            actCtrl.set(ctrlMasked);
            actRot.set(dataOff.resize(lb));
            actRem.set(hL1.resize(lb));
            actFree.set(lastOp.and(readsAfter.ne(0)));
            actNw.set(nwDec);
        });

        // per-VC state: op positions, credits, waits, frees, queue pops
        Bits crq = reg("credit_q", bits(6)).init(0);
        crq.set(mux(rxResetIn, B(0, 6), rxCredit));
        UInt crCount = crq.slice(1, 0).asUInt().resize(CW + 1).add(1);
        UInt skipVc = idle.index;
        for (int v = 0; v < vcs; v++) {
            final int vv = v;
            Bool isH = hv.eq(vv);
            when(go.and(isH), () -> opos.get(vv).set(mux(lastOp, U(0, 14), hNext)))
                    .elseWhen(endNow.and(isH), () -> opos.get(vv).set(U(0, 14)));
            ready.get(v).m.ready.set(pduDone.and(isH).or(skip.and(skipVc.eq(vv))));
            // the head PDU, freed when its walk ends now or it is skipped (never both in a cycle:
            // a skip needs an idle header stage), is added last: those decisions come late
            ring.free(v, mux(actFreeFire.and(actVc.eq(vv)), actNw, U(0, pw)),
                    freeDec.and(isH).or(skip.and(skipVc.eq(vv))), headWords.get(v));
            Bool crHere = crq.bit(5).and(crq.slice(3, 2).asUInt().eq(vv));
            UInt addCmd = mux(crHere.andNot(crq.bit(4)), crCount, U(0, CW + 1));
            UInt addData = mux(crHere.and(crq.bit(4)), crCount, U(0, CW + 1));
            Bool take = go.and(isH);
            cmdC.get(v).set(mux(rxResetIn, U(0, CW), mux(take, satAdd(cmdC.get(v), addCmd, U(1, CW + 1)),
                    satAdd(cmdC.get(v), addCmd, U(0, CW + 1)))));
            dataC.get(v).set(mux(rxResetIn, U(0, CW), mux(take, satAdd(dataC.get(v), addData, beats.resize(CW + 1)),
                    satAdd(dataC.get(v), addData, U(0, CW + 1)))));
            when(noCredit.and(isH), () -> {
                waitF.get(vv).set(TRUE);
                need.get(vv).set(beats);
            }).elseWhen(go.and(isH), () -> waitF.get(vv).set(FALSE));
        }
        // ==== XPU RX outputs (registered) ====
        Bits dw = RxBuffer.lanes("d_lane", window, actRot.shr(1).resize(lb - 1), nb / 2);
        Bits dKeep = byteMask(nb, k -> k == 0 ? TRUE : dLast.not().or(actRem.ge(k)));
        Bits h0 = RxBuffer.lanes("h_beat0_lane", hw, hLane.units, nb / 2).named("h_beat0");
        Bits h0Keep = byteMask(nb, k -> k == 0 ? TRUE : beats.gt(1).or(hL1.resize(lb).ge(k)));
        Bool cmdOut = go.andNot(hasData).named("cmd_out");
        Bool beat0Out = go.and(hasData).and(win0).named("beat0_out");
        output = new RxXpuOutput(dataWidth);
        output.drive(dRet, dIdx, actVc, actSrc, actCtrl, dw.and(dKeep),
                cmdOut, beat0Out, hv, hdSrc, ctrlMasked, h0.and(h0Keep));
        Bool resetOut = reg("reset_out", bool()).init(true);
        resetOut.set(rxResetIn);
        rxResetOut = resetOut;
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

    private static UInt selDesc(List<RxDescQueue> qs, UInt idx,
                                java.util.function.Function<RxPduDesc, UInt> f) {
        List<UInt> l = new ArrayList<>();
        for (RxDescQueue q : qs) {
            l.add(f.apply(q.m.payload));
        }
        return RxBuffer.sel(l, idx);
    }

    /** cur + add - take, clamped to the counter's range (a misbehaving XPU cannot wrap it). */
    private static UInt satAdd(UInt cur, UInt add, UInt take) {
        int w = cur.bitWidth();
        UInt s = cur.resize(w + 2).add(add.resize(w + 2)).sub(take.resize(w + 2));
        return mux(s.gt((1L << w) - 1), U((1L << w) - 1, w), s.resize(w));
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
            Bits pick = mux(a.ne(0), OneHot.lowestSet(a), OneHot.lowestSet(e)).named("pick_" + name);
            index = elig.size() == 1 ? U(0, 2) : OneHot.toIndex(pick).resize(2).named("pick_" + name + "_vc");
            any = e.ne(0).named("pick_" + name + "_any");
        }

        /** The chosen VC's head PDU is malformed (skipped without reads). */
        Bool bad(List<RxDescQueue> qs) {
            return selDesc(qs, index, d -> d.bad.asUInt()).bit(0);
        }
    }
}
