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
        // Where this beat goes: a new PDU starts at its VC's wp, a PDU's later beats follow the
        // cursor (a PDU's beats share one VC, RxPduBeat), so no add precedes the write
        UInt cursor = reg("cursor", uint(pw)).init(0);
        wpSel = RxBuffer.sel(wp, vIn).named("wp_sel");
        UInt at = mux(inPdu, cursor, wpSel).named("at");
        widx = at.resize(wb).named("widx");
        UInt atPlusOne = at.add(1).named("at_plus_one");
        // Room for this beat, from registers set a cycle ahead (Depth: computed here as
        // at - fp, two carry chains from the pointers, it ran on into `fits` and the receive
        // reliability's PSN check: 9 levels in the whole endpoint at 256 bits). One more word fits
        // while the words in use, the cursor's or wp's distance from fp, are below w (top bit of
        // the distance clear: it never exceeds w). The registers use this cycle's fp, so a word
        // freed now is usable a cycle later: a full ring refuses (nobuf) a beat it could take one
        // cycle sooner, never the other way.
        List<Bool> newRoom = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            newRoom.add(reg("new_room_" + v, bool()).init(true));
        }
        Bool contRoom = reg("cont_room", bool()).init(true);
        Bool room = mux(inPdu, contRoom, RxBuffer.sel(newRoom.stream().map(Bool::asUInt).toList(), vIn).bit(0))
                .named("room");
        beatOk = vcOk.and(room).andNot(ovfEff).named("beat_ok");
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
        // the next beat of this PDU: after this one if it was written
        UInt cursorNext = mux(in.valid, mux(beatOk, atPlusOne, at), cursor).named("cursor_next");
        cursor.set(cursorNext);
        UInt vcCur = reg("vc_cur", uint(vIn.width())).init(0);
        UInt vcNext = mux(in.valid, vIn, vcCur);
        vcCur.set(vcNext);
        contRoom.set(fitsOneMore(cursorNext, RxBuffer.sel(fp, vcNext), wb));
        // a kept PDU moves its VC's wp past it: the room of a PDU starting there is worked out
        // for both outcomes from the pointers, and picked by store last
        Bool roomAfterStore = fitsOneMore(atPlusOne, RxBuffer.sel(fp, vIn), wb);
        for (int v = 0; v < vcs; v++) {
            final int vv = v;
            Bool storeHere = store.and(vIn.eq(vv));
            when(storeHere, () -> wp.get(vv).set(atPlusOne));
            newRoom.get(v).set(mux(storeHere, roomAfterStore, fitsOneMore(wp.get(v), fp.get(v), wb)));
        }
    }

    /** A word at ring position {@code pos} fits: fewer than w words from {@code fp} are in use. */
    private static Bool fitsOneMore(UInt pos, UInt fp, int wb) {
        return pos.sub(fp).bit(wb).not();
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
