// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.regif.Axi4;
import dev.sue.hdl.lib.stream.Stream;
import java.util.ArrayList;
import java.util.List;

/**
 * The master's AW, W and AR channels (a part of {@link AxiXpuBridge}, registers named
 * {@code req_*}): each request that arrived on VC 0 is issued on {@code m_axi} with every field
 * as the requester sent it but the ID, which is 0 for every request. The requester's {source,
 * ID} is queued in {@code writes} or {@code reads} as the request is issued: the SoC answers
 * requests of one ID in order (AXI4), so these queues are the ID remap table. A write's AW and
 * its W beats go independently (AW with the first beat, as the slave takes them: AXI4 forbids a
 * master to wait for AWREADY before WVALID), the next write once both are over, so a 4-beat write
 * takes 4 cycles; strobes are rebuilt from the byte range (first beat from the lowest lane up,
 * last beat up to the highest, all ones between). An op of another type on VC 0 is
 * dropped with its data and counted.
 */
final class MasterRequests {
    /** Event: a request op of an unknown kind dropped (with its data). */
    final Bool badOpEvent;

    MasterRequests(Axi4 axi, Stream<OpHead> head, Stream<Bits> data, Stream<Origin> writes, Stream<Origin> reads,
            int beatBits) {
        int n = axi.dataBits();
        int lanes = n / 8;
        AxiReqControl ctl = AxiReqControl.of(head.payload.control);
        Bool isW = ctl.type.eq(AxiOps.TYPE_WRITE).and(head.payload.dataOp);
        Bool isR = ctl.type.eq(AxiOps.TYPE_READ).andNot(head.payload.dataOp);
        UInt lastBeat = AxiOps.lastBeat(ctl.dataLenM1, n, beatBits);

        // ---- writes: AW and the W beats, each on its own; the next write when both are over ---------
        Bool awDone = reg("req_aw_done", bool()).init(false);
        Bool wDone = reg("req_w_done", bool()).init(false);
        UInt index = reg("req_w_beat", uint(beatBits)).init(0);
        Bool write = head.valid.and(isW);
        axi.awvalid.set(write.andNot(awDone).and(writes.ready));
        AxAddr request = AxAddr.fromControl(ctl, axi.idBits(), axi.addrBits());
        request.driveOnto(axi, true);
        Bool awFire = axi.awvalid.and(axi.awready);
        writes.valid.set(awFire);
        writes.payload.xpuid.set(head.payload.xpuid);
        writes.payload.id.set(ctl.id);

        Bool first = index.eq(0);
        Bool last = index.eq(lastBeat);
        List<Bool> strb = new ArrayList<>();
        for (int lane = lanes - 1; lane >= 0; lane--) {
            Bool fromLo = first.not().or(ctl.strbLo.le(lane));
            Bool toHi = last.not().or(ctl.strbHi.ge(lane));
            strb.add(fromLo.and(toHi));
        }
        axi.wvalid.set(write.andNot(wDone).and(data.valid));
        axi.wdata.set(data.payload);
        axi.wstrb.set(cat(strb));
        axi.wlast.set(last);
        Bool wFire = axi.wvalid.and(axi.wready);
        when(wFire, () -> index.set(mux(last, U(0, beatBits), index.add(1))));
        Bool writeDone = write.and(awDone.or(awFire)).and(wDone.or(wFire.and(last))).named("req_write_done");
        when(writeDone, () -> {
            awDone.set(false);
            wDone.set(false);
        }).otherwise(() -> {
            when(awFire, () -> awDone.set(true));
            when(wFire.and(last), () -> wDone.set(true));
        });

        // ---- reads -------------------------------------------------------------------------------------
        Bool read = head.valid.and(isR);
        axi.arvalid.set(read.and(reads.ready));
        request.driveOnto(axi, false);
        Bool arFire = axi.arvalid.and(axi.arready);
        reads.valid.set(arFire);
        reads.payload.xpuid.set(head.payload.xpuid);
        reads.payload.id.set(ctl.id);

        // ---- other types: dropped with their data -----------------------------------------------------
        Bool bad = head.valid.andNot(isW).andNot(isR).named("req_bad");
        Bool dropData = bad.and(head.payload.dataOp).and(data.valid);
        when(dropData, () -> index.set(mux(last, U(0, beatBits), index.add(1))));
        Bool dropDone = bad.and(head.payload.dataOp.not().or(dropData.and(last)));

        data.ready.set(wFire.or(dropData));
        head.ready.set(writeDone.or(arFire).or(dropDone));
        badOpEvent = dropDone.named("req_bad_op");
    }
}
