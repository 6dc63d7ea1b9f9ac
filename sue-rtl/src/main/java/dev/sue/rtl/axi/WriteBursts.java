// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.BaseType;
import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.regif.Axi4;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;
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

    /**
     * A W beat with its strobes already analysed (before the input register, so the burst checks
     * after it are short): the lanes where a run of strobes starts ({@code rise}) and ends
     * ({@code fall}), and whether the strobes run to the top lane, from lane 0, or are all ones.
     */
    static final class WBeat extends Bundle {
        final Bits data;
        final Bits rise;
        final Bits fall;
        final Bool toTop = bool();
        final Bool fromBottom = bool();
        final Bool full = bool();
        final Bool any = bool();
        final Bool last = bool();
        private final int n;

        WBeat(int n) {
            this.n = n;
            data = bits(n);
            rise = bits(n / 8);
            fall = bits(n / 8);
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
        Bits strb = axi.wstrb;
        Bits above = cat(TRUE, strb.slice(lanes - 1, 1));
        Bits below = cat(strb.slice(lanes - 2, 0), TRUE);
        in.valid.set(axi.wvalid);
        in.payload.data.set(axi.wdata);
        in.payload.rise.set(strb.and(strb.shl(1).not()));
        in.payload.fall.set(strb.and(strb.shr(1).not()));
        in.payload.toTop.set(strb.and(above.not()).eq(0));
        in.payload.fromBottom.set(strb.and(below.not()).eq(0));
        in.payload.full.set(strb.andR());
        in.payload.any.set(strb.ne(0));
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
        WBeat beat = w.payload;
        Bool last = beat.last;
        Bool oneRange = atMostOne(beat.rise.asBits());
        Bool shapeOk = mux(first, mux(last, oneRange, beat.toTop), mux(last, beat.fromBottom, beat.full));
        Bool beatOk = beat.any.and(shapeOk).andNot(over).named("w_beat_ok");
        // With a valid shape there is one rise and one fall; otherwise the burst is not ok anyway.
        UInt lowLane = laneIndex(beat.rise);
        UInt highLane = laneIndex(beat.fall);

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

    /** The index of the set bit of {@code oneHot} (8 bits), one OR reduction per index bit. */
    static UInt laneIndex(Bits oneHot) {
        List<BaseType> msbFirst = new ArrayList<>();
        for (int b = 7; b >= 0; b--) {
            List<BaseType> lanes = new ArrayList<>();
            for (int i = 0; i < oneHot.width(); i++) {
                if ((i >> b & 1) != 0) {
                    lanes.add(oneHot.bit(i));
                }
            }
            msbFirst.add(lanes.isEmpty() ? FALSE : cat(lanes).orR());
        }
        return cat(msbFirst).asUInt();
    }

    /**
     * At most one bit of {@code x} is set, as a tree of {any, several} pairs, three children per
     * node (one LUT6 each): no carry chain, log3 levels.
     */
    static Bool atMostOne(Bits x) {
        List<Bool[]> level = new ArrayList<>();
        for (int i = 0; i < x.width(); i++) {
            level.add(new Bool[] {x.bit(i), FALSE});
        }
        while (level.size() > 1) {
            List<Bool[]> next = new ArrayList<>();
            for (int i = 0; i < level.size(); i += 3) {
                List<Bool[]> kids = level.subList(i, Math.min(i + 3, level.size()));
                Bool any = FALSE;
                Bool several = FALSE;
                for (Bool[] k : kids) {
                    several = several.or(k[1]).or(any.and(k[0]));
                    any = any.or(k[0]);
                }
                next.add(new Bool[] {any, several});
            }
            level = next;
        }
        return level.get(0)[1].not();
    }
}
