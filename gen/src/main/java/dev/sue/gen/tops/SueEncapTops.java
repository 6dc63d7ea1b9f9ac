// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.rtl.config.SueEncapConfig;
import dev.sue.rtl.encap.Encapsulation;
import dev.sue.rtl.encap.SueHeaderBuilder;
import java.util.List;
import java.util.Map;

/**
 * SUE transmit encapsulation: the configuration registers/tables ({@code sue_encap_config}) and
 * the network header builder ({@code sue_header_builder}), one encapsulation per instance.
 */
public final class SueEncapTops {
    private SueEncapTops() {
    }

    public static void register(Catalog c) {
        ParamSpec numXpus = ParamSpec.integer("numXpus", "destination XPUs in the per-destination tables", 16, 1,
                1024);
        c.add(TopSpec.sue("sue_header_builder",
                "SUE network header builder (standard IPv4/IPv6+UDP, AFH Gen 1 [shim], AFH Gen 2) with its "
                        + "config tables; latency 3",
                List.of(SueParams.encap(),
                        SueParams.vlan("insert an 802.1Q tag", true),
                        numXpus),
                v -> {
                    Encapsulation e = SueParams.encap(v);
                    boolean vlan = v.flag("vlan");
                    int n = v.integer("numXpus");
                    return () -> new SueHeaderBuilder(e, vlan, n);
                }));
        c.add(TopSpec.sue("sue_encap_config",
                "SUE encapsulation configuration registers and per-destination tables (word-write port)",
                List.of(numXpus, ParamSpec.flag("macTable", "keep the destination MAC table", true),
                        ParamSpec.oneOf("ipWords", "destination IP words: 0 none, 1 IPv4, 4 IPv6", 1, 0L, 1L, 4L)),
                v -> () -> new SueEncapConfig(v.integer("numXpus"), v.flag("macTable"), v.integer("ipWords"))));
        c.add(new Preset("sue_header_builder_ipv6_1024", "sue_header_builder",
                Map.of("encap", "1", "vlan", "true", "numXpus", "1024"),
                "IPv6 + 802.1Q + UDP header builder with full-size (1024-XPU) tables"));
    }
}
