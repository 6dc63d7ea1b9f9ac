// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.regif.Axi4;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;

/**
 * Makes one {@link AxiOps#TYPE_READ} op of the AR at the head of its buffer (a part of
 * {@link AxiXpuBridge}, counters named {@code rd_*}), or answers the read itself with ARLEN + 1
 * error beats: DECERR for an unmapped destination, SLVERR for a burst over the largest one.
 */
final class ReadPacker {
    final Stream<OpBeat> ops;
    /** Events (one cycle each): an AR refused for an unmapped destination, or for its length. */
    final Bool unmappedEvent;
    final Bool tooLongEvent;
    final UInt cntReads;

    ReadPacker(Stream<Routed> ar, Stream<LocalError> errors, DestinationMap map, int dataWidth, int maxBeats,
            int beatBits) {
        AxAddr request = ar.payload.request;
        Bool mapped = map.mapped(ar.payload.xpuid);
        Bool lenOk = request.len.lt(maxBeats);
        Bool good = mapped.and(lenOk).named("rdq_good");
        OpEmitter emit = new OpEmitter("rdq", dataWidth, beatBits, ar.valid.and(good), false,
                ar.payload.xpuid, request.control(AxiOps.TYPE_READ, U(0, 8), U(0, 8), U(0, 8)),
                U(0, beatBits), null);
        ops = emit.out;
        errors.valid.set(ar.valid.andNot(good));
        errors.payload.id.set(request.id);
        errors.payload.resp.set(mux(mapped, U(Axi4.SLVERR, 2), U(Axi4.DECERR, 2)));
        errors.payload.len.set(request.len);
        Bool reject = errors.fire();
        ar.ready.set(emit.done.or(reject));
        unmappedEvent = reject.andNot(mapped).named("rdq_unmapped");
        tooLongEvent = reject.and(mapped).named("rdq_too_long");
        cntReads = Counter.saturating("rdq_sent", 32, emit.done);
    }
}
