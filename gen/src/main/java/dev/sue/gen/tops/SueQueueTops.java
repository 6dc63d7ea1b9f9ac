package dev.sue.gen.tops;

import dev.sue.rtl.queue.CellAllocator;
import java.util.List;
import java.util.Map;

/**
 * Tops for the SUE transmit queue manager ({@code dev.sue.rtl.queue}): the cell allocator and
 * the per-{destination, VC} linked lists, each on its own so they can be linted and tested
 * separately. Defaults are small test sizes; the {@code *_1024x4} presets are the realistic size.
 */
public final class SueQueueTops {
    private SueQueueTops() {
    }

    public static void register(Catalog c) {
        c.add(new TopSpec("cell_allocator", "shared cell buffer free list: alloc/free one per cycle, free count",
                List.of(cells(64)), v -> () -> new CellAllocator(v.integer("cells"))));
        c.add(new Preset("cell_allocator_8192", "cell_allocator", Map.of("cells", "8192"),
                "free list of 8192 cells (realistic size)"));
    }

    private static ParamSpec cells(long defaultValue) {
        return ParamSpec.integer("cells", "cells in the shared buffer", defaultValue, 2, 65536);
    }
}
