// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.ports;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.arbiter.Arbiter;
import dev.sue.hdl.lib.arbiter.ArbiterPolicy;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.rtl.xpu.XpuRxBus;
import dev.sue.rtl.xpu.XpuTxBus;
import java.util.ArrayList;
import java.util.List;

/**
 * The XPU RX side of a multi-port endpoint (sue-rtl/DESIGN-PORTS.md): the planes' XPU RX
 * interfaces ({@code plane_<p>_*}, each from a plane's {@code SueRx}) in, one XPU RX interface
 * (spec Table 2, {@code rx_*}) out, whole ops, round robin.
 *
 * <h2>Credits</h2>
 * The XPU's credits are the merger's: it keeps them per {VC, kind} and starts an op only when
 * they cover it whole (one command credit, and a data credit per beat for an op with data), so
 * the XPU sees the interface and credit rules of one plane. Each plane gets credits for a FIFO of
 * its own per VC: {@link #CMD_CREDITS} command credits and {@link #dataCredits} data credits,
 * a FIFO of their sum in beats (a beat takes a command credit, a data credit or both), returned
 * as the merger sends the beats on. So a VC whose XPU credits run out, or a plane whose ops
 * wait, holds only its own FIFO: no plane or VC waits behind another.
 *
 * <h2>Order</h2>
 * A source sends all its ops to this endpoint over one plane (strict mode), a plane delivers them
 * in order per {source, VC}, and a FIFO per {plane, VC} keeps that order: so the XPU gets every
 * source's ops in order per VC. Ops of different planes interleave (whole ops).
 *
 * <h2>Timing</h2>
 * A plane's beats are registered once (so that {@code last} is known: the next beat is not a
 * continuation), then written into the FIFO of their VC; the op's entry ({@link MergeOp}) joins
 * its FIFO with its last beat. An op is granted (round robin over the FIFOs whose head op the
 * XPU's credits cover) while the one before sends its last beat, so ops follow back to back, and
 * sent from the next cycle on consecutive cycles; the credits it takes leave the counts a cycle
 * after the grant, and meanwhile its VC asks for nothing (two one-beat ops of one VC are a cycle
 * apart). A request compares only the low bits of the counts, beside flags registered from them
 * (below), so the round robin over 16 queues (4 ports x 4 VCs) stays within the depth budget. The
 * output is registered, all zero while {@code rx_valid = 0}. {@code rx_reset_in} drops the XPU's
 * credits (as one plane would); {@code rx_reset_out} is 1 in reset and the cycle after
 * {@code rx_reset_in}.
 */
public final class RxMerger extends Component {
    /** Command credits per plane and VC (ops waiting in the merger). */
    public static final int CMD_CREDITS = 8;

    /** To the XPU: ports {@code rx_*}. */
    public final XpuRxBus xpu;
    /** From the planes' receive paths: ports {@code plane_<p>_*}. */
    public final Vec<XpuRxBus> planes;

    /** Data credits per plane and VC: two of the longest ops, at least 8. */
    public static int dataCredits(int dataWidth) {
        int maxBeats = (XpuTxBus.MAX_DATA_BYTES + dataWidth / 8 - 1) / (dataWidth / 8);
        return Math.max(8, 2 * maxBeats);
    }

    public RxMerger(int dataWidth, int vcs, int ports) {
        param("dataWidth", dataWidth);
        param("vcs", vcs);
        param("ports", ports);
        require(ports == 2 || ports == 4, "a merger serves 2 or 4 ports, got " + ports);
        require(vcs == 1 || vcs == 2 || vcs == 4, "vcs must be 1, 2 or 4, got " + vcs);
        xpu = master(new XpuRxBus(dataWidth).named("rx"));
        planes = slave(Vec.of(ports, i -> new XpuRxBus(dataWidth))).named("plane");
        int dataCredits = dataCredits(dataWidth);
        int depth = CMD_CREDITS + dataCredits;
        int queues = ports * vcs;
        int qb = log2Up(queues);

        // ---- per plane: register the beat, then its VC's FIFO ---------------------------------
        List<StreamFifo<MergeBeat>> beats = new ArrayList<>();
        List<Stream<MergeOp>> ops = new ArrayList<>();
        for (int p = 0; p < ports; p++) {
            XpuRxBus in = planes.get(p);
            in.resetIn.set(FALSE);
            Bits validQ = reg("p" + p + "_valid_q", bits(2)).init(0);
            validQ.set(in.valid);
            UInt cycleQ = regNext(in.cycle).named("p" + p + "_cycle_q");
            UInt vcQ = regNext(in.vc).named("p" + p + "_vc_q");
            UInt xpuidQ = regNext(in.xpuid).named("p" + p + "_xpuid_q");
            Bits controlQ = regNext(in.control).named("p" + p + "_control_q");
            Bits dataQ = regNext(in.data).named("p" + p + "_data_q");
            // a plane sends an op's beats on consecutive cycles: the next beat not a continuation = last
            Bool lastQ = in.valid.ne(0).and(in.cycle.ne(0)).not().named("p" + p + "_last");
            for (int v = 0; v < vcs; v++) {
                final int q = p * vcs + v;
                StreamFifo<MergeBeat> f = instance("beats_" + q, () -> new StreamFifo<>(() -> new MergeBeat(dataWidth),
                        depth, FifoStorage.RAM, depth));
                StreamFifo<MergeOp> o = instance("ops_" + q, () -> new StreamFifo<>(MergeOp::new, CMD_CREDITS,
                        FifoStorage.REGISTERS, CMD_CREDITS));
                Bool push = validQ.ne(0).and(vcQ.eq(v)).named("push_" + q);
                f.s.valid.set(push);
                f.s.payload.rxValid.set(validQ);
                f.s.payload.cycle.set(cycleQ);
                f.s.payload.vc.set(vcQ);
                f.s.payload.xpuid.set(xpuidQ);
                f.s.payload.control.set(controlQ);
                f.s.payload.data.set(dataQ);
                f.s.payload.last.set(lastQ);
                o.s.valid.set(push.and(lastQ));
                o.s.payload.beats.set(cycleQ.resize(XpuTxBus.CYCLE_BITS + 1).add(1));
                o.s.payload.data.set(validQ.eq(2));
                assertThat(push.not().or(f.s.ready).and(push.and(lastQ).not().or(o.s.ready)),
                        "a plane sent beats beyond the merger's credits");
                beats.add(f);
                // the head op from a register: the requests start from flip-flops
                ops.add(o.m.m2sPipe());
            }
        }

        // ---- the XPU's credits ----------------------------------------------------------------
        int cw = 16;
        Bits creditQ = reg("xpu_credit_q", bits(XpuTxBus.CREDIT_BITS)).init(0);
        creditQ.set(xpu.credit);
        Bool resetIn = xpu.resetIn;
        List<UInt> cmdHeld = new ArrayList<>();
        List<UInt> dataHeld = new ArrayList<>();
        // Beside each count a flag registered from its value (not its next one: no adder before
        // it): "at least 2 command credits" and "at least 2^bigBits data credits" a cycle ago. A
        // cycle takes at most one op (1 command credit, at most 2^CYCLE_BITS < 2^bigBits data
        // credits) and gives at most 4 of each, so with the flag set the count still covers any
        // op, and with it clear the count is below 8 (commands) or 2^(bigBits + 1) (data): a
        // request compares only those low bits of the counts.
        int bigBits = XpuTxBus.CYCLE_BITS + 1;
        List<Bool> cmdBig = new ArrayList<>();
        List<Bool> dataBig = new ArrayList<>();
        for (int v = 0; v < 1 << XpuTxBus.VC_BITS; v++) {
            cmdHeld.add(v < vcs ? reg("xpu_cmd_" + v, uint(cw)).init(0) : U(0, cw));
            dataHeld.add(v < vcs ? reg("xpu_data_" + v, uint(cw)).init(0) : U(0, cw));
            cmdBig.add(v < vcs ? reg("xpu_cmd_big_" + v, bool()).init(false) : FALSE);
            dataBig.add(v < vcs ? reg("xpu_data_big_" + v, bool()).init(false) : FALSE);
        }

        // ---- arbitration: whole ops whose credits the XPU has given ----------------------------
        // An op granted in cycle t is sent from t+1 on (from cur, a register) and its credits are taken
        // at t+1 (from registers), so in t+1 its VC asks no more: the counts do not show the op yet.
        Bool busy = reg("busy", bool()).init(false);
        UInt cur = reg("cur", uint(qb)).init(0);
        Bool startQ = reg("start_q", bool()).init(false);
        UInt startVcQ = reg("start_vc_q", uint(XpuTxBus.VC_BITS)).init(0);
        List<MergeBeat> heads = new ArrayList<>();
        for (int q = 0; q < queues; q++) {
            heads.add(beats.get(q).m.payload);
        }
        MergeBeat head = wire("head", new MergeBeat(dataWidth));
        head.rxValid.set(Vec.of(heads.stream().map(h -> h.rxValid).toList()).get(cur));
        head.cycle.set(Vec.of(heads.stream().map(h -> h.cycle).toList()).get(cur));
        head.vc.set(Vec.of(heads.stream().map(h -> h.vc).toList()).get(cur));
        head.xpuid.set(Vec.of(heads.stream().map(h -> h.xpuid).toList()).get(cur));
        head.control.set(Vec.of(heads.stream().map(h -> h.control).toList()).get(cur));
        head.data.set(Vec.of(heads.stream().map(h -> h.data).toList()).get(cur));
        head.last.set(Vec.of(heads.stream().map(h -> h.last).toList()).get(cur));
        Bool headValid = Vec.of(beats.stream().map(f -> f.m.valid).toList()).get(cur);
        Bool pop = busy;
        assertThat(pop.not().or(headValid), "an op's next beat is not in the merger's FIFO");
        Bool free = busy.not().or(head.last).named("free");

        // A queue asks while its head op is whole and covered; whether the output is free is
        // applied to the start only (the grant is used only then), off the arbiter's inputs.
        List<Bool> requests = new ArrayList<>();
        for (int q = 0; q < queues; q++) {
            int v = q % vcs;
            MergeOp op = ops.get(q).payload;
            Bool cmdCovered = cmdBig.get(v).or(cmdHeld.get(v).resize(3).ne(0));
            Bool dataCovered = dataBig.get(v).or(dataHeld.get(v).resize(bigBits + 1).ge(op.beats.resize(bigBits + 1)));
            Bool justTaken = startQ.and(startVcQ.eq(v));
            requests.add(ops.get(q).valid.and(beats.get(q).m.valid).and(cmdCovered)
                    .and(op.data.not().or(dataCovered)).andNot(justTaken).named("ready_op_" + q));
        }
        Arbiter arb = instance("arb", () -> new Arbiter(queues, ArbiterPolicy.ROUND_ROBIN));
        arb.request.set(OneHot.fromBools(requests));
        // the arbiter grants whenever anything asks: "start" from the requests, beside the arbiter
        Bool start = OneHot.fromBools(requests).ne(0).and(free).named("start");
        arb.advance.set(start);
        UInt granted = arb.grantIndex.resize(qb);
        when(start, () -> cur.set(granted));
        busy.set(start.or(busy.andNot(head.last)));
        for (int q = 0; q < queues; q++) {
            beats.get(q).m.ready.set(pop.and(cur.eq(q)));
            // the op's entry leaves a cycle after the grant, when its credits are taken
            ops.get(q).ready.set(startQ.and(cur.eq(q)));
        }

        // the credits an op takes, a cycle after its grant (its entry still heads the FIFO of cur)
        startQ.set(start);
        // queue q = p * vcs + v
        startVcQ.set(vcs == 1 ? U(0, XpuTxBus.VC_BITS) : granted.resize(log2Up(vcs)).resize(XpuTxBus.VC_BITS));
        UInt startBeats = Vec.of(ops.stream().map(o -> o.payload.beats).toList()).get(cur).named("start_beats");
        Bool startData = Vec.of(ops.stream().map(o -> o.payload.data).toList()).get(cur).named("start_data");
        for (int v = 0; v < vcs; v++) {
            Bool mine = startQ.and(startVcQ.eq(v));
            Bool inCmd = creditQ.bit(5).and(creditQ.bit(4).not()).and(creditQ.slice(3, 2).asUInt().eq(v));
            Bool inData = creditQ.bit(5).and(creditQ.bit(4)).and(creditQ.slice(3, 2).asUInt().eq(v));
            UInt count = creditQ.slice(1, 0).asUInt().resize(cw).add(1);
            UInt cmd = cmdHeld.get(v);
            UInt dat = dataHeld.get(v);
            cmd.set(mux(resetIn, U(0, cw), cmd.add(mux(inCmd, count, U(0, cw))).sub(mux(mine, U(1, cw), U(0, cw)))));
            dat.set(mux(resetIn, U(0, cw), dat.add(mux(inData, count, U(0, cw)))
                    .sub(mux(mine.and(startData), startBeats.resize(cw), U(0, cw)))));
            cmdBig.get(v).set(resetIn.not().and(cmd.ge(2)));
            dataBig.get(v).set(resetIn.not().and(dat.shr(bigBits).ne(0)));
        }

        // ---- the output register ----------------------------------------------------------------
        Bits outValid = reg("out_valid", bits(2)).init(0);
        outValid.set(mux(pop, head.rxValid, B(0, 2)));
        xpu.valid.set(outValid);
        xpu.cycle.set(regNext(mux(pop, head.cycle, U(0, XpuTxBus.CYCLE_BITS))).named("out_cycle"));
        xpu.vc.set(regNext(mux(pop, head.vc, U(0, XpuTxBus.VC_BITS))).named("out_vc"));
        xpu.xpuid.set(regNext(mux(pop, head.xpuid, U(0, XpuTxBus.XPUID_BITS))).named("out_xpuid"));
        xpu.control.set(regNext(mux(pop, head.control, B(0, XpuTxBus.CONTROL_BITS))).named("out_control"));
        xpu.data.set(regNext(mux(pop, head.data, B(0, dataWidth))).named("out_data"));
        Bool resetOut = reg("reset_out_q", bool()).init(true);
        resetOut.set(resetIn);
        xpu.resetOut.set(resetOut);

        // ---- credits back to each plane as its beats leave ----------------------------------------
        for (int p = 0; p < ports; p++) {
            long[] initial = new long[CreditMessages.SLOTS];
            List<UInt> inc = new ArrayList<>();
            for (int s = 0; s < CreditMessages.SLOTS; s++) {
                int v = s >> 1;
                boolean data = (s & 1) == 1;
                initial[s] = v < vcs ? (data ? dataCredits : CMD_CREDITS) : 0;
                if (v < vcs) {
                    Bool leaves = pop.and(cur.eq(p * vcs + v));
                    Bool takes = data ? head.rxValid.eq(2) : head.cycle.eq(0);
                    inc.add(leaves.and(takes).asUInt().named("p" + p + "_credit_inc_" + s));
                } else {
                    inc.add(U(0, 1));
                }
            }
            CreditMessages books = new CreditMessages("p" + p + "_credit", initial, bitsFor(depth + 8), inc, FALSE);
            planes.get(p).credit.set(books.message);
        }
        latency(2);
    }
}
