// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.arbiter.Arbiter;
import dev.sue.hdl.lib.arbiter.ArbiterPolicy;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.rtl.xpu.XpuTxBus;
import java.util.ArrayList;
import java.util.List;

/**
 * The bridge as the XPU of SUE's TX interface (a part of {@link AxiXpuBridge}, registers named
 * {@code send_*}): round robin over the op sources, an op starts only when the XPU-side credits of
 * its VC cover it (one command credit, and a data credit per beat), and then its beats leave on
 * consecutive cycles (Table 1 forbids idle cycles inside an op). A source must offer an op's later
 * beats back to back once its first beat is taken: every source holds the whole op before it
 * offers the first beat. Every {@code tx_*} output is a register.
 *
 * <p>Credits: none after reset; each {@code tx_credit} message adds 1..4 (SUE advertises its
 * initial credits that way, {@code cmdCredits} and {@code dataCredits} per VC, which size the
 * counters: SUE never gives more). Nothing is sent while {@code tx_reset_out} is 1.
 */
final class OpSender {
    private static final int VCS = 2;

    OpSender(XpuTxBus tx, List<Stream<OpBeat>> sources, int[] vcOf, int cmdCredits, int dataCredits) {
        int n = sources.size();
        int cw = bitsFor(Math.max(cmdCredits, dataCredits));
        int maxBeats = 1 << sources.get(0).payload.lastBeat.width();
        List<UInt> cmd = new ArrayList<>();
        List<UInt> data = new ArrayList<>();
        List<Bool> hasCmd = new ArrayList<>();
        List<List<Bool>> hasData = new ArrayList<>();
        for (int v = 0; v < VCS; v++) {
            cmd.add(reg("send_cmd_credits_" + v, uint(cw)).init(0));
            data.add(reg("send_data_credits_" + v, uint(cw)).init(0));
            hasCmd.add(reg("send_has_cmd_" + v, bool()).init(false));
            List<Bool> flags = new ArrayList<>();
            for (int k = 1; k <= maxBeats; k++) {
                flags.add(reg("send_has_data_" + v + "_" + k, bool()).init(false));
            }
            hasData.add(flags);
        }
        Bool busy = reg("send_busy", bool()).init(false);
        UInt cur = reg("send_source", uint(log2Up(n))).init(0);
        UInt cycle = reg("send_cycle", uint(XpuTxBus.CYCLE_BITS)).init(0);
        // An op started one or two cycles ago: its credits are not yet off the flags (the change
        // is registered as a delta first, then added), so no op starts now.
        Bool startedQ = reg("send_started", bool()).init(false);
        Bool startedQQ = reg("send_started_2", bool()).init(false);
        UInt startedVcQ = reg("send_started_vc", uint(1)).init(0);
        Bool startedDataQ = reg("send_started_data", bool()).init(false);
        UInt startedBeatsQ = reg("send_started_beats", uint(cw)).init(0);

        // ---- the next op: a source whose first beat waits and whose credits suffice (flags) -------
        List<Bool> eligible = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            OpBeat head = sources.get(i).payload;
            int v = vcOf[i];
            Bool dataOk = head.dataOp.not().or(Vec.of(hasData.get(v)).get(head.lastBeat));
            eligible.add(sources.get(i).valid.and(hasCmd.get(v)).and(dataOk).named("send_eligible_" + i));
        }
        Arbiter arb = instance("send_arb", () -> new Arbiter(n, ArbiterPolicy.ROUND_ROBIN));
        Bool idle = busy.not().andNot(startedQ).andNot(startedQQ).and(tx.resetOut.not()).named("send_idle");
        List<Bool> requests = new ArrayList<>();
        for (Bool e : eligible) {
            requests.add(e.and(idle));
        }
        arb.request.set(OneHot.fromBools(requests));
        Bool start = arb.grant.ne(0).named("send_start");
        arb.advance.set(start);

        UInt sel = mux(busy, cur, arb.grantIndex).named("send_sel");
        List<OpBeat> payloads = new ArrayList<>();
        List<Bool> valids = new ArrayList<>();
        for (Stream<OpBeat> s : sources) {
            payloads.add(s.payload);
            valids.add(s.valid);
        }
        Bits selOneHot = mux(busy, OneHot.decode(cur, n), arb.grant).named("send_sel_onehot");
        OpBeat beat = wire(sources.get(0).newPayload()).named("send_beat");
        assignFromBits(beat, OneHot.select(selOneHot, payloads));
        Bool fire = start.or(busy).named("send_fire");
        assertThat(busy.not().or(Vec.of(valids).get(sel)), "an op source paused inside an op");
        for (int i = 0; i < n; i++) {
            sources.get(i).ready.set(fire.and(sel.eq(i)));
        }
        when(fire, () -> {
            busy.set(beat.last.not());
            cur.set(sel);
            cycle.set(mux(beat.last, U(0, XpuTxBus.CYCLE_BITS), cycle.add(1)));
        });

        // ---- tx_*: one registered beat ------------------------------------------------------------
        List<UInt> vcs = new ArrayList<>();
        for (int v : vcOf) {
            vcs.add(U(v, XpuTxBus.VC_BITS));
        }
        TxBeat next = wire(new TxBeat(tx.dataWidth())).named("send_next");
        next.valid.set(mux(fire, mux(beat.dataOp, B(2, 2), B(1, 2)), B(0, 2)));
        next.cycle.set(cycle);
        next.vc.set(Vec.of(vcs).get(sel));
        next.xpuid.set(beat.xpuid);
        next.control.set(beat.control);
        next.data.set(beat.data);
        TxBeat sent = regNext(next).named("send_tx");
        sent.valid.init(0);
        sent.driveOnto(tx);

        // ---- credits: returned by tx_credit, taken the cycle after an op's start; each cycle's
        // ---- change is registered as a delta (mod 2^cw) and added the cycle after ---------------
        UInt startVc = Vec.of(vcs).get(arb.grantIndex);
        startedQ.set(start);
        startedQQ.set(startedQ);
        startedVcQ.set(startVc.resize(1));
        startedDataQ.set(beat.dataOp);
        startedBeatsQ.set(beat.lastBeat.resize(cw).add(1));
        Bool back = tx.credit.bit(5);
        Bool backData = tx.credit.bit(4);
        UInt backVc = tx.credit.slice(3, 2).asUInt();
        UInt backCount = tx.credit.slice(1, 0).asUInt().resize(cw).add(1);
        int lowBits = bitsFor(maxBeats);
        for (int v = 0; v < VCS; v++) {
            Bool mine = back.and(backVc.eq(v));
            Bool taken = startedQ.and(startedVcQ.eq(v));
            UInt c = cmd.get(v);
            UInt d = data.get(v);
            UInt cDelta = reg("send_cmd_delta_" + v, uint(cw)).init(0);
            UInt dDelta = reg("send_data_delta_" + v, uint(cw)).init(0);
            cDelta.set(mux(mine.andNot(backData), backCount, U(0, cw)).sub(mux(taken, U(1, cw), U(0, cw))));
            dDelta.set(mux(mine.and(backData), backCount, U(0, cw))
                    .sub(mux(taken.and(startedDataQ), startedBeatsQ, U(0, cw))));
            UInt cNext = c.add(cDelta).named("send_cmd_next_" + v);
            UInt dNext = d.add(dDelta).named("send_data_next_" + v);
            c.set(cNext);
            d.set(dNext);
            hasCmd.get(v).set(cNext.ne(0));
            // "at least k" for k <= maxBeats: the bits above maxBeats' width, or the low bits
            Bool high = cw > lowBits ? dNext.slice(cw - 1, lowBits).ne(0) : FALSE;
            UInt low = dNext.slice(Math.min(cw, lowBits) - 1, 0);
            for (int k = 1; k <= maxBeats; k++) {
                hasData.get(v).get(k - 1).set(high.or(low.ge(k)));
            }
        }
    }
}
