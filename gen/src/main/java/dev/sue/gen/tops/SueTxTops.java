// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.rtl.SueTx;
import dev.sue.rtl.reliability.TxReliability;
import dev.sue.rtl.encap.Encapsulation;
import java.util.List;
import java.util.Map;

/**
 * The SUE transmit top ({@code sue_tx}) and its go-back-N block ({@code sue_tx_reliability}).
 * Their defaults are the product's default configuration (512-bit bus, 1024 XPUs x 4 VCs, a
 * 512 KB cell buffer, standard IPv4/UDP), which {@code make gen} generates; tests pass small
 * configurations explicitly.
 */
public final class SueTxTops {
    private SueTxTops() {
    }

    public static void register(Catalog c) {
        ParamSpec xpus = ParamSpec.integer("xpus", "destination XPUs", 1024, 2, 1024);
        ParamSpec windowMax = ParamSpec.integer("windowMax", "largest per-connection send window (WINDOW register)",
                1024, 1, 16384);
        c.add(TopSpec.sue("sue_tx",
                "SUE transmit path: XPU TX interface, queues and packer, scheduler, RH/R-CRC, encapsulation, MAC stream",
                List.of(SueParams.dataWidth("tx_data and MAC bus width in bits", 512), xpus,
                        ParamSpec.oneOf("vcs", "virtual channels", 4, 1L, 2L, 4L),
                        ParamSpec.integer("cells", "cells of dataWidth bits in the shared op buffer", 8192, 16, 65536),
                        SueParams.encap(),
                        SueParams.vlan("insert an 802.1Q tag", false),
                        ParamSpec.integer("ports", "MAC ports (only 1 implemented)", 1, 1, 4), windowMax),
                v -> {
                    int w = v.integer("dataWidth");
                    int x = v.integer("xpus");
                    int vc = v.integer("vcs");
                    int cells = v.integer("cells");
                    Encapsulation e = SueParams.encap(v);
                    boolean vl = v.flag("vlan");
                    int p = v.integer("ports");
                    int wm = v.integer("windowMax");
                    return () -> new SueTx(w, x, vc, cells, e, vl, p, wm);
                }));
        c.add(TopSpec.sue("sue_tx_reliability",
                "SUE transmit go-back-N: PSN table, staged ACK/NACK/rewind/timer engine, descriptor pool (the "
                        + "cell buffer is the replay store), windows, empty PDUs, counters",
                List.of(SueParams.dataWidth("data stream width in bits", 512), xpus,
                        ParamSpec.integer("cells", "the queue manager's cells (descriptor pool entries)", 8192, 2,
                                65536), windowMax),
                v -> () -> new TxReliability(v.integer("dataWidth"), v.integer("xpus"), v.integer("cells"),
                        v.integer("windowMax"))));
        c.add(new Preset("sue_tx_1024_1024x4", "sue_tx",
                Map.of("dataWidth", "1024", "xpus", "1024", "vcs", "4", "cells", "4096"),
                "800G transmit path: 1024-bit bus, 1024 XPUs x 4 VCs, 512 KB cell buffer"));
        c.add(new Preset("sue_tx_small", "sue_tx",
                Map.of("dataWidth", "256", "xpus", "6", "vcs", "4", "cells", "128"),
                "a small transmit path for simulation: 256-bit bus, 6 XPUs x 4 VCs, 128 cells"));
    }
}
