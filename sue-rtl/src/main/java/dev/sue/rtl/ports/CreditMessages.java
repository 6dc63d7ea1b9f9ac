// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.ports;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.arbiter.Arbiter;
import dev.sue.hdl.lib.arbiter.ArbiterPolicy;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.rtl.xpu.XpuTxBus;
import java.util.ArrayList;
import java.util.List;

/**
 * Credits owed to a credit-FIFO peer, per slot {VC, kind} (slot {@code 2 * vc + kind}, kind 0 =
 * command, 1 = data), and the messages that pay them in the spec's Table 1/2 format
 * {valid, kind, vc[1:0], count-1[1:0]} ({@link XpuTxBus#credit}). An area built inside a
 * component's constructor (registers {@code <prefix>_*}).
 *
 * <p>A slot may start in debt (a negative initial count: the {@link TxDispatcher} owes the XPU
 * nothing until the planes have advertised more than {@code (ports - 1) x credits}); the count is
 * kept unsigned with a bias of the largest debt, so "owed" is {@code acc - bias}.
 *
 * <h2>Timing</h2>
 * The increments are registered first (zero while {@code clear}), so a caller's logic ahead of them
 * never meets the count's arithmetic; they are owed a cycle later. Requests and message counts
 * are registered from the count register, not from the next count: a compare after the count's
 * three-operand sum would be a second carry chain on one path (the {@code sue_2x200g} dispatcher
 * measured 8.75 levels so). A slot granted in cycle t has its count subtracted at t+1, seen in
 * the count register at t+2 and in the request at t+3: it rests two cycles (at most 4 credits
 * every third cycle per slot, 1.33 per cycle, above the one beat per cycle a plane can take).
 * {@code clear} reloads every slot's initial count, drops the requests and cancels the grant
 * after the arbiter (no message, nothing subtracted).
 */
final class CreditMessages {
    static final int SLOTS = 8;
    static final int MESSAGE_MAX = 4;

    /** The message register: drive a credit port with it. */
    final Bits message;

    /**
     * @param prefix  register names
     * @param initial per slot, the credits owed after reset and after {@code clear} (may be negative)
     * @param accBits bits of a slot's biased count (holds {@code bias + the most owed})
     * @param inc     per slot, credits that become owed this cycle
     * @param clear   reload the initial counts, send nothing
     */
    CreditMessages(String prefix, long[] initial, int accBits, List<UInt> inc, Bool clear) {
        if (initial.length != SLOTS || inc.size() != SLOTS) {
            throw new IllegalArgumentException("credit messages need " + SLOTS + " slots");
        }
        long bias = 0;
        for (long v : initial) {
            bias = Math.max(bias, -v);
        }
        message = reg(prefix + "_q", bits(XpuTxBus.CREDIT_BITS)).init(0);
        List<Bool> asks = new ArrayList<>();
        List<UInt> counts = new ArrayList<>();
        List<Bool> cooling = new ArrayList<>();
        List<Bool> settling = new ArrayList<>();
        List<Bool> requests = new ArrayList<>();
        for (int s = 0; s < SLOTS; s++) {
            long init = initial[s];
            asks.add(reg(prefix + "_ask_" + s, bool()).init(init > 0));
            counts.add(reg(prefix + "_count_" + s, uint(2)).init(Math.max(0, Math.min(init, MESSAGE_MAX) - 1)));
            cooling.add(reg(prefix + "_cooling_" + s, bool()).init(false));
            settling.add(reg(prefix + "_settling_" + s, bool()).init(false));
            requests.add(asks.get(s).andNot(cooling.get(s)).andNot(settling.get(s)));
        }
        Arbiter arb = instance(prefix + "_arb", () -> new Arbiter(SLOTS, ArbiterPolicy.ROUND_ROBIN));
        arb.request.set(OneHot.fromBools(requests));
        Bool send = arb.grant.ne(0).andNot(clear).named(prefix + "_send");
        arb.advance.set(send);
        UInt sel = arb.grantIndex;
        UInt sendCount = Vec.of(counts).get(sel).named(prefix + "_send_count");
        message.set(mux(send, cat(TRUE, sel.bit(0), sel.slice(2, 1), sendCount), B(0, XpuTxBus.CREDIT_BITS)));

        for (int s = 0; s < SLOTS; s++) {
            long start = initial[s] + bias;
            UInt acc = reg(prefix + "_acc_" + s, uint(accBits)).init(start);
            Bool granted = arb.grant.bit(s).andNot(clear);
            UInt sentQ = reg(prefix + "_sent_" + s, uint(3)).init(0);
            sentQ.set(mux(granted, counts.get(s).resize(3).add(1), U(0, 3)));
            cooling.get(s).set(granted);
            settling.get(s).set(cooling.get(s));
            UInt incQ = reg(prefix + "_inc_q_" + s, uint(inc.get(s).width())).init(0);
            incQ.set(mux(clear, U(0, inc.get(s).width()), inc.get(s)));
            UInt next = mux(clear, U(start, accBits),
                    acc.add(incQ.resize(accBits)).sub(sentQ.resize(accBits))).named(prefix + "_next_" + s);
            acc.set(next);
            asks.get(s).set(acc.gt(bias).andNot(clear));
            UInt owed = acc.sub(bias).named(prefix + "_owed_" + s);
            counts.get(s).set(mux(acc.ge(bias + MESSAGE_MAX), U(MESSAGE_MAX - 1, 2), owed.resize(2).sub(1)));
        }
    }
}
