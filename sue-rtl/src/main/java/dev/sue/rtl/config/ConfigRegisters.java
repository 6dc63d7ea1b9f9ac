// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.config;

import dev.sue.hdl.regmap.Access;
import dev.sue.hdl.regmap.FieldSpec;
import dev.sue.hdl.regmap.RegisterBlockSpec;
import dev.sue.hdl.regmap.RegisterSpec;
import dev.sue.rtl.axi.AxiXpuBridge;
import dev.sue.rtl.axi.AxiXpuOptions;
import dev.sue.rtl.encap.SueFramer;
import dev.sue.rtl.queue.TxQueueManager;
import dev.sue.rtl.ports.PortSteer;
import dev.sue.rtl.ports.TxDispatcher;
import dev.sue.rtl.reliability.RxRelConfig;
import dev.sue.rtl.reliability.TxReliability;
import dev.sue.rtl.rx.RxFrameParser;
import dev.sue.rtl.rxbuf.RxCommandTable;
import dev.sue.rtl.xpu.XpuTxBus;
import java.util.ArrayList;
import java.util.List;

/**
 * The endpoint's configuration words as named registers: the one declaration of their fields,
 * resets and legal ranges, from which {@link CfgShadow} checks writes and serves reads, and the
 * register map exports ({@code .rdl}, {@code _regs.py}, {@code _regs.md}, JSON) document the
 * {@code cfg} block. The addresses are the owning blocks' constants (their Javadoc and
 * sue-rtl/README.md describe what each word does); the word address is the configuration-bus
 * address, byte address {@code 4 x} that in the AXI4-Lite map.
 *
 * <p>Three kinds, which {@link CfgShadow} keeps differently:
 * <ul>
 * <li>scalar registers (word address below {@link #CMD_TYPE_BASE}, and 0x0200..0x03FF): a
 *     flip-flop shadow each, reset to the block's reset value;
 * <li>{@code CMD_TYPE[t]} ({@code 0x0100 + t}, t = 1..255; type 0 is PAD and not configurable):
 *     a 256 x 5-bit shadow RAM, cleared after reset (every type is invalid after reset);
 * <li>the per-destination table ({@code 0x4000 | d << 4 | column}, d &lt; xpus): one column RAM
 *     of {@code xpus} entries per stored column, cleared after reset; {@code CONN[d]} is a command
 *     (write-only, reads 0).
 * </ul>
 */
public final class ConfigRegisters {
    /** Word address bits of the configuration window. */
    public static final int ADDR_BITS = 15;
    public static final int CMD_TYPE_BASE = RxCommandTable.CMD_TYPE_BASE;
    /** Command types: 1..255 configurable (type 0 is PAD). */
    public static final int CMD_TYPES = 256;
    /** Largest legal {@code CMD_TYPE.units}: 9 units = 18 control bytes. */
    public static final int CMD_MAX_UNITS = 9;
    /** Start of the per-destination table and the words per destination. */
    public static final int TABLE_BASE = SueEncapConfig.TABLE_BASE;
    public static final int TABLE_STRIDE = 16;
    /** Own and destination IP words (IPv6: 4; IPv4 uses word 0). */
    public static final int IP_WORDS = 4;
    /** VC map words (one per VC the encapsulation can carry). */
    public static final int VC_MAP_WORDS = 4;
    /** RTO field bits: 1..2^23-1 cycles. */
    public static final int RTO_BITS = 23;
    /** {@code AXI_DEST_MAP}'s fields: the lowest address bit of the destination XPU and its bits. */
    public static final String DEST_MAP_LSB = "lsb";
    public static final String DEST_MAP_BITS = "bits";
    /** The most destination bits: an xpuid. */
    public static final int DEST_MAP_MAX_BITS = XpuTxBus.XPUID_BITS;

    private ConfigRegisters() {
    }

    /**
     * The {@code cfg} block of an endpoint with {@code xpus} destinations, {@code cells} transmit
     * cells (DEST_LIMIT 1..cells) and the largest WINDOW {@code windowMax}, with the AXI4 XPU
     * interface's {@code AXI_DEST_MAP} when {@code axi} is not null.
     */
    public static RegisterBlockSpec spec(int xpus, int cells, int windowMax, AxiXpuOptions axi) {
        return spec(xpus, cells, windowMax, axi, 1);
    }

    /**
     * As {@link #spec(int, int, int, AxiXpuOptions)} for an endpoint of {@code ports} ports: with 2
     * or 4, the {@code PORT_MAP} column ({@link TxDispatcher}: 0 = d mod ports, p + 1 = port p;
     * larger values are refused).
     */
    public static RegisterBlockSpec spec(int xpus, int cells, int windowMax, AxiXpuOptions axi, int ports) {
        if (ports != 1 && ports != 2 && ports != 4) {
            throw new IllegalArgumentException("ports must be 1, 2 or 4, got " + ports);
        }
        if (xpus < 1 || xpus > 1024 || cells < 1 || windowMax < 1) {
            throw new IllegalArgumentException("configuration registers need xpus 1..1024, cells >= 1 and windowMax"
                    + " >= 1, got " + xpus + ", " + cells + ", " + windowMax);
        }
        List<RegisterSpec> r = new ArrayList<>();
        // SueEncapConfig: own identity and the network's fields
        r.add(one("OWN_MAC_LO", SueEncapConfig.OWN_MAC_LO, field("mac", 0, 32, 0, "Own MAC bits 31:0")));
        r.add(one("OWN_MAC_HI", SueEncapConfig.OWN_MAC_HI, field("mac", 0, 16, 0, "Own MAC bits 47:32")));
        r.add(one("OWN_XPUID", SueEncapConfig.OWN_XPUID, field("xpuid", 0, 32, 0,
                "Own fabric xpuid (AFH SA / source xpuid; the RH and AFH Gen 1 use the low bits)")));
        r.add(one("UDP_DST_PORT", SueEncapConfig.UDP_DST_PORT, field("port", 0, 16,
                SueEncapConfig.DEFAULT_UDP_PORT, "UDP destination port (the same at both ends)")));
        r.add(one("AFH_DA_PREFIX", SueEncapConfig.AFH_DA_PREFIX, field("prefix", 0, 32,
                SueEncapConfig.DEFAULT_AFH_PREFIX, "AFH Gen 1 DA bytes 0..3")));
        r.add(one("AFH_SA_PREFIX", SueEncapConfig.AFH_SA_PREFIX, field("prefix", 0, 32,
                SueEncapConfig.DEFAULT_AFH_PREFIX, "AFH Gen 1 SA bytes 0..3")));
        r.add(one("VLAN_VID", SueEncapConfig.VLAN_VID, field("vid", 0, 12, 0, "802.1Q VLAN id")));
        r.add(one("HOP_LIMIT", SueEncapConfig.HOP_LIMIT, field("hops", 0, 8, SueEncapConfig.DEFAULT_HOP_LIMIT,
                "IPv4 TTL, IPv6 hop limit, AFH1 shim TTL, AFH2 hop count")));
        for (int w = 0; w < IP_WORDS; w++) {
            r.add(one("OWN_IP_" + w, SueEncapConfig.OWN_IP + w, field("ip", 0, 32, 0,
                    "Own IP bits " + (32 * w + 31) + ":" + 32 * w + " (IPv4: word 0 only)")));
        }
        for (int vc = 0; vc < VC_MAP_WORDS; vc++) {
            r.add(new RegisterSpec("VC_MAP_" + vc, SueEncapConfig.VC_MAP + vc, 1, "VC " + vc
                    + " to 802.1Q PCP, DSCP (IPv4, AFH1 shim) and IPv6 traffic class", List.of(
                    field("pcp", 0, 3, vc, "802.1Q PCP"),
                    field("dscp", 8, 6, 8 * vc, "DSCP"),
                    field("tc", 16, 8, 32 * vc, "IPv6 traffic class"))));
        }
        // command types (the TX and RX copies at once)
        r.add(new RegisterSpec("CMD_TYPE", CMD_TYPE_BASE + 1, CMD_TYPES - 1, "Command type t + 1: units 1.."
                + CMD_MAX_UNITS + " make it valid, 0 invalidates it (the blocks count that in cfg_reject)", List.of(
                new FieldSpec("units", 0, 4, Access.RW, 0L, 0, CMD_MAX_UNITS, "Control length in 2-byte units"),
                FieldSpec.of("data", 4, 1, Access.RW, 0L, "The op carries data"))));
        // transmit queue manager, framer, reliability
        r.add(one("PACK_LIMIT", TxQueueManager.ADDR_PACK_LIMIT, field("bytes", 0, 13, 2048,
                "Most bytes packed into one PDU").range(TxQueueManager.PACK_LIMIT_MIN, 4096)));
        r.add(one("DEST_LIMIT", TxQueueManager.ADDR_DEST_LIMIT, field("cells", 0, bits(cells), cells,
                "Cells one destination may hold (cells = no limit)").range(1, cells)));
        r.add(one("MIN_FRAME", SueFramer.MIN_FRAME, field("bytes", 0, 12, SueFramer.DEFAULT_MIN_FRAME,
                "Minimum frame bytes including the FCS; 0 = no padding")));
        r.add(one("FCS_BY_SUE", SueFramer.FCS_BY_SUE, field("enable", 0, 1, 0,
                "1: SUE appends the FCS; 0: the MAC does")));
        r.add(one("WINDOW", TxReliability.ADDR_WINDOW, field("pdus", 0, bits(windowMax), Math.min(64, windowMax),
                "PDUs outstanding per connection").range(1, windowMax)));
        r.add(one("RTO", TxReliability.ADDR_RTO, field("cycles", 0, RTO_BITS, TxReliability.RTO_DEFAULT,
                "Retransmit timeout in cycles").range(1, (1L << RTO_BITS) - 1)));
        r.add(one("RETRY_LIMIT", TxReliability.ADDR_RETRY_LIMIT, field("timeouts", 0, 8, TxReliability.RETRY_DEFAULT,
                "Timeouts without progress tolerated; the next one is the error")));
        r.add(one("ACK_PIGGYBACK_WAIT", TxReliability.ADDR_ACK_WAIT, field("cycles", 0, 15,
                TxReliability.ACK_WAIT_DEFAULT, "Cycles before pending ACK information leaves in an empty PDU")));
        if (axi != null) {
            r.add(axiDestMap(axi.addrBits(), axi.destLsb(), axi.destBits()));
        }
        if (ports > 1) {
            r.add(one("PORT_MODE", TxDispatcher.ADDR_PORT_MODE, field("unordered", 0, 1, 0,
                    "1: unordered mode (ops load balanced over the live ports, failover; order kept per port"
                    + " only); 0: strict mode (PORT_MAP)")));
            r.add(one("UNREACH_TIME", PortSteer.ADDR_UNREACH_TIME, field("cycles", 0, PortSteer.UNREACH_TIME_BITS,
                    PortSteer.UNREACH_TIME_DEFAULT, "Unordered mode: cycles a plane holds cells with none acknowledged"
                    + " before its peer counts as unreachable over its port and its frames move to another; 0 = never")));
            r.add(one("CONN_MOVE_RETRIES", TxReliability.ADDR_CONN_MOVE_RETRIES, field("timeouts", 0, 8,
                    TxReliability.CONN_MOVE_DEFAULT, "Unordered mode: a connection's timeout after this many minus one"
                    + " without acknowledgement progress moves it to the next live port (its peer follows); 0 = never")));
        }
        // receive parser and reliability
        r.add(one("RX_FCS", RxFrameParser.RX_FCS, field("enable", 0, 1, 0, "1: SUE checks the FCS of every frame")));
        r.add(one("RX_MAX_PDU", RxFrameParser.RX_MAX_PDU, field("bytes", 0, 13, RxFrameParser.MAX_PDU,
                "Largest op region accepted").range(0, RxFrameParser.MAX_PDU)));
        r.add(one("ACK_EVERY", RxRelConfig.ACK_EVERY, field("pdus", 0, 8, RxRelConfig.DEFAULT_ACK_EVERY,
                "ACK at the K-th unacknowledged PDU").range(1, 255)));
        r.add(one("ACK_DELAY", RxRelConfig.ACK_DELAY, field("cycles", 0, 16, RxRelConfig.DEFAULT_ACK_DELAY,
                "ACK at most this many cycles after the first unacknowledged PDU").range(1, 65535)));
        r.add(one("NACK_RETRY", RxRelConfig.NACK_RETRY, field("cycles", 0, 16, RxRelConfig.DEFAULT_NACK_RETRY,
                "Re-NACK period while a gap persists (below 3 acts as 3)").range(1, 65535)));
        // per destination d (columns of one table)
        r.add(column("DST_MAC_LO", SueEncapConfig.T_DST_MAC_LO, xpus, entry("mac", 32, "Destination MAC bits 31:0")));
        r.add(column("DST_MAC_HI", SueEncapConfig.T_DST_MAC_HI, xpus, entry("mac", 16, "Destination MAC bits 47:32")));
        r.add(column("PARTITION", SueEncapConfig.T_PARTITION, xpus, entry("partition", 10,
                "Partition of the RH to and from d (the same at both ends of a link)")));
        r.add(column("NEXT_PSN", TxReliability.T_NEXT_PSN, xpus, entry("psn", 16,
                "PSN of the next PDU to d (write with no PDU to d in flight; reads the value written)")));
        for (int w = 0; w < IP_WORDS; w++) {
            r.add(column("DST_IP_" + w, SueEncapConfig.T_DST_IP + w, xpus, entry("ip", 32,
                    "Destination IP bits " + (32 * w + 31) + ":" + 32 * w + " (IPv4: word 0 only)")));
        }
        r.add(column("EXPECTED_PSN", RxRelConfig.F_EXPECTED_PSN, xpus, entry("psn", 16,
                "PSN expected next from d (reads the value written)")));
        if (ports > 1) {
            r.add(column("PORT_MAP", TxDispatcher.PORT_MAP_COLUMN, xpus, new FieldSpec("port", 0, 3, Access.RW, 0L, 0,
                    ports, "Port of the ops to d: 0 = d mod " + ports + " (after reset), p + 1 = port p (0.."
                    + (ports - 1) + ")")));
        }
        r.add(column("CONN", TxReliability.T_CONN, xpus, new FieldSpec("psn", 0, 16, Access.WO, null, 0, 65535,
                "Re-initialises connection d in error at this PSN (a command: reads 0)")));
        return new RegisterBlockSpec("cfg", "Configuration of the blocks (sue-rtl/README.md, Configuration)",
                ADDR_BITS, r);
    }

    /**
     * {@code AXI_DEST_MAP} of the AXI4 XPU interface ({@code AxiXpuBridge}'s destination map) with
     * {@code addrBits}-bit addresses, reset to the generator's {@code destLsb} and {@code destBits}:
     * the destination XPU of a request is address bits {@code [lsb + bits - 1 : lsb]} (address
     * bits at or above {@code addrBits} read 0, so any legal pair is a map).
     */
    public static RegisterSpec axiDestMap(int addrBits, int destLsb, int destBits) {
        if (addrBits < 1 || addrBits > 64) {
            throw new IllegalArgumentException("AXI addresses have 1..64 bits, got " + addrBits);
        }
        if (destLsb < 0 || destLsb >= addrBits || destBits < 1 || destBits > DEST_MAP_MAX_BITS) {
            throw new IllegalArgumentException("the destination map needs destLsb 0.." + (addrBits - 1)
                    + " (below the " + addrBits + "-bit address) and destBits 1.." + DEST_MAP_MAX_BITS + ", got "
                    + destLsb + " and " + destBits);
        }
        return new RegisterSpec("AXI_DEST_MAP", AxiXpuBridge.ADDR_DEST_MAP, 1, "AXI4 XPU interface: the destination "
                + "XPU of a request is address bits [lsb + bits - 1 : lsb]; one >= xpus is unmapped (DECERR); applies "
                + "to requests accepted after the write", List.of(
                new FieldSpec(DEST_MAP_LSB, 0, 6, Access.RW, (long) destLsb, 0, addrBits - 1,
                        "Lowest address bit of the destination XPU"),
                new FieldSpec(DEST_MAP_BITS, 8, 4, Access.RW, (long) destBits, 1, DEST_MAP_MAX_BITS,
                        "Address bits of the destination XPU")));
    }

    /** The field {@code name} of {@code r}. */
    public static FieldSpec field(RegisterSpec r, String name) {
        return r.fields().stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(r.name() + " has no field " + name));
    }

    /** The register is a column of the per-destination table. */
    public static boolean isColumn(RegisterSpec r) {
        return r.offset() >= TABLE_BASE;
    }

    /** The register is the command-type table. */
    public static boolean isCmdType(RegisterSpec r) {
        return r.offset() == CMD_TYPE_BASE + 1;
    }

    private static int bits(long max) {
        return 64 - Long.numberOfLeadingZeros(max);
    }

    private static FieldSpec field(String name, int lsb, int width, long reset, String doc) {
        return FieldSpec.of(name, lsb, width, Access.RW, reset, doc);
    }

    /** A table entry's field: cleared after reset (the shadow's; the blocks' RAMs have no reset). */
    private static FieldSpec entry(String name, int width, String doc) {
        return FieldSpec.of(name, 0, width, Access.RW, 0L, doc);
    }

    private static RegisterSpec one(String name, int address, FieldSpec field) {
        return new RegisterSpec(name, address, 1, field.doc(), List.of(field));
    }

    private static RegisterSpec column(String name, int column, int xpus, FieldSpec field) {
        return new RegisterSpec(name, TABLE_BASE + column, xpus, TABLE_STRIDE, field.doc() + "; entry d at 0x4000 | d << 4 | "
                + column, List.of(field));
    }
}
