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
 * The slave's B and R channels (a part of {@link AxiXpuBridge}, registers named {@code rsp_*}):
 * responses that arrived on VC 1 ({@link AxiOps#TYPE_B}: one B; {@link AxiOps#TYPE_R}: its beats,
 * RRESP per beat from the control bytes, RLAST on the last) and the errors the slave answered
 * itself ({@code bErrors}, {@code rErrors}: ARLEN + 1 beats of the error, data zero). Arrived
 * responses go first; an R burst is never interleaved with another. An op of another type on VC 1
 * is dropped with its data and counted ({@code badOpEvent}).
 */
final class SlaveResponses {
    /** Event: a response op of an unknown kind dropped (with its data). */
    final Bool badOpEvent;
    final UInt cntB;
    final UInt cntR;

    SlaveResponses(Axi4 axi, Stream<OpHead> head, Stream<Bits> data, Stream<LocalError> bErrors,
            Stream<LocalError> rErrors, int beatBits) {
        int n = axi.dataBits();
        int idBits = axi.idBits();
        AxiRspControl ctl = AxiRspControl.of(head.payload.control);
        Bool isB = ctl.type.eq(AxiOps.TYPE_B).andNot(head.payload.dataOp);
        Bool isR = ctl.type.eq(AxiOps.TYPE_R).and(head.payload.dataOp);
        UInt lastBeat = AxiOps.lastBeat(ctl.dataLenM1, n, beatBits);

        // ---- B: an arrived response, else a local error ----------------------------------------------
        // A response offered and not taken stays offered (AXI): the choice is kept until it is taken.
        Bool bHeld = reg("rsp_b_held", bool()).init(false);
        Bool bHeldLocal = reg("rsp_b_held_local", bool()).init(false);
        Bool arrivedB = head.valid.and(isB);
        Bool bLocal = mux(bHeld, bHeldLocal, arrivedB.not()).named("rsp_b_from_local");
        Bool remoteB = arrivedB.andNot(bLocal);
        axi.bvalid.set(mux(bLocal, bErrors.valid, arrivedB));
        axi.bid.set(mux(bLocal, bErrors.payload.id, ctl.id.resize(idBits)));
        axi.bresp.set(mux(bLocal, bErrors.payload.resp, ctl.resps.slice(1, 0).asUInt()));
        bErrors.ready.set(axi.bready.and(bLocal));
        bHeld.set(axi.bvalid.andNot(axi.bready));
        bHeldLocal.set(bLocal);

        // ---- R: bursts whole, arrived ones first -------------------------------------------------------
        Bool busy = reg("rsp_r_busy", bool()).init(false);
        Bool busyLocal = reg("rsp_r_local", bool()).init(false);
        UInt index = reg("rsp_r_beat", uint(8)).init(0);
        Bool remoteR = head.valid.and(isR);
        Bool local = mux(busy, busyLocal, remoteR.not()).named("rsp_r_from_local");
        Bool last = mux(local, index.eq(rErrors.payload.len), index.eq(lastBeat.resize(8))).named("rsp_r_last");
        Bits resps = ctl.resps;
        axi.rvalid.set(mux(local, rErrors.valid, remoteR.and(data.valid)));
        axi.rid.set(mux(local, rErrors.payload.id, ctl.id.resize(idBits)));
        axi.rdata.set(mux(local, B(0, n), data.payload));
        axi.rresp.set(mux(local, rErrors.payload.resp,
                resps.shr(cat(index.resize(beatBits), FALSE).asUInt()).slice(1, 0).asUInt()));
        axi.rlast.set(last);
        Bool rFire = axi.rvalid.and(axi.rready);
        when(axi.rvalid, () -> {
            busy.set(rFire.and(last).not());
            busyLocal.set(local);
        });
        when(rFire, () -> index.set(mux(last, U(0, 8), index.add(1))));
        rErrors.ready.set(rFire.and(local).and(last));

        // ---- other types: dropped with their data ----------------------------------------------------
        Bool bad = head.valid.andNot(isB).andNot(isR).named("rsp_bad");
        UInt dropIndex = reg("rsp_drop_beat", uint(beatBits)).init(0);
        Bool dropData = bad.and(head.payload.dataOp).and(data.valid);
        Bool dropLast = dropIndex.eq(lastBeat);
        when(dropData, () -> dropIndex.set(mux(dropLast, U(0, beatBits), dropIndex.add(1))));
        Bool dropDone = bad.and(head.payload.dataOp.not().or(dropData.and(dropLast)));

        data.ready.set(rFire.andNot(local).or(dropData));
        head.ready.set(remoteB.and(axi.bready).or(rFire.andNot(local).and(last)).or(dropDone));
        badOpEvent = dropDone.named("rsp_bad_op");
        cntB = Counter.saturating("rsp_b", 32, axi.bvalid.and(axi.bready));
        cntR = Counter.saturating("rsp_r", 32, rFire.and(last));
    }
}
