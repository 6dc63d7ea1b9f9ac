// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.rtl.encap.Encapsulation;
import dev.sue.rtl.encap.SueFramer;
import dev.sue.rtl.encap.TxFramePath;
import dev.sue.rtl.mac.PortSelect;
import java.util.List;
import java.util.Map;

/**
 * SUE transmit framing: the frame builder ({@code sue_framer}), the MAC port select
 * ({@code port_select}) and the two together ({@code tx_frame_path}, the test top for the
 * framing path).
 */
public final class SueFrameTops {
    private SueFrameTops() {
    }

    public static void register(Catalog c) {
        ParamSpec numXpus = ParamSpec.integer("numXpus", "destination XPUs in the per-destination tables", 16, 1,
                1024);
        ParamSpec dataWidth = ParamSpec.oneOf("dataWidth", "MAC-side bus width in bits", 512, 64L, 128L, 256L, 512L,
                1024L);
        ParamSpec encap = SueParams.encap();
        ParamSpec vlan = SueParams.vlan("insert an 802.1Q tag", false);
        ParamSpec ports = ParamSpec.integer("ports", "MAC ports (only 1 implemented)", 1, 1, 4);
        c.add(TopSpec.sue("sue_framer",
                "SUE frame builder: network header, RH, PDU, padding to MIN_FRAME, R-CRC, optional FCS",
                List.of(dataWidth, encap, vlan, numXpus),
                v -> {
                    int w = v.integer("dataWidth");
                    Encapsulation e = SueParams.encap(v);
                    boolean vl = v.flag("vlan");
                    int n = v.integer("numXpus");
                    return () -> new SueFramer(w, e, vl, n);
                }));
        c.add(TopSpec.sue("port_select", "MAC port selection (1 port: pass-through)",
                List.of(dataWidth, ports), v -> () -> new PortSelect(v.integer("dataWidth"), v.integer("ports"))));
        c.add(TopSpec.sue("tx_frame_path", "SUE framer + port select: PDU stream with RH fields in, MAC frames out",
                List.of(dataWidth, encap, vlan, numXpus, ports),
                v -> {
                    int w = v.integer("dataWidth");
                    Encapsulation e = SueParams.encap(v);
                    boolean vl = v.flag("vlan");
                    int n = v.integer("numXpus");
                    int p = v.integer("ports");
                    return () -> new TxFramePath(w, e, vl, n, p);
                }));
        c.add(new Preset("tx_frame_path_1024_ipv4", "tx_frame_path",
                Map.of("dataWidth", "1024", "encap", "0", "vlan", "true", "numXpus", "1024"),
                "800G framing path: 1024-bit bus, IPv4 + 802.1Q + UDP, 1024 XPUs"));
    }
}
