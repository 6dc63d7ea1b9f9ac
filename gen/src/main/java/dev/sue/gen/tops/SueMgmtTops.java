// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.rtl.mgmt.ControlFramesHarness;
import java.util.List;

/** Management blocks: the control-frame buffers behind AXI4-Lite ({@code sue_ctl_frames}). */
public final class SueMgmtTops {
    private SueMgmtTops() {
    }

    public static void register(Catalog c) {
        c.add(TopSpec.sue("sue_ctl_frames",
                "control frames sent and received through AXI4-Lite registers (spec 3.1); exports its register map",
                List.of(SueParams.macDataWidth(512),
                        ParamSpec.integer("maxFrameBytes", "longest control frame without FCS", 1518, 60, 9216),
                        ParamSpec.oneOf("txSlots", "frames the transmit buffer holds", 2, 2L, 4L, 8L, 16L),
                        ParamSpec.oneOf("rxSlots", "frames the receive buffer holds", 4, 2L, 4L, 8L, 16L)),
                v -> {
                    int w = v.integer("dataWidth");
                    int m = v.integer("maxFrameBytes");
                    int t = v.integer("txSlots");
                    int r = v.integer("rxSlots");
                    return () -> new ControlFramesHarness(w, m, t, r);
                }));
    }
}
