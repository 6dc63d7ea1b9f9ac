// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.xpu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.arbiter.Arbiter;
import dev.sue.hdl.lib.arbiter.ArbiterPolicy;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.util.OneHot;
import java.util.ArrayList;
import java.util.List;

/**
 * The credit books of {@link XpuTxInterface} (a part of it, built in its constructor, registers
 * named {@code credit_*}): per slot {VC, kind} the credits the XPU holds ({@code balance}) and
 * the credits owed to it ({@code pending}), and the credit messages on {@code tx_credit}.
 *
 * <p>Built in two steps because the beat checks read the books and write them back: the
 * constructor makes the state, {@link #cmdAvail}/{@link #dataAvail} read it, {@link #account}
 * adds this cycle's events.
 *
 * <h2>Timing</h2>
 * Every decision reads registers only, so nothing of the beat checks reaches the counters'
 * arithmetic, and the arithmetic never reaches the arbiter:
 * <ul>
 * <li>"the XPU holds a credit" is a flag per slot kept beside the balance: the next flag is
 *     chosen between "balance + delivered >= 1" and "... >= 2" by the beat's take, both gates on
 *     registers (the message and the balance), not compares after the sum; the next balance is
 *     the balance plus what is delivered, with and without the take (two carry chains on
 *     registers), chosen by the take after them.
 * <li>Credits coming back (releases, refunds of dropped and aborted ops, credits taken back by
 *     {@code tx_reset_in}) are registered as events, summed per slot into {@code credit_inc_*}
 *     the next cycle, and added to {@code pending} the cycle after: they reach the XPU three
 *     cycles later than a direct update would (a release from the port two).
 * <li>The round-robin arbiter over the slots reads registered request flags and message counts
 *     ({@code min(pending, 4)}, computed from the next {@code pending}). A slot granted in
 *     cycle t has its count subtracted at t+1 and asks again from t+2; it gets at most 4 credits
 *     every second cycle, 2 per cycle, twice what the XPU can spend on one slot.
 *     {@code tx_reset_in} (an input port) stays off the requests: it cancels the grant after
 *     the arbiter (no message, nothing counted as sent, the pointer not moved), which is what
 *     masking every request would do, at one gate from the port.
 * </ul>
 */
final class XpuTxCredits {
    private static final int SLOTS = 2 * XpuTxInterface.VCS;
    /** Credits per message at most (the message's count field is count-1, 2 bits). */
    private static final int MESSAGE_MAX = 4;

    /** The credit message register, {@code tx_credit}: {valid, kind, vc[1:0], count-1[1:0]}. */
    final Bits message = reg("credit_q", bits(XpuTxBus.CREDIT_BITS)).init(0);

    private final int cw;
    private final int[] initial = new int[SLOTS];
    private final List<UInt> balance = new ArrayList<>();
    private final List<Bool> holds = new ArrayList<>();
    private final List<UInt> pending = new ArrayList<>();

    /**
     * @param vcs VCs in use: slots of VCs {@code >= vcs} start (and stay) without credits
     * @param cw bits of a credit count (holds {@code max(cmdCredits, dataCredits)})
     */
    XpuTxCredits(int vcs, int cmdCredits, int dataCredits, int cw) {
        this.cw = cw;
        for (int s = 0; s < SLOTS; s++) {
            initial[s] = (s >> 1) >= vcs ? 0 : (s & 1) == 0 ? cmdCredits : dataCredits;
            balance.add(reg("balance_" + s, uint(cw)).init(0));
            holds.add(reg("balance_nz_" + s, bool()).init(false));
            pending.add(reg("pending_" + s, uint(cw)).init(initial[s]));
        }
    }

    /** The XPU holds a command credit of {@code vc} (registered). */
    Bool cmdAvail(UInt vc) {
        return Vec.of(List.of(holds.get(0), holds.get(2), holds.get(4), holds.get(6))).get(vc);
    }

    /** The XPU holds a data credit of {@code vc} (registered). */
    Bool dataAvail(UInt vc) {
        return Vec.of(List.of(holds.get(1), holds.get(3), holds.get(5), holds.get(7))).get(vc);
    }

    /**
     * This cycle's events.
     *
     * @param takeCmd a command credit of {@code cmdVc} is spent
     * @param takeData a data credit of {@code dataVc} is spent
     * @param refundCmd the command credit spent this cycle comes back (its op is dropped)
     * @param refundData the data credit spent this cycle comes back
     * @param abort the held op is aborted: its command credit and {@code abortBeats} data credits
     *     of {@code abortVc} come back
     * @param release credits freed by the buffer behind
     * @param resetIn {@code tx_reset_in}: every credit the XPU holds comes back, and no message
     *     goes out (it only cancels the arbiter's grant: the requests never wait for this input)
     * @param sendEnable credit messages may go out (from registers)
     */
    void account(Bool takeCmd, UInt cmdVc, Bool takeData, UInt dataVc, Bool refundCmd, Bool refundData,
            Bool abort, UInt abortVc, UInt abortBeats, Flow<CreditRelease> release, Bool resetIn,
            Bool sendEnable) {
        int ww = Math.max(cw, abortBeats.width()) + 2;

        // ---- returns, registered as events ----------------------------------------------------
        Bool refundCmdQ = reg("credit_refund_cmd", bool()).init(false);
        UInt refundCmdVcQ = reg("credit_refund_cmd_vc", uint(2)).init(0);
        Bool refundDataQ = reg("credit_refund_data", bool()).init(false);
        UInt refundDataVcQ = reg("credit_refund_data_vc", uint(2)).init(0);
        Bool abortQ = reg("credit_abort", bool()).init(false);
        UInt abortVcQ = reg("credit_abort_vc", uint(2)).init(0);
        UInt abortBeatsQ = reg("credit_abort_beats", uint(abortBeats.width())).init(0);
        refundCmdQ.set(refundCmd);
        refundCmdVcQ.set(cmdVc);
        refundDataQ.set(refundData);
        refundDataVcQ.set(dataVc);
        abortQ.set(abort);
        abortVcQ.set(abortVc);
        abortBeatsQ.set(abortBeats);

        // ---- the message: round robin over the slots that ask ---------------------------------
        List<Bool> asks = new ArrayList<>();
        List<UInt> counts = new ArrayList<>();
        List<Bool> cooling = new ArrayList<>();
        for (int s = 0; s < SLOTS; s++) {
            int init = initial[s];
            asks.add(reg("credit_ask_" + s, bool()).init(init > 0));
            counts.add(reg("credit_count_" + s, uint(2)).init(Math.max(0, Math.min(init, MESSAGE_MAX) - 1)));
            cooling.add(reg("credit_cooling_" + s, bool()).init(false));
        }
        List<Bool> requests = new ArrayList<>();
        for (int s = 0; s < SLOTS; s++) {
            requests.add(asks.get(s).andNot(cooling.get(s)).and(sendEnable));
        }
        Arbiter arb = instance("credit_arb", () -> new Arbiter(SLOTS, ArbiterPolicy.ROUND_ROBIN));
        arb.request.set(OneHot.fromBools(requests));
        Bool send = arb.grant.ne(0).andNot(resetIn).named("credit_send");
        arb.advance.set(send);
        UInt sel = arb.grantIndex;
        UInt sendCount = Vec.of(counts).get(sel).named("credit_send_count");
        message.set(mux(send, cat(TRUE, sel.bit(0), sel.slice(2, 1), sendCount), B(0, XpuTxBus.CREDIT_BITS)));
        Bool delivered = message.bit(5);
        UInt deliveredCount = message.slice(1, 0).asUInt().resize(3).add(1);

        // ---- per slot -------------------------------------------------------------------------
        for (int s = 0; s < SLOTS; s++) {
            final int vc = s >> 1;
            final boolean data = (s & 1) == 1;
            UInt ba = balance.get(s);
            UInt pe = pending.get(s);

            // what the XPU holds: two carry chains on registers (the balance plus what arrives,
            // with and without the take) and the take choosing after them, so the beat's decision
            // (from the input ports) never feeds a chain: in front of one, ABC let it grow to the
            // design's bound and the chain came on top (8.75 at 1024 bits); the flag from gates
            // beside them, since a compare after the sum would be another chain
            Bool mine = delivered.and(message.slice(4, 2).eq(s >> 1 | (s & 1) << 2));
            Bool consume = data ? takeData.and(dataVc.eq(vc)) : takeCmd.and(cmdVc.eq(vc));
            UInt arriving = mux(mine, deliveredCount, U(0, 3)).resize(cw + 1);
            // arriving - 1: the message's count field (count - 1), or all ones (-1)
            UInt arrivingLessOne = mux(mine, message.slice(1, 0).asUInt().resize(cw + 1),
                    U((1L << (cw + 1)) - 1, cw + 1));
            UInt held = ba.resize(cw + 1).add(arriving).named("balance_held_" + s);
            UInt heldLessOne = ba.resize(cw + 1).add(arrivingLessOne).named("balance_taken_" + s);
            UInt balanceNext = mux(resetIn, U(0, cw), mux(consume, heldLessOne, held).resize(cw))
                    .named("balance_next_" + s);
            ba.set(balanceNext);
            // held >= 1: a message arrives (1..4 credits) or the balance is non-zero;
            // held >= 2: a message of 2..4, or one of 1 onto a non-zero balance, or a balance >= 2
            Bool balanceNz = ba.ne(0);
            Bool balanceTwo = cw > 1 ? ba.slice(cw - 1, 1).ne(0) : FALSE;
            Bool heldOne = mine.or(balanceNz);
            Bool heldTwo = mux(mine, message.slice(1, 0).ne(0).or(balanceNz), balanceTwo);
            holds.get(s).set(resetIn.not().and(mux(consume, heldTwo, heldOne)));
            UInt reclaimQ = reg("credit_reclaim_" + s, uint(cw)).init(0);
            reclaimQ.set(mux(resetIn, held.resize(cw), U(0, cw)));

            // what is owed to the XPU: events of the last cycle summed, then added
            Bool rel = release.valid.and(release.payload.vc.eq(vc))
                    .and(data ? release.payload.kind : release.payload.kind.not());
            UInt relCount = mux(rel, release.payload.count, U(0, cw)).resize(ww);
            UInt refundAbort = mux(abortQ.and(abortVcQ.eq(vc)), data ? abortBeatsQ.resize(ww) : U(1, ww), U(0, ww));
            Bool refundOne = data ? refundDataQ.and(refundDataVcQ.eq(vc)) : refundCmdQ.and(refundCmdVcQ.eq(vc));
            UInt incQ = reg("credit_inc_" + s, uint(ww)).init(0);
            incQ.set(relCount.add(refundAbort).add(refundOne.asUInt().resize(ww).add(reclaimQ.resize(ww))));
            Bool granted = arb.grant.bit(s).andNot(resetIn);
            UInt sentQ = reg("credit_sent_" + s, uint(3)).init(0);
            sentQ.set(mux(granted, counts.get(s).resize(3).add(1), U(0, 3)));
            cooling.get(s).set(granted);
            UInt next = pe.resize(ww).add(incQ).sub(sentQ.resize(ww)).named("pending_next_" + s);
            pe.set(next.resize(cw));
            asks.get(s).set(next.ne(0));
            counts.get(s).set(mux(next.ge(MESSAGE_MAX), U(MESSAGE_MAX - 1, 2), next.resize(2).sub(1)));
            assertThat(next.add(balanceNext.resize(ww)).le(initial[s]),
                    "credits above the initial count for slot " + s + " (release of credits never taken?)");
        }
    }
}
