// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.rtl.rx.RxPduBeat;
import java.util.ArrayList;
import java.util.List;

/**
 * The ring writer of {@link RxDeliver}: writes every input beat speculatively into its VC's ring
 * (one beat per cycle, never stalled) and, at the PDU's last beat, keeps it ({@code commit &&
 * accept && fits}: the write pointer moves past it) or rolls it back (the pointer stays, nothing
 * to undo). {@code fits} is combinational from the beat and the ring state only. The deliverer
 * frees words through {@link #free}.
 */
final class RxRing {
    /** Per VC: write pointer (first word after the last kept PDU) and free pointer (oldest word in use). */
    final List<UInt> wp = new ArrayList<>();
    final List<UInt> fp = new ArrayList<>();
    final RxPduBeat ib;
    /** The beat's VC, and whether it is one of ours. */
    final UInt vIn;
    final Bool vcOk;
    /** Words of the current PDU written before this beat. */
    final UInt nEff;
    /** wp of the beat's VC: where the current PDU starts. */
    final UInt wpSel;
    /** This beat is in the ring (so far every beat of the PDU fits). */
    final Bool beatOk;
    /** The beat is written now, to ring word {@code widx}. */
    final Bool wen;
    final UInt widx;
    final Bool lastIn;
    /** Last beat, committed and accepted (kept if it fits). */
    final Bool kept;
    /** Last beat of a PDU that is kept. */
    final Bool store;

    RxRing(RxBuffer buf, Stream<RxPduBeat> in, Bool accept) {
        final int vcs = buf.vcs;
        final int pw = buf.pw;
        final int wb = buf.wb;
        for (int v = 0; v < vcs; v++) {
            wp.add(reg("wp_" + v, uint(pw)).init(0));
            fp.add(reg("fp_" + v, uint(pw)).init(0));
        }
        Bool inPdu = reg("in_pdu", bool()).init(false);
        UInt nIn = reg("n_in", uint(pw)).init(0);
        Bool ovf = reg("ovf", bool()).init(false);
        ib = in.payload;
        in.ready.set(TRUE);
        vIn = ib.vc;
        vcOk = vcs == 4 ? TRUE : vIn.lt(vcs).named("vc_ok");
        nEff = mux(inPdu, nIn, U(0, pw)).named("n_eff");
        Bool ovfEff = inPdu.and(ovf);
        // per VC from registers, so the beat's VC (late from the parser) only picks: the ring has
        // room for this beat, where it goes, and the write pointer after it
        List<UInt> roomV = new ArrayList<>();
        List<UInt> widxV = new ArrayList<>();
        List<UInt> wpAfterV = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            UInt at = wp.get(v).add(nEff).named("widx_" + v);
            // words in use with this PDU's so far: at - fp <= w (a beat is written only with room),
            // so "one more fits" (< w) is its top bit clear: no compare after the subtraction
            UInt usedNow = at.sub(fp.get(v)).named("used_now_" + v);
            roomV.add(usedNow.bit(wb).not().asUInt().named("room_" + v));
            widxV.add(at.resize(wb));
            wpAfterV.add(at.add(1).named("wp_after_" + v));
        }
        wpSel = RxBuffer.sel(wp, vIn).named("wp_sel");
        Bool room = RxBuffer.sel(roomV, vIn).bit(0).named("room");
        beatOk = vcOk.and(room).andNot(ovfEff).named("beat_ok");
        widx = RxBuffer.sel(widxV, vIn).named("widx");
        wen = in.valid.and(beatOk).named("wen");
        UInt wAddr = buf.bankAddr(vIn, widx);
        buf.bank0.write(wAddr, ib.data, wen.andNot(widx.bit(0)));
        buf.bank1.write(wAddr, ib.data, wen.and(widx.bit(0)));
        lastIn = in.valid.and(ib.last).named("last_in");
        kept = lastIn.and(ib.commit).and(accept).named("kept");
        store = kept.and(beatOk).named("store");
        UInt nNext = nEff.add(1).named("n_next");
        when(in.valid, () -> when(ib.last, () -> {
            inPdu.set(FALSE);
            nIn.set(U(0, pw));
            ovf.set(FALSE);
        }).otherwise(() -> {
            inPdu.set(TRUE);
            nIn.set(mux(beatOk, nNext, nEff));
            ovf.set(ovfEff.or(beatOk.not()));
        }));
        for (int v = 0; v < vcs; v++) {
            final int vv = v;
            when(store.and(vIn.eq(vv)), () -> wp.get(vv).set(wpAfterV.get(vv)));
        }
    }

    /**
     * Frees words of VC {@code v} this cycle: {@code words}, plus {@code late} when {@code lateEn}.
     * The late part is added last, so the sum without it is ready when it arrives.
     */
    void free(int v, UInt words, Bool lateEn, UInt late) {
        UInt early = fp.get(v).add(words);
        fp.get(v).set(mux(lateEn, early.add(late), early));
    }
}
