// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Stream;
import java.util.ArrayList;
import java.util.List;

/**
 * Stage L of {@link RxFrameParser}: one MAC beat held in registers and decided with the next beat
 * on {@code s} as lookahead (so the trailer that straddles into a short last beat is known while
 * the beat before it is still held). Also the held beat's position in its frame and the trailer
 * views every later stage uses: {@code opHi} (bytes of the held beat before the op-region end, as an
 * {@link OpHiChoice}),
 * {@code opEnd} / {@code fEnd} (the op region / the bytes before the FCS end in this beat) and
 * {@code eNow} (the frame offset where the op region would end here).
 */
final class RxHeldBeat {
    /** The ends pos + nb + j kept in registers: j from a short beat's nb - 8 to a full beat's nb + 4. */
    private static final int END_FROM = -8;
    private static final int END_TO = 4;
    final Bool hv = reg("hv", bool()).init(false);
    final Bits hd;
    final Bits hk;
    /** hk without the FCS lanes (at least lane 0): the R-CRC's keep on a last beat, from a register. */
    final Bits hkNoFcs;
    final Bool hl = reg("hl", bool());
    final Bool he = reg("he", bool());
    final UInt hc;
    /** The held beat leaves this cycle (to the CRCs, the header capture, the realigner and the control delay). */
    final Bool emit;
    /** Beat index in the frame (saturating at q + 1) and byte position of the held beat. */
    final UInt bi;
    final UInt pos;
    /** opHi as a choice among its candidates, which a later stage compares or offsets before the choice. */
    final OpHiChoice opHiChoice;
    final Bool opEnd;
    final Bool fEnd;
    final Bool nextShortF;
    final UInt eNow;
    /** The next beat's keep (the lookahead). */
    final Bits sk;
    /** A frame's first beat is taken from {@code s} (frames are counted there). */
    final Bool frameIn;

    /**
     * @param go the later stages can take a beat this cycle (room in the realigner and every record FIFO)
     * @param q  the beat index that holds the op region's first byte
     */
    RxHeldBeat(Stream<MacRxBeat> s, Bool fcsEn, Bool go, int nb, int cw, int q) {
        hd = reg("hd", bits(8 * nb));
        hk = reg("hk", bits(nb));
        hkNoFcs = reg("hk_no_fcs", bits(nb));
        hc = reg("hc", uint(cw));
        UInt kin = RxFrameParser.keepCount(s.payload.keep, cw).named("s_keep_count");
        // the held beat's bytes before the trailer (R-CRC + FCS, or R-CRC), registered with the beat and
        // counted from the keep's edges like kin: compared and subtracted after hc it ran through two carry
        // chains into the op end (8 levels at 1024 bits, session 18)
        UInt heldHi = reg("held_hi", uint(cw));
        Bool fcsAtLoad = reg("fcs_at_load", bool()); // for the check below only (fcs_en may be rewritten)
        UInt kinLessT = mux(fcsEn, RxFrameParser.keepCountLess(s.payload.keep, cw, 8),
                RxFrameParser.keepCountLess(s.payload.keep, cw, 4)).named("s_keep_count_less_t");
        emit = hv.and(hl.or(s.valid)).and(go).named("emit");
        s.ready.set(hv.not().or(emit));
        when(s.fire(), () -> {
            hv.set(TRUE);
            hd.set(s.payload.data);
            hk.set(s.payload.keep);
            hkNoFcs.set(mux(fcsEn, cat(B(0, 4), s.payload.keep.slice(nb - 1, 4)).or(B(1, nb)), s.payload.keep));
            hl.set(s.payload.last);
            he.set(s.payload.err);
            hc.set(kin);
            heldHi.set(kinLessT);
            fcsAtLoad.set(fcsEn);
        }).elseWhen(emit, () -> hv.set(FALSE));

        Bool firstIn = reg("first_in", bool()).init(true);
        when(s.fire(), () -> firstIn.set(s.payload.last));
        frameIn = s.fire().and(firstIn);

        int biMax = q + 1;
        bi = reg("bi", uint(bitsFor(biMax))).init(0);
        pos = reg("pos", uint(RxFrameParser.POS_BITS)).init(0);
        long posMax = (1L << RxFrameParser.POS_BITS) - 1 - 2L * nb; // pos + nb + opHi never wraps
        when(emit, () -> {
            when(hl, () -> {
                bi.set(0);
                pos.set(0);
            }).otherwise(() -> {
                when(bi.lt(U(biMax, bi.bitWidth())), () -> bi.set(bi.add(1)));
                when(pos.lt(U(posMax, RxFrameParser.POS_BITS)), () -> pos.set(pos.add(nb)));
            });
        });

        // Trailer views: T = R-CRC (+ FCS) bytes, F = FCS bytes.
        UInt tLen = mux(fcsEn, U(8, cw), U(4, cw));
        Bool nextLast = hl.not().and(s.payload.last).named("next_last");
        // "the next beat has at most T (F) bytes" is one keep bit (keep is contiguous from byte 0)
        sk = s.payload.keep;
        Bool nextShortT = nextLast.andNot(mux(fcsEn, sk.bit(8), sk.bit(4))).named("next_short_t");
        nextShortF = nextLast.and(fcsEn).andNot(sk.bit(4)).named("next_short_f");
        // A next beat short enough to hold only trailer bytes has at most 8: its keep count k is
        // 0..8, and exactly one count's edge is set (keep is a thermometer code). The short-beat
        // candidates below (nb - T + k here, pos + nb - T + k for eNow) are made from registers and
        // constants for each k and picked by an AND-OR of those edges: with the count summed and
        // then added, the MAC input's tkeep ran through two carry chains and the realigner's
        // register select (8.5 levels at 512 bits, AFH1 and AFH2, session 17).
        List<Bool> countIs = new ArrayList<>();
        countIs.add(sk.bit(0).not());
        countIs.addAll(RxFrameParser.keepEdges(sk.slice(7, 0)));
        assertThat(hv.not().or(fcsAtLoad.ne(fcsEn)).or(heldHi.eq(mux(hc.gt(tLen), hc.sub(tLen), U(0, cw)))),
                "held_hi out of step with hc");
        opHiChoice = new OpHiChoice(hl, nextShortT, countIs, fcsEn, heldHi, nb);
        opEnd = hl.or(nextShortT).named("op_end");
        fEnd = hl.or(nextShortF).named("f_end");
        // eNow = pos + opHi. Every end a beat that is not held last can give, pos + nb + j for
        // j = -8..4 (a short beat's nb - T + k, a full beat's nb), is kept in a register of its
        // own beside pos and chosen with opHi: summed from pos behind the choice, a 14-bit carry
        // chain preceded the keep edges' AND-OR and the realigner's selects (9 levels in preset
        // sue_1x400g, session 18)
        int pw = RxFrameParser.POS_BITS;
        UInt heldEnd = pos.add(heldHi.resize(pw)).named("e_held");
        List<UInt> endAt = new ArrayList<>();
        for (int j = END_FROM; j <= END_TO; j++) {
            int offset = nb + j;
            UInt end = reg("pos_plus_" + offset, uint(pw)).init(offset);
            when(emit, () -> when(hl, () -> end.set(U(offset, pw)))
                    .elseWhen(pos.lt(U(posMax, pw)), () -> end.set(end.add(nb))));
            assertThat(end.eq(pos.add(U(offset, pw))), "end register pos_plus_" + offset + " out of step with pos");
            endAt.add(end);
        }
        eNow = opHiChoice.choose("e_now", pw, heldEnd, offset -> endAt.get(offset - nb - END_FROM));
    }
}
