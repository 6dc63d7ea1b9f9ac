// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.rtl.xpu.CreditRelease;
import java.util.ArrayList;
import java.util.List;

/**
 * The queue manager's credit return (a stage of {@link TxQueueManager}, built in its
 * constructor): counts the command and data credits of ops that left the buffer or were refused,
 * per {VC, kind}, and hands them back on {@code release}, one message per cycle, round robin over
 * the non-empty accumulators (at most 4095 credits per message).
 *
 * <p>Its inputs are registered first: a PDU's credits and a refused op's reach the accumulators a
 * cycle after the reader's / packer's decision, so neither decision's logic continues into the
 * 16-bit accumulator arithmetic.
 */
final class CreditReturn {
    static final int ACC_W = 16;

    /**
     * @param pduDone a PDU's last cell is read this cycle: {@code pduOps} command credits and
     *     {@code pduBeats} data credits of VC {@code pduVc} come back
     * @param refused an op was refused this cycle: 1 command and {@code refusedBeats} data credits
     *     of VC {@code refusedVc}
     */
    CreditReturn(int vcs, Flow<CreditRelease> release, Bool pduDone, UInt pduVc, UInt pduOps, UInt pduBeats,
            Bool refused, UInt refusedVc, UInt refusedBeats) {
        int slots = 2 * vcs;
        Bool doneQ = reg("rel_pdu_done", bool()).init(false);
        UInt opsQ = reg("rel_pdu_ops", uint(pduOps.width())).init(0);
        UInt beatsQ = reg("rel_pdu_beats", uint(pduBeats.width())).init(0);
        UInt vcQ = reg("rel_pdu_vc", uint(2)).init(0);
        doneQ.set(pduDone);
        opsQ.set(pduOps);
        beatsQ.set(pduBeats);
        vcQ.set(pduVc.resize(2));
        Bool refQ = reg("rel_refused", bool()).init(false);
        UInt refVcQ = reg("rel_refused_vc", uint(2)).init(0);
        UInt refBeatsQ = reg("rel_refused_beats", uint(refusedBeats.width())).init(0);
        refQ.set(refused);
        refVcQ.set(refusedVc.resize(2));
        refBeatsQ.set(refusedBeats);

        List<UInt> acc = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            acc.add(reg("rel_acc_" + i, uint(ACC_W)).init(0));
        }
        UInt relPtr = reg("rel_ptr", uint(log2Up(slots))).init(0);
        // rel_ptr again as one flag per slot: an accumulator's update depends on its own flag and
        // value only, not on the pointer's multiplexer over every accumulator (timing, issue 13)
        List<Bool> relSel = new ArrayList<>();
        for (int i = 0; i < slots; i++) {
            relSel.add(reg("rel_sel_" + i, bool()).init(i == 0));
        }
        for (int i = 0; i < slots; i++) {
            relSel.get(i).set(relSel.get((i + slots - 1) % slots));
        }
        Bool relGo = FALSE;
        for (int i = 0; i < slots; i++) {
            relGo = relGo.or(relSel.get(i).and(acc.get(i).ne(0)));
        }
        relGo = relGo.named("rel_go");
        UInt accSel = Vec.of(acc).get(relPtr).named("rel_acc_sel");
        UInt relCnt = mux(accSel.gt(4095), U(4095, ACC_W), accSel).named("rel_cnt");
        Bool relV = reg("rel_valid", bool()).init(false);
        UInt relVc = reg("rel_vc", uint(2)).init(0);
        Bool relKind = reg("rel_kind", bool()).init(false);
        UInt relCount = reg("rel_count", uint(TxQueueManager.REL_W)).init(0);
        relV.set(relGo);
        relVc.set(slots == 2 ? U(0, 2) : relPtr.shr(1).resize(2));
        relKind.set(relPtr.bit(0));
        relCount.set(relCnt.resize(TxQueueManager.REL_W));
        relPtr.set(mux(relPtr.eq(slots - 1), U(0, relPtr.width()), relPtr.add(1)));
        release.valid.set(relV);
        release.payload.vc.set(relVc);
        release.payload.kind.set(relKind);
        release.payload.count.set(relCount);
        for (int i = 0; i < slots; i++) {
            final int vc = i >> 1;
            final boolean isData = (i & 1) == 1;
            UInt a = acc.get(i);
            Bool mine = vcQ.eq(vc).and(doneQ);
            UInt add1 = mux(mine, isData ? beatsQ.resize(ACC_W) : opsQ.resize(ACC_W), U(0, ACC_W));
            Bool refMine = refQ.and(refVcQ.eq(vc));
            UInt add2 = mux(refMine, isData ? refBeatsQ.resize(ACC_W) : U(1, ACC_W), U(0, ACC_W));
            // the slot served keeps what is over one message (4095), otherwise nothing
            UInt kept = mux(a.gt(4095), a.sub(4095), U(0, ACC_W));
            a.set(mux(relSel.get(i), kept, a).add(add1).add(add2));
        }
    }
}
