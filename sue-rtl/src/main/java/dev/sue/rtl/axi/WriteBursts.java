// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.regif.Axi4;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.hdl.lib.util.OneHot;
import java.util.ArrayList;
import java.util.List;

/**
 * The slave's W channel buffer (a part of {@link AxiXpuBridge}, registers named {@code w_*}): W
 * beats into a data buffer, and per burst a {@link WBurst} summary once its {@code WLAST} beat is
 * in, so a write leaves only when its AW and all of its W beats are at the heads of their buffers
 * (spec 3.2.2). W may run ahead of AW up to the buffers' depth (AXI4 allows it); beyond, WREADY is
 * low until AWs arrive, which are always taken while the AW buffer has room, so it never hangs.
 *
 * <p>The strobes travel as a byte range, the lowest written lane of the first beat and the
 * highest of the last: a burst is {@code ok} when its first beat's strobes run from some lane to
 * the top, its middle beats' are all ones and its last beat's run from lane 0 (a one-beat burst:
 * one contiguous range), which is what an INCR burst of contiguous bytes has. Other patterns, and
 * bursts over {@code maxBeats} beats (the beats beyond are taken and discarded), are not
 * {@code ok}: the write is answered SLVERR and counted by {@link WritePacker}.
 */
final class WriteBursts {
    final Stream<Bits> beats;
    final Stream<WBurst> bursts;
    /** Times W was held (WVALID and not WREADY) while no AW waited: the W-before-AW stalls. */
    final UInt cntStall;

    static final class WBeat extends Bundle {
        final Bits data;
        final Bits strb;
        final Bool last = bool();
        private final int n;

        WBeat(int n) {
            this.n = n;
            data = bits(n);
            strb = bits(n / 8);
        }

        @Override
        public WBeat copyType() {
            return new WBeat(n);
        }
    }

    WriteBursts(Axi4 axi, Bool awWaiting, int maxBeats, int beatBits, int dataDepth, int burstDepth) {
        int n = axi.dataBits();
        int lanes = n / 8;
        Stream<WBeat> in = wire(Stream.of(() -> new WBeat(n))).named("w_in");
        in.valid.set(axi.wvalid);
        in.payload.data.set(axi.wdata);
        in.payload.strb.set(axi.wstrb);
        in.payload.last.set(axi.wlast);
        axi.wready.set(in.ready);
        Bool held = axi.wvalid.andNot(axi.wready).andNot(awWaiting);
        Bool heldBefore = reg("w_held_q", bool()).init(false);
        heldBefore.set(held);
        cntStall = Counter.saturating("w_stalls", 32, held.andNot(heldBefore));
        Stream<WBeat> w = in.fullPipe();

        StreamFifo<Bits> dq = instance("w_data",
                () -> new StreamFifo<>(() -> bits(n), dataDepth, FifoStorage.forDepth(dataDepth), dataDepth));
        StreamFifo<WBurst> bq = instance("w_bursts",
                () -> new StreamFifo<>(() -> new WBurst(beatBits), burstDepth, FifoStorage.forDepth(burstDepth),
                        burstDepth));

        int cw = bitsFor(maxBeats);
        UInt count = reg("w_count", uint(cw)).init(0);
        Bool okSoFar = reg("w_ok", bool()).init(true);
        UInt loFirst = reg("w_lo", uint(8)).init(0);
        Bool first = count.eq(0);
        Bool over = count.eq(maxBeats).named("w_over");
        Bits strb = w.payload.strb;
        Bool last = w.payload.last;

        // strobe shapes: "runs to the top", "runs from lane 0", one contiguous range
        Bits above = cat(TRUE, strb.slice(lanes - 1, 1));
        Bits below = cat(strb.slice(lanes - 2, 0), TRUE);
        Bool toTop = strb.and(above.not()).eq(0);
        Bool fromBottom = strb.and(below.not()).eq(0);
        Bool oneRange = OneHot.atMostOne(strb.and(strb.shl(1).not()));
        Bool shapeOk = mux(first, mux(last, oneRange, toTop), mux(last, fromBottom, strb.andR()));
        Bool beatOk = strb.ne(0).and(shapeOk).andNot(over).named("w_beat_ok");
        UInt lowLane = OneHot.toIndex(OneHot.lowestSet(strb)).resize(8);
        UInt highLane = U(lanes - 1, 8).sub(OneHot.toIndex(OneHot.lowestSet(reversed(strb))).resize(8));

        Bool fire = w.fire();
        w.ready.set(dq.s.ready.and(bq.s.ready));
        dq.s.valid.set(fire.andNot(over));
        dq.s.payload.set(w.payload.data);
        bq.s.valid.set(fire.and(last));
        bq.s.payload.lastBeat.set(mux(over, U(maxBeats - 1, cw), count).resize(beatBits));
        bq.s.payload.lo.set(mux(first, lowLane, loFirst));
        bq.s.payload.hi.set(highLane);
        bq.s.payload.ok.set(okSoFar.and(beatOk));
        when(fire, () -> {
            count.set(mux(last, U(0, cw), mux(over, count, count.add(1))));
            okSoFar.set(last.or(okSoFar.and(beatOk)));
            when(first, () -> loFirst.set(lowLane));
        });
        beats = dq.m;
        bursts = bq.m;
    }

    /** {@code x} with its bits in reverse order. */
    static Bits reversed(Bits x) {
        List<Bool> msbFirst = new ArrayList<>();
        for (int i = 0; i < x.width(); i++) {
            msbFirst.add(x.bit(i));
        }
        return cat(msbFirst);
    }
}
