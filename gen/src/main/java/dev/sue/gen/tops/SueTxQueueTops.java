// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.rtl.queue.TxQueueManager;
import java.util.List;
import java.util.Map;

/**
 * Top for the SUE transmit queue manager ({@link TxQueueManager}): op stream in, PDU stream
 * (desc + data) out. Defaults are a small test size; {@code sue_tx_queue_1024x4} is realistic.
 */
public final class SueTxQueueTops {
    private SueTxQueueTops() {
    }

    public static void register(Catalog c) {
        c.add(TopSpec.sue("sue_tx_queue",
                "TX queue manager: packing at enqueue, per-{dest,VC} PDU lists, RR scheduler, PDU reader",
                List.of(SueParams.dataWidth("data bus width in bits", 256),
                        ParamSpec.integer("xpus", "destination XPUs", 4, 2, 1024),
                        ParamSpec.oneOf("vcs", "virtual channels", 2, 1L, 2L, 4L),
                        ParamSpec.integer("cells", "cells of dataWidth bits in the shared buffer", 64, 2, 65536)),
                v -> () -> new TxQueueManager(v.integer("dataWidth"), v.integer("xpus"), v.integer("vcs"),
                        v.integer("cells"))));
        c.add(new Preset("sue_tx_queue_1024x4", "sue_tx_queue",
                Map.of("dataWidth", "1024", "xpus", "1024", "vcs", "4", "cells", "8192"),
                "1024 XPUs x 4 VCs, 1024-bit bus, 8192 cells (realistic size)"));
    }
}
