// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.regif.Axi4;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;

/**
 * Pairs the AW at the head of its buffer with the W burst at the head of {@link WriteBursts} and
 * makes one {@link AxiOps#TYPE_WRITE} op of them (a part of {@link AxiXpuBridge}, registers named
 * {@code wr_*}), or answers the write itself: DECERR for an unmapped destination, SLVERR for a
 * burst over the largest one (AWLEN + 1 beats more than {@code maxBeats}), a W burst of another
 * length than AWLEN + 1 or strobes that are not one byte range; the W beats are then taken and
 * dropped and the response queued in {@code errors}. Each case has its counter.
 */
final class WritePacker {
    final Stream<OpBeat> ops;
    /** Events (one cycle each): an AW refused for an unmapped destination, or for its length. */
    final Bool unmappedEvent;
    final Bool tooLongEvent;
    final UInt cntBadBurst;
    final UInt cntWrites;

    WritePacker(Stream<Routed> aw, WriteBursts w, Stream<LocalError> errors, DestinationMap map, int dataWidth,
            int maxBeats, int beatBits) {
        Bool draining = reg("wr_draining", bool()).init(false);
        UInt drainLeft = reg("wr_drain_left", uint(beatBits)).init(0);
        Stream<WBurst> burst = w.bursts;
        Bool both = aw.valid.and(burst.valid).andNot(draining).named("wr_paired");
        AxAddr request = aw.payload.request;
        Bool mapped = map.mapped(aw.payload.xpuid);
        Bool lenOk = request.len.lt(maxBeats);
        Bool burstOk = burst.payload.ok.and(request.len.eq(burst.payload.lastBeat.resize(8)));
        Bool good = mapped.and(lenOk).and(burstOk).named("wr_good");

        Bits control = request.control(AxiOps.TYPE_WRITE, AxiOps.dataLenM1(burst.payload.lastBeat, dataWidth),
                burst.payload.lo, burst.payload.hi);
        OpEmitter emit = new OpEmitter("wr", dataWidth, beatBits, both.and(good), true, aw.payload.xpuid,
                control, burst.payload.lastBeat, w.beats);
        ops = emit.out;

        Bool reject = both.andNot(good).and(errors.ready).named("wr_reject");
        errors.valid.set(both.andNot(good));
        errors.payload.id.set(request.id);
        errors.payload.resp.set(mux(mapped, U(Axi4.SLVERR, 2), U(Axi4.DECERR, 2)));
        errors.payload.len.set(U(0, 8));
        aw.ready.set(emit.done.or(reject));
        burst.ready.set(emit.done.or(reject));
        w.beats.ready.set(emit.pop.or(draining));
        when(reject, () -> {
            draining.set(true);
            drainLeft.set(burst.payload.lastBeat);
        });
        when(draining.and(w.beats.valid), () -> {
            drainLeft.set(drainLeft.sub(1));
            when(drainLeft.eq(0), () -> draining.set(false));
        });
        unmappedEvent = reject.andNot(mapped).named("wr_unmapped");
        tooLongEvent = reject.and(mapped).andNot(lenOk).named("wr_too_long");
        cntBadBurst = Counter.saturating("wr_bad_burst", 32, reject.and(mapped).and(lenOk));
        cntWrites = Counter.saturating("wr_sent", 32, emit.done);
    }
}
