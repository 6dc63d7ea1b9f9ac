// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Stream;

/**
 * The realigner of {@link RxFrameParser}: moves the op region, which starts at byte O mod B of
 * beat q, to byte 0, joining the top of each held beat with the bottom of the next; emits one
 * {@link OpSlot} per output beat on {@link #out} with the valid byte count, and the frame's op-end
 * slot (last) with the end offset {@code e}. The part of a last beat that does not fit the slot
 * of the beat before it waits in a pending register and leaves in the next cycle.
 */
final class RxRealigner {
    final Stream<OpSlot> out;

    RxRealigner(RxHeldBeat h, int w, int cw, int q, int sh) {
        int nb = w / 8;
        out = wire(Stream.of(() -> new OpSlot(w, cw))).named("ra");
        Bits prevHi = reg("prev_hi", bits(8 * (nb - sh)));
        Bool done = reg("done", bool()).init(false);
        Bool pv = reg("pend_v", bool()).init(false);
        Bits pd = reg("pend_data", bits(w));
        UInt pc = reg("pend_cnt", uint(cw));
        UInt pe = reg("pend_e", uint(RxFrameParser.POS_BITS));
        UInt bi = h.bi;
        Bool opEnd = h.opEnd;
        // opHi's compares and offsets, each made on opHi's candidates before the choice (OpHiChoice)
        Bool hiAboveSh = h.opHiChoice.test("op_hi_above_sh", x -> x.gt(U(sh, cw)), v -> v > sh);
        UInt hiLessSh = h.opHiChoice.map("op_hi_less_sh", cw, x -> x.sub(U(sh, cw)), v -> v - sh);
        UInt endCount = h.opHiChoice.map("end_cnt", cw, x -> U(nb - sh, cw).add(x), v -> nb - sh + v);
        Bits curHi = cat(B(0, 8 * sh), h.hd.slice(w - 1, 8 * sh));
        Bits combined = cat(h.hd.slice(8 * sh - 1, 0), prevHi);
        Bool live = h.emit.andNot(done);
        Bool beforeQ = q == 0 ? FALSE : bi.lt(U(q, bi.bitWidth()));
        Bool atQ = bi.eq(q);
        Bool afterQ = bi.gt(U(q, bi.bitWidth()));
        Bool comb = live.and(afterQ).named("comb");
        Bool endsHere = opEnd.andNot(hiAboveSh);
        out.valid.set(pv.or(comb));
        out.payload.data.set(mux(pv, pd, combined));
        out.payload.cnt.set(mux(pv, pc, mux(endsHere, endCount, U(nb, cw))));
        out.payload.last.set(pv.or(endsHere));
        out.payload.e.set(mux(pv, pe, h.eNow));
        assertThat(pv.and(comb).not(), "realigner: pending end and combined beat in one cycle");
        when(out.ready, () -> {
            pv.set(FALSE);
            when(h.emit, () -> {
                when(bi.le(U(q, bi.bitWidth())).or(afterQ.and(opEnd).and(hiAboveSh)), () -> {
                    pd.set(mux(beforeQ, B(0, w), curHi));
                    pc.set(mux(bi.eq(q).and(hiAboveSh), hiLessSh, mux(afterQ, hiLessSh, U(0, cw))));
                    pe.set(h.eNow);
                });
                when(live.and(opEnd).and(bi.le(U(q, bi.bitWidth())).or(hiAboveSh)), () -> pv.set(TRUE));
                when(opEnd, () -> done.set(TRUE));
                when(atQ.or(afterQ), () -> prevHi.set(h.hd.slice(w - 1, 8 * sh)));
                when(h.hl, () -> done.set(FALSE));
            });
        });
    }
}
