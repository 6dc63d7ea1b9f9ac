// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.util.LutAdder;
import dev.sue.hdl.lib.util.LutCompare;
import java.util.ArrayList;
import java.util.List;

/**
 * A frame's side information, computed from its header request and delayed through three
 * registers so it arrives beside the header builder's output ({@link SueHeaderBuilder#LATENCY}):
 * the beat counts in and out, the last beat's keep, the fast-path flag and trail, and the VC;
 * plus the RH fields, which arrive {@link SueFramer#RH_DELAY} cycles after the request and are
 * registered beside the builder's stage 3.
 */
final class FrameSideInfo {
    final UInt vc3;
    final UInt nIn3;
    final UInt nOut3;
    final Bits lastKeep3;
    final Bool fast3;
    final Bool oneOut3;
    final Bool hasData3;
    final UInt trail3;
    final UInt op3;
    final UInt psn3;
    final UInt rpsn3;
    /** The PDU in the builder's output stage is withdrawn: its header is discarded. */
    final Bool cancel3;
    /** A multi-port plane's: the frame's route (null with one port). */
    final ConnRoute route3;

    FrameSideInfo(FrameRequest req, Flow<RhFields> rh, FrameGeometry g) {
        int n = g.n;
        int lg = g.lg;
        UInt len1 = regNext(req.desc.length).named("len1");
        UInt body1 = regNext(req.body).named("body1");
        // The VC's delay line has a reset: without one yosys packs it into shift registers
        // (SRL16E), whose read is a LUT level ahead of the CRC window's 8.
        UInt vc1 = reg("rh_vc1", uint(2)).init(0);
        vc1.set(req.desc.vc);
        UInt vc2 = reg("rh_vc2", uint(2)).init(0);
        vc2.set(vc1);
        vc3 = reg("rh_vc3", uint(2)).init(0);
        vc3.set(vc2);
        Bool take1 = reg("take1", bool()).init(false);
        take1.set(req.take);
        Bool take2 = reg("take2", bool()).init(false);
        take2.set(take1);
        assertThat(rh.valid.eq(take2), "rh: the RH fields must follow their header request by RH_DELAY cycles");
        UInt nIn2 = regNext(len1.resize(14).add(n - 1).slice(13, lg).resize(13)).named("n_in2");
        UInt frameLen1 = body1.resize(14).add(g.c).named("frame_len1"); // without R-CRC
        UInt nOut2 = regNext(frameLen1.add(n - 1).slice(13, lg).resize(13)).named("n_out2");
        // The last beat's byte index, (body + c - 1) mod n, and its keep decode, from gates: with an
        // adder's carry chain and `>=` compares (which yosys also makes carry logic) the mapper took
        // the chain's output as arriving at time 0 and mapped the 127 compares of the 1024-bit
        // decode behind it as a 7-LUT chain (9.5 levels, preset sue_1x400g, session 17)
        UInt lastIdx1 = LutAdder.sum(body1.resize(lg), U(g.c - 1, 14).resize(lg)).named("last_idx1");
        List<Bool> lk = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            lk.add(i == 0 ? TRUE : LutCompare.greater(lastIdx1, U(i - 1, lg)));
        }
        Bits lastKeep2 = regNext(cat(lk)).named("last_keep2");
        Bool fast2 = regNext(g.fastPath ? frameLen1.le(n) : FALSE).named("fast2");
        UInt trail2 = regNext(U(Math.max(0, g.wd), 14).sub(body1.resize(14)).slice(g.tw - 1, 0)).named("trail2");
        fast3 = regNext(fast2).named("fast3");
        oneOut3 = regNext(regNext(frameLen1.le(n)).named("one_out2")).named("one_out3");
        hasData3 = regNext(regNext(len1.ne(0)).named("has_data2")).named("has_data3");
        trail3 = regNext(trail2).named("trail3");
        nIn3 = regNext(nIn2).named("n_in3");
        nOut3 = regNext(nOut2).named("n_out3");
        lastKeep3 = regNext(lastKeep2).named("last_keep3");
        // the RH fields arrive with the header builder's stage 2 and are registered beside its
        // stage 3; a withdrawn PDU's header is discarded there
        op3 = reg("rh_op3", uint(2)).init(0);
        psn3 = reg("rh_psn3", uint(16)).init(0);
        rpsn3 = reg("rh_rpsn3", uint(16)).init(0);
        cancel3 = reg("rh_cancel3", bool()).init(false);
        op3.set(rh.payload.op);
        psn3.set(rh.payload.psn);
        rpsn3.set(rh.payload.rpsn);
        cancel3.set(rh.valid.and(rh.payload.cancel));
        route3 = g.routed ? reg("rh_route3", new ConnRoute()) : null;
        if (route3 != null) {
            assignLeaves(route3, rh.payload.route);
        }
    }
}
