// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.rtl.SueEndpoint;
import dev.sue.rtl.SueRx;
import dev.sue.rtl.axi.AxiXpuOptions;
import dev.sue.rtl.encap.Encapsulation;
import dev.sue.rtl.reliability.RxReliability;
import dev.sue.rtl.rx.RxFrameParser;
import dev.sue.rtl.rxbuf.RxDeliver;
import java.util.List;
import java.util.Map;

/**
 * Tops for the SUE receive path ({@code dev.sue.rtl.rx}).
 *
 * <ul>
 * <li>{@code sue_rx}: {@link SueRx}, the whole receive path (parser, reliability, delivery).
 * <li>{@code sue_rx_parser}: {@link RxFrameParser}, MAC RX frame parser/validator with R-CRC and
 *     FCS checks, control-frame demux and drop counters (see {@code sue-rtl/DESIGN-RX.md}).
 * <li>{@code sue_rx_reliability}: {@link RxReliability}, receive go-back-N (expected PSN per source,
 *     accept verdict, coalesced ACK, NACK with retry, peer ACK hand-off; DESIGN-RELIABILITY.md).
 * <li>{@code sue_rx_deliver}: {@link RxDeliver}, RX buffer, op unpacker and XPU RX interface
 *     (spec Table 2), see {@code sue-rtl/DESIGN-RX.md}.
 * </ul>
 */
public final class SueRxTops {
    /** {@code sue_endpoint}'s default {@code cells} (the Table 4 presets share it out among the planes). */
    static final int ENDPOINT_CELLS = 8192;
    /** {@code sue_endpoint}'s default {@code rxBufBytes}. */
    static final int ENDPOINT_RX_BUF_BYTES = 262144;

    private SueRxTops() {
    }

    public static void register(Catalog c) {
        c.add(TopSpec.sue("sue_endpoint",
                "SUE endpoint: transmit and receive paths with go-back-N reliability, one AXI4-Lite target "
                        + "for every register (exports its register map)",
                List.of(SueParams.dataWidth("XPU and MAC bus width in bits", 512),
                        ParamSpec.integer("xpus", "XPUs in the fabric", 1024, 2, 1024),
                        ParamSpec.oneOf("vcs", "virtual channels", 4, 1L, 2L, 4L),
                        ParamSpec.integer("cells", "transmit cell buffer (queues + replay store), cells of dataWidth",
                                ENDPOINT_CELLS, 16, 65536),
                        ParamSpec.integer("rxBufBytes", "RX buffer bytes: vcs * dataWidth/8 * 2^k, >= 4096 per VC",
                                ENDPOINT_RX_BUF_BYTES, 1, 1L << 22),
                        SueParams.encap(),
                        SueParams.vlan("frames carry an 802.1Q tag", false),
                        SueAxiTops.xpuIf(), SueAxiTops.addrBits(), SueAxiTops.idBits(), SueAxiTops.destLsb(),
                        SueAxiTops.destBits(),
                        ParamSpec.oneOf("ports", "Ethernet ports: a plane (transmit + receive path) per port, strict "
                                + "mode (sue-rtl/DESIGN-PORTS.md)", 1, 1L, 2L, 4L),
                        SuePorts.portWidth(), SuePorts.clockMhz(), SuePorts.portGbps()),
                v -> {
                    int w = v.integer("dataWidth");
                    int ports = v.integer("ports");
                    int portWidth = SuePorts.portWidth(v);
                    int n = v.integer("xpus");
                    int vcs = v.integer("vcs");
                    int cells = v.integer("cells");
                    int buf = v.integer("rxBufBytes");
                    Encapsulation e = SueParams.encap(v);
                    boolean vlan = v.flag("vlan");
                    if (v.integer("xpuIf") == SueAxiTops.XPU_IF_AXI4) {
                        int a = v.integer("addrBits");
                        int id = v.integer("idBits");
                        int lsb = v.integer("destLsb");
                        int db = v.integer("destBits");
                        return () -> new SueEndpoint(w, n, vcs, cells, buf, e, vlan, new AxiXpuOptions(a, id, lsb, db),
                                ports, portWidth);
                    }
                    return () -> new SueEndpoint(w, n, vcs, cells, buf, e, vlan, null, ports, portWidth);
                }));
        SuePorts.registerPresets(c);
        c.add(TopSpec.sue("sue_rx",
                "SUE receive path: frame parser, receive reliability, RX buffer and XPU RX interface (spec Table 2)",
                List.of(SueParams.dataWidth("MAC RX and rx_data width in bits", 512),
                        ParamSpec.integer("xpus", "source XPUs", 16, 2, 1024),
                        ParamSpec.integer("vcs", "virtual channels", 4, 1, 4),
                        ParamSpec.integer("rxBufBytes", "RX buffer bytes: vcs * dataWidth/8 * 2^k, >= 4096 per VC",
                                65536, 1, 1L << 22),
                        SueParams.encap(),
                        SueParams.vlan("frames carry an 802.1Q tag", false)),
                v -> {
                    int w = v.integer("dataWidth");
                    int n = v.integer("xpus");
                    int vcs = v.integer("vcs");
                    int buf = v.integer("rxBufBytes");
                    Encapsulation e = SueParams.encap(v);
                    boolean vlan = v.flag("vlan");
                    return () -> new SueRx(w, n, vcs, buf, e, vlan);
                }));
        c.add(TopSpec.sue("sue_rx_parser",
                "SUE RX frame parser: header/RH/R-CRC/FCS checks, op region cut-through with commit/abort, "
                        + "control-frame output, per-reason drop counters",
                List.of(SueParams.dataWidth("MAC bus width in bits", 512),
                        SueParams.encap(),
                        SueParams.vlan("frames carry an 802.1Q tag", false),
                        ParamSpec.integer("numXpus", "XPUs in the partition table", 16, 1, 1024)),
                v -> {
                    Encapsulation e = SueParams.encap(v);
                    boolean vlan = v.flag("vlan");
                    int w = v.integer("dataWidth");
                    int n = v.integer("numXpus");
                    return () -> new RxFrameParser(w, e, vlan, n);
                }));
        c.add(TopSpec.sue("sue_rx_deliver",
                "SUE RX buffer, op unpacker and XPU RX interface (spec Table 2): per-VC rings, atomic PDU "
                        + "validation, credit-based delivery, drop counters",
                List.of(SueParams.dataWidth("bus width in bits", 512),
                        ParamSpec.integer("vcs", "virtual channels (one buffer partition each)", 4, 1, 4),
                        ParamSpec.integer("bufBytes", "RX buffer bytes: vcs * dataWidth/8 * 2^k, >= 4096 per VC",
                                65536, 1, 1L << 22)),
                v -> {
                    int w = v.integer("dataWidth");
                    int vcs = v.integer("vcs");
                    int b = v.integer("bufBytes");
                    return () -> new RxDeliver(w, vcs, b);
                }));
        c.add(new Preset("sue_rx_parser_ipv6_1024", "sue_rx_parser",
                Map.of("dataWidth", "1024", "encap", "1", "vlan", "true", "numXpus", "1024"),
                "RX parser, IPv6 + 802.1Q, 1024-bit bus, 1024 XPUs"));
        c.add(TopSpec.sue("sue_rx_reliability",
                "SUE receive reliability: expected PSN per source, accept verdict for the RX buffer, coalesced "
                        + "cumulative ACK (K/T), NACK with retry timer, duplicate ACK, peer ACK hand-off, counters",
                List.of(ParamSpec.integer("numXpus", "source XPUs (per-source state in RAM)", 16, 1, 1024),
                        SueParams.dataWidth("RX PDU beat width in bits", 512)),
                v -> {
                    int n = v.integer("numXpus");
                    int w = v.integer("dataWidth");
                    return () -> new RxReliability(n, w);
                }));
        c.add(new Preset("sue_rx_reliability_1024", "sue_rx_reliability",
                Map.of("numXpus", "1024", "dataWidth", "1024"), "RX reliability, 1024 sources, 1024-bit beats"));
    }
}
