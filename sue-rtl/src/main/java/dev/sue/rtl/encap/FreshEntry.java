// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import java.util.ArrayList;
import java.util.List;

/**
 * The header-queue entry ({@code hdr_entry}) of the header leaving the builder this cycle: the
 * RH bytes (ARCHITECTURE.md §5) put together from the registered RH fields, behind the network
 * header, with the frame's side information. It is valid ({@link #valid}) unless the PDU was
 * withdrawn.
 */
final class FreshEntry {
    final Bool valid;
    final SueFramer.Entry entry;

    FreshEntry(SueHeaderBuilder hb, FrameSideInfo side, Bits ownXpuid, int plane, Bits moveEpoch, FrameGeometry g) {
        valid = hb.hdrValid.andNot(side.cancel3).named("fresh_valid");

        // RH bytes (network order) at hdr time
        Bits psnB = side.psn3.asBits();
        Bits rpsnB = side.rpsn3.asBits();
        Bits part = hb.hdrPartition;
        Bits[] rhBytes = {
            cat(B(0, 2), side.op3.asBits(), side.route3 == null ? B(0, 2) : side.route3.count, ownXpuid.slice(9, 8)),
            ownXpuid.slice(7, 0),
            psnB.slice(15, 8), psnB.slice(7, 0),
            cat(side.vc3.asBits(), B(plane, 2), moveEpoch, part.slice(9, 8)),
            part.slice(7, 0),
            rpsnB.slice(15, 8), rpsnB.slice(7, 0),
        };
        List<Bits> rhList = new ArrayList<>();
        for (int k = 7; k >= 0; k--) {
            rhList.add(rhBytes[k]);
        }
        entry = wire("hdr_entry", g.entry());
        entry.prefix.set(cat(cat(rhList), hb.hdrData));
        entry.nIn.set(side.nIn3);
        entry.nOut.set(side.nOut3);
        entry.lastKeep.set(side.lastKeep3);
        entry.drop.set(hb.hdrDestError);
        entry.hasData.set(side.hasData3);
        entry.fast.set(side.fast3);
        entry.oneOut.set(side.oneOut3);
        entry.trail.set(side.trail3);
        if (entry.route != null) {
            assignLeaves(entry.route, side.route3);
        }
    }
}
