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

/**
 * The master's B and R channels (a part of {@link AxiXpuBridge}, registers named {@code mrsp_*}):
 * each B becomes an {@link AxiOps#TYPE_B} op to the source of the oldest issued write, with its
 * original ID; the R beats of a burst are gathered (data buffer, RRESP per beat) and leave as one
 * {@link AxiOps#TYPE_R} op once RLAST is in. R beats past the largest burst (a SoC slave that
 * answers more beats than ARLEN + 1) are dropped and counted ({@code cntOverlong}).
 */
final class MasterResponses {
    final Stream<OpBeat> bOps;
    final Stream<OpBeat> rOps;
    final UInt cntOverlong;

    static final class RHead extends Bundle {
        final Origin origin = new Origin();
        final Bits resps = bits(AxiRspControl.RESP_BITS);
        final UInt lastBeat;
        private final int beatBits;

        RHead(int beatBits) {
            this.beatBits = beatBits;
            lastBeat = uint(beatBits);
        }

        @Override
        public RHead copyType() {
            return new RHead(beatBits);
        }
    }

    MasterResponses(Axi4 axi, Stream<Origin> writes, Stream<Origin> reads, int maxBeats, int beatBits,
            int dataDepth) {
        int n = axi.dataBits();

        // ---- B ---------------------------------------------------------------------------------------
        AxiRspControl bc = wire(new AxiRspControl());
        bc.spare.set(B(0, 96));
        bc.resps.set(axi.bresp.asBits().resize(AxiRspControl.RESP_BITS));
        bc.id.set(writes.payload.id);
        bc.dataLenM1.set(U(0, 8));
        bc.type.set(U(AxiOps.TYPE_B, 8));
        OpEmitter bEmit = new OpEmitter("mrsp_b", n, beatBits, axi.bvalid.and(writes.valid), false,
                writes.payload.xpuid, asBits(bc), U(0, beatBits), null);
        axi.bready.set(bEmit.out.ready.and(writes.valid));
        writes.ready.set(bEmit.done);
        bOps = bEmit.out.queue(2);

        // ---- R: gathered per burst -------------------------------------------------------------------
        StreamFifo<Bits> dq = instance("mrsp_r_data",
                () -> new StreamFifo<>(() -> bits(n), dataDepth, FifoStorage.forDepth(dataDepth), dataDepth));
        StreamFifo<RHead> hq = instance("mrsp_r_head",
                () -> new StreamFifo<>(() -> new RHead(beatBits), 2, FifoStorage.REGISTERS, 2));
        int cw = bitsFor(maxBeats);
        UInt count = reg("mrsp_r_count", uint(cw)).init(0);
        Bits resps = reg("mrsp_r_resps", bits(AxiRspControl.RESP_BITS)).init(0);
        Bool over = count.eq(maxBeats).named("mrsp_r_over");
        axi.rready.set(reads.valid.and(dq.s.ready).and(hq.s.ready));
        Bool rFire = axi.rvalid.and(axi.rready);
        Bits thisResp = axi.rresp.asBits().resize(AxiRspControl.RESP_BITS)
                .shl(cat(count.resize(beatBits), FALSE).asUInt());
        Bits allResps = resps.or(mux(over, B(0, AxiRspControl.RESP_BITS), thisResp));
        dq.s.valid.set(rFire.andNot(over));
        dq.s.payload.set(axi.rdata);
        hq.s.valid.set(rFire.and(axi.rlast));
        hq.s.payload.origin.xpuid.set(reads.payload.xpuid);
        hq.s.payload.origin.id.set(reads.payload.id);
        hq.s.payload.resps.set(allResps);
        hq.s.payload.lastBeat.set(mux(over, U(maxBeats - 1, cw), count).resize(beatBits));
        reads.ready.set(rFire.and(axi.rlast));
        when(rFire, () -> {
            count.set(mux(axi.rlast, U(0, cw), mux(over, count, count.add(1))));
            resps.set(mux(axi.rlast, B(0, AxiRspControl.RESP_BITS), allResps));
        });
        cntOverlong = Counter.saturating("mrsp_r_overlong", 32, rFire.and(over));

        RHead h = hq.m.payload;
        AxiRspControl rc = wire(new AxiRspControl());
        rc.spare.set(B(0, 96));
        rc.resps.set(h.resps);
        rc.id.set(h.origin.id);
        rc.dataLenM1.set(AxiOps.dataLenM1(h.lastBeat, n));
        rc.type.set(U(AxiOps.TYPE_R, 8));
        OpEmitter rEmit = new OpEmitter("mrsp_r", n, beatBits, hq.m.valid, true, h.origin.xpuid, asBits(rc),
                h.lastBeat, dq.m);
        dq.m.ready.set(rEmit.pop);
        hq.m.ready.set(rEmit.done);
        rOps = rEmit.out;
    }
}
