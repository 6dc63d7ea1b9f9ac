// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.rtl.xpu.XpuRxBus;
import dev.sue.rtl.xpu.XpuTxBus;
import java.util.ArrayList;
import java.util.List;

/**
 * The bridge as the XPU of SUE's RX interface (a part of {@link AxiXpuBridge}, registers named
 * {@code recv_*}): per VC (0 requests, 1 responses) a header buffer (one entry per op) and a data
 * buffer (one entry per data beat), the spec's per-channel interface buffers. SUE may only send
 * with credits, so the buffers never overflow: the bridge advertises each buffer's depth after
 * reset (command credits = header entries, data credits = data entries) and returns a credit per
 * entry popped. Credit messages ({@code rx_credit}, registered) visit the four {VC, kind} slots in
 * turn, up to 4 credits per message; none leave while {@code rx_reset_out} is 1.
 */
final class OpReceiver {
    private static final int VCS = 2;
    private static final int SLOTS = 2 * VCS;

    final List<Stream<OpHead>> heads = new ArrayList<>();
    final List<Stream<Bits>> data = new ArrayList<>();
    /** Beats on a VC the bridge never gave credits for (SUE never sends them). */
    /** Event: a beat on a VC the bridge does not use. */
    final Bool badVcEvent;

    OpReceiver(XpuRxBus rx, int headDepth, int dataDepth) {
        int n = rx.dataWidth();
        Bool beat = rx.valid.ne(0);
        Bool first = beat.and(rx.cycle.eq(0));
        Bool dataBeat = rx.valid.eq(2);
        List<Bool> pops = new ArrayList<>();
        for (int v = 0; v < VCS; v++) {
            final int vc = v;
            StreamFifo<OpHead> hq = instance("recv_head_" + v,
                    () -> new StreamFifo<>(OpHead::new, headDepth, FifoStorage.forDepth(headDepth), headDepth));
            StreamFifo<Bits> dq = instance("recv_data_" + v,
                    () -> new StreamFifo<>(() -> bits(n), dataDepth, FifoStorage.forDepth(dataDepth), dataDepth));
            Bool here = rx.vc.eq(vc);
            hq.s.valid.set(first.and(here));
            hq.s.payload.dataOp.set(dataBeat);
            hq.s.payload.xpuid.set(rx.xpuid);
            hq.s.payload.control.set(rx.control);
            dq.s.valid.set(dataBeat.and(here));
            dq.s.payload.set(rx.data);
            assertThat(hq.s.valid.not().or(hq.s.ready), "an op arrived without a command credit");
            assertThat(dq.s.valid.not().or(dq.s.ready), "a data beat arrived without a data credit");
            heads.add(hq.m);
            data.add(dq.m);
            // registered: the consumers' pop decisions are deep; a credit returns a cycle later
            Bool headPopped = reg("recv_popped_head_" + v, bool()).init(false);
            Bool dataPopped = reg("recv_popped_data_" + v, bool()).init(false);
            headPopped.set(hq.m.fire());
            dataPopped.set(dq.m.fire());
            pops.add(headPopped);
            pops.add(dataPopped);
        }
        badVcEvent = beat.and(rx.vc.ge(VCS)).named("recv_bad_vc");

        // ---- credits back to SUE: slot s = {vc = s / 2, kind = s % 2} ------------------------------
        int cw = bitsFor(Math.max(headDepth, dataDepth));
        UInt turn = reg("recv_credit_turn", uint(2)).init(0);
        turn.set(turn.add(1));
        List<UInt> owed = new ArrayList<>();
        for (int s = 0; s < SLOTS; s++) {
            owed.add(reg("recv_credit_owed_" + s, uint(cw)).init((s & 1) == 0 ? headDepth : dataDepth));
        }
        UInt due = Vec.of(owed).get(turn);
        Bool send = due.ne(0).andNot(rx.resetOut).named("recv_credit_send");
        UInt count = mux(due.ge(4), U(4, cw), due).named("recv_credit_count");
        Bits message = reg("recv_credit_q", bits(XpuTxBus.CREDIT_BITS)).init(0);
        message.set(mux(send, cat(TRUE, turn.bit(0), turn.slice(1, 1).resize(2), count.sub(1).slice(1, 0)),
                B(0, XpuTxBus.CREDIT_BITS)));
        rx.credit.set(message);
        rx.resetIn.set(false);
        for (int s = 0; s < SLOTS; s++) {
            UInt o = owed.get(s);
            Bool sent = send.and(turn.eq(s));
            o.set(o.add(pops.get(s).asUInt().resize(cw)).sub(mux(sent, count, U(0, cw))));
        }
    }
}
