// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.rtl.queue.ActiveScheduler;
import dev.sue.rtl.queue.CellAllocator;
import dev.sue.rtl.queue.QueueLists;
import java.util.List;
import java.util.Map;

/**
 * Tops for the SUE transmit queue manager ({@code dev.sue.rtl.queue}): the cell allocator and
 * the per-{destination, VC} linked lists and the active-list scheduler, each on its own so they can be linted and tested
 * separately. Defaults are small test sizes; the {@code *_1024x4} presets are the realistic size.
 */
public final class SueQueueTops {
    private SueQueueTops() {
    }

    public static void register(Catalog c) {
        c.add(TopSpec.sue("cell_allocator", "shared cell buffer free list: alloc/free one per cycle, free count",
                List.of(cells(64)), v -> () -> new CellAllocator(v.integer("cells"))));
        c.add(new Preset("cell_allocator_8192", "cell_allocator", Map.of("cells", "8192"),
                "free list of 8192 cells (realistic size)"));
        c.add(TopSpec.sue("queue_lists",
                "per-{dest,VC} linked lists in RAM: append/pop/peek one per cycle, optional dest limits, empty events",
                List.of(ParamSpec.integer("xpus", "destination XPUs", 4, 2, 1024),
                        ParamSpec.oneOf("vcs", "virtual channels", 2, 1L, 2L, 4L, 8L),
                        cells(64),
                        ParamSpec.flag("destLimited",
                                "per-destination counts and the destLimit input (the queue manager has neither)", false)),
                v -> () -> new QueueLists(v.integer("xpus"), v.integer("vcs"), v.integer("cells"),
                        v.flag("destLimited"))));
        c.add(new Preset("queue_lists_1024x4", "queue_lists",
                Map.of("xpus", "1024", "vcs", "4", "cells", "8192"),
                "1024 XPUs x 4 VCs over 8192 cells (realistic size)"));
        c.add(TopSpec.sue("active_scheduler",
                "active lists per VC: RR over unpaused VCs, RR within a VC, parking and wake-up",
                List.of(ParamSpec.integer("xpus", "destination XPUs", 4, 2, 1024),
                        ParamSpec.oneOf("vcs", "virtual channels", 2, 1L, 2L, 4L, 8L)),
                v -> () -> new ActiveScheduler(v.integer("xpus"), v.integer("vcs"))));
        c.add(new Preset("active_scheduler_1024x4", "active_scheduler", Map.of("xpus", "1024", "vcs", "4"),
                "1024 XPUs x 4 VCs (realistic size)"));
    }

    private static ParamSpec cells(long defaultValue) {
        return ParamSpec.integer("cells", "cells in the shared buffer", defaultValue, 2, 65536);
    }
}
