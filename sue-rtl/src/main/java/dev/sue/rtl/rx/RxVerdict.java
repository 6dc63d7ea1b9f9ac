// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.OneHot;
import java.util.List;

/**
 * The output stage of {@link RxFrameParser}: joins each realigned op slot with its frame's header
 * record ({@code info_q}) and, on the op-end slot, with its end record (from {@code end_q} or
 * straight from the CRC engines); drops control frames and frames dropped on header fields,
 * truncates oversized PDUs (the beat crossing RX_MAX_PDU leaves as an aborted last beat), and
 * gives the verdict: {@code commit} on the last beat of {@code m}, and the one drop reason that
 * counts ({@link #reasons}, in priority order).
 */
final class RxVerdict {
    /** A frame's op-end slot is taken: its records are consumed. */
    final Bool endPop;
    /** The frame at the head is a control frame. */
    final Bool isCtl;
    /** Any drop reason holds for the frame at the head (meaningful with {@link #endPop}). */
    final Bool anyBad;
    /** Drop reasons in priority order (the first that holds is counted), as {@link RxFrameParser#COUNTERS} from 3. */
    final Bool[] reasons;

    /** Whether any of {@code bools} holds, as one wide OR (a reduction tree, balanced by synthesis). */
    static Bool anyOf(List<Bool> bools) {
        return bools.isEmpty() ? FALSE : OneHot.fromBools(bools).orR();
    }

    RxVerdict(Stream<OpSlot> o, StreamFifo<RxPduInfo> infoQ, StreamFifo<RxEndRecord> endQ, RxCrcChecks crc,
            UInt maxPdu, Stream<RxPduBeat> m, int ob, int nb, boolean lenCheck) {
        int pb = RxFrameParser.POS_BITS;
        UInt acc = reg("acc", uint(14)).init(0);
        Bool aborted = reg("aborted", bool()).init(false);
        RxPduInfo info = infoQ.m.payload;
        Bool endV = endQ.m.valid.or(crc.valid);
        RxEndRecord end = wire("end_rec", new RxEndRecord());
        end.macErr.set(mux(endQ.m.valid, endQ.m.payload.macErr, crc.end.macErr));
        end.fcsBad.set(mux(endQ.m.valid, endQ.m.payload.fcsBad, crc.end.fcsBad));
        end.rcrcBad.set(mux(endQ.m.valid, endQ.m.payload.rcrcBad, crc.end.rcrcBad));
        Bool oL = o.payload.last;
        UInt oe = o.payload.e;
        Bool haveRec = infoQ.m.valid.and(oL.not().or(endV));
        isCtl = info.ctl;
        Bool hdrDrop = info.hdrBad.or(info.lenHdrBad).or(info.csumBad).or(info.verBad).or(info.opBad)
                .or(info.srcBad).or(info.partBad);
        Bool trunc = oe.lt(U(ob, pb));
        UInt opLen = oe.sub(ob).named("op_len");
        // op length > RX_MAX_PDU as one compare of the end offset with a registered O + RX_MAX_PDU (the length's
        // subtractor and a comparator in series were 7 levels to m_commit); the register follows RX_MAX_PDU a
        // cycle later, and the configuration changes only while no frame is in flight
        UInt maxEnd = reg("max_end", uint(pb)).init(RxFrameParser.MAX_PDU + ob);
        maxEnd.set(maxPdu.resize(pb).add(ob));
        Bool over = trunc.not().and(oe.gt(maxEnd));
        Bool lenBad = lenCheck ? info.lenHdrBad.or(oe.resize(17).ne(info.expE)) : FALSE;
        Bool deliverable = isCtl.not().and(hdrDrop.not()).and(aborted.not()).and(oL.and(trunc).not());
        Bool abortNow = oL.not().and(acc.resize(15).add(nb).gt(maxPdu.resize(15)));
        reasons = new Bool[] {end.macErr, end.fcsBad, trunc, over, info.hdrBad, lenBad, info.csumBad, end.rcrcBad,
            info.verBad, info.opBad, info.srcBad, info.partBad};
        // one wide OR (a reduction tree), not a chain: the end record's reasons, behind the end FIFO's valid, are
        // the latest inputs (a chain put them 9 levels before m_commit in the endpoint)
        anyBad = anyOf(List.of(reasons));
        m.valid.set(o.valid.and(haveRec).and(deliverable));
        Bool take = o.valid.and(haveRec).and(deliverable.not().or(m.ready)).named("take");
        o.ready.set(take);
        m.payload.src.set(info.src);
        m.payload.vc.set(info.vc);
        m.payload.psn.set(info.psn);
        m.payload.op.set(info.op);
        m.payload.rpsn.set(info.rpsn);
        m.payload.partition.set(info.partition);
        m.payload.length.set(opLen.resize(13));
        m.payload.data.set(o.payload.data);
        m.payload.keep.set(RxFrameParser.therm(o.payload.cnt, nb));
        m.payload.last.set(oL.or(abortNow));
        m.payload.commit.set(oL.andNot(anyBad));
        endPop = take.and(oL).named("end_pop");
        infoQ.m.ready.set(endPop);
        endQ.m.ready.set(endPop.and(endQ.m.valid));
        endQ.s.valid.set(crc.valid.andNot(endPop.andNot(endQ.m.valid)));
        assignLeaves(endQ.s.payload, crc.end);
        when(take, () -> {
            when(oL, () -> {
                acc.set(0);
                aborted.set(FALSE);
            }).elseWhen(deliverable, () -> {
                acc.set(acc.add(nb));
                when(abortNow, () -> aborted.set(TRUE));
            });
        });
        assertThat(crc.valid.not().or(endQ.s.ready).or(endPop.andNot(endQ.m.valid)), "end record FIFO overflow");
    }
}
