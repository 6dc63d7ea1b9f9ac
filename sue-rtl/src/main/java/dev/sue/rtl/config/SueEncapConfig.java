// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.config;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;

/**
 * Encapsulation configuration: the global registers and per-destination-XPU tables the network
 * header builder reads, written through a simple word-write port that a later AXI4-Lite
 * register block will drive.
 *
 * <h2>Parameters</h2>
 * <ul>
 *   <li>{@code numXpus} (1..1024): entries of each per-destination table (destination xpuid
 *       0..numXpus-1).</li>
 *   <li>{@code macTable}: keep the destination-MAC table (standard encapsulations only).</li>
 *   <li>{@code ipWords} (0, 1 or 4): 32-bit words of the destination-IP table (0 none, 1 IPv4,
 *       4 IPv6); also the number of own-IP words kept.</li>
 *   <li>{@code dstIpTable} (default true): keep the destination-IP table; false keeps only the own
 *       IP (a receiver needs no destination addresses; {@code dst_ip} then reads 0).</li>
 * </ul>
 *
 * <h2>Write port</h2>
 * {@code cfg_valid}, {@code cfg_addr[15:0]} (a <em>word</em> address), {@code cfg_data[31:0]},
 * {@code cfg_ready} (always 1: a write is accepted in every cycle with {@code cfg_valid}; the
 * port has it so a future implementation may stall). A write takes effect on the clock edge
 * that accepts it; a lookup presented in the same cycle sees the old value. Writes to unmapped
 * addresses, to tables this instance does not keep, or to destinations {@code >= numXpus} are
 * ignored. There is no read-back on this port. Unused high bits of a word are ignored.
 *
 * <h2>Address map (word addresses)</h2>
 * <pre>
 * address            name            bits    reset       meaning
 * 0x0000             OWN_MAC_LO      [31:0]  0           own MAC bits 31:0 (wire bytes 2..5)
 * 0x0001             OWN_MAC_HI      [15:0]  0           own MAC bits 47:32 (wire bytes 0..1)
 * 0x0002             OWN_XPUID       [31:0]  0           own fabric xpuid (AFH SA / src xpuid; AFH Gen 1 and
 *                                                        Gen 2 compressed use bits 15:0)
 * 0x0003             UDP_DST_PORT    [15:0]  50000       UDP destination port (standard encapsulation)
 * 0x0004             AFH_DA_PREFIX   [31:0]  0x02000000  AFH Gen 1 DA bytes 0..3 (locally administered)
 * 0x0005             AFH_SA_PREFIX   [31:0]  0x02000000  AFH Gen 1 SA bytes 0..3
 * 0x0006             VLAN_VID        [11:0]  0           802.1Q VLAN id (DEI is 0; PCP from the VC map)
 * 0x0007             HOP_LIMIT       [7:0]   64          IPv4 TTL, IPv6 hop limit, AFH1 shim TTL, AFH2 hop count
 * 0x0008 + w, w=0..3 OWN_IP_w        [31:0]  0           own IP bits 32w+31:32w (IPv4: word 0 only)
 * 0x0010 + vc, 0..3  VC_MAP_vc       [2:0]   vc          802.1Q PCP for VC vc
 *                                    [13:8]  8*vc        DSCP (IPv4 TOS[7:2], AFH1 shim)
 *                                    [23:16] 32*vc       IPv6 traffic class
 * 0x4000 | d&lt;&lt;4 | f  per-destination table, d = destination xpuid (0..numXpus-1), f:
 *    f = 0x0         DST_MAC_LO      [31:0]  -           destination MAC bits 31:0 (macTable only)
 *    f = 0x1         DST_MAC_HI      [15:0]  -           destination MAC bits 47:32 (macTable only)
 *    f = 0x2         PARTITION       [9:0]   -           partition for the RH
 *    f = 0x4 + w     DST_IP_w        [31:0]  -           destination IP bits 32w+31:32w (w &lt; ipWords)
 * </pre>
 * Multi-word values keep their least significant word at the lowest address. A MAC/IP value
 * is the number whose most significant byte goes first on the wire (MAC 02:00:00:00:00:01 is
 * 0x0200_0000_0001). Table RAMs have no reset: write every entry that will be used.
 *
 * <h2>Lookup port</h2>
 * {@code lookup_dest} (10 bits) is presented every cycle; {@code dst_mac}, {@code dst_ip},
 * {@code partition} give the entry one cycle later (registered RAM read; latency 1). Indices
 * {@code >= numXpus} read undefined data (the header builder flags them). The global values are
 * plain register outputs (latency 0 from a write).
 */
public final class SueEncapConfig extends Component {
    public static final int OWN_MAC_LO = 0x0000;
    public static final int OWN_MAC_HI = 0x0001;
    public static final int OWN_XPUID = 0x0002;
    public static final int UDP_DST_PORT = 0x0003;
    public static final int AFH_DA_PREFIX = 0x0004;
    public static final int AFH_SA_PREFIX = 0x0005;
    public static final int VLAN_VID = 0x0006;
    public static final int HOP_LIMIT = 0x0007;
    public static final int OWN_IP = 0x0008;
    public static final int VC_MAP = 0x0010;
    public static final int TABLE_BASE = 0x4000;
    public static final int T_DST_MAC_LO = 0x0;
    public static final int T_DST_MAC_HI = 0x1;
    public static final int T_PARTITION = 0x2;
    public static final int T_DST_IP = 0x4;
    public static final int DEFAULT_UDP_PORT = 50000;
    public static final long DEFAULT_AFH_PREFIX = 0x0200_0000L;
    public static final int DEFAULT_HOP_LIMIT = 64;

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());

    public final UInt lookupDest = in(uint(10));

    public final Bits ownMac = out(bits(48));
    public final Bits ownXpuid = out(bits(32));
    public final Bits udpDstPort = out(bits(16));
    public final Bits afhDaPrefix = out(bits(32));
    public final Bits afhSaPrefix = out(bits(32));
    public final Bits vlanVid = out(bits(12));
    public final Bits hopLimit = out(bits(8));
    public final Bits ownIp;
    /** PCP of VC v at bits [3v+2:3v]. */
    public final Bits vcPcp = out(bits(12));
    /** DSCP of VC v at bits [6v+5:6v]. */
    public final Bits vcDscp = out(bits(24));
    /** IPv6 traffic class of VC v at bits [8v+7:8v]. */
    public final Bits vcTc = out(bits(32));

    public final Bits dstMac = out(bits(48));
    public final Bits dstIp;
    public final Bits partition = out(bits(10));

    public SueEncapConfig(int numXpus, boolean macTable, int ipWords) {
        this(numXpus, macTable, ipWords, true);
    }

    public SueEncapConfig(int numXpus, boolean macTable, int ipWords, boolean dstIpTable) {
        param("numXpus", numXpus);
        param("dstIpTable", dstIpTable);
        param("macTable", macTable);
        param("ipWords", ipWords);
        require(numXpus >= 1 && numXpus <= 1024, "numXpus must be 1..1024, got " + numXpus);
        require(ipWords == 0 || ipWords == 1 || ipWords == 4, "ipWords must be 0, 1 or 4, got " + ipWords);
        int ipw = Math.max(ipWords, 1);
        ownIp = out(bits(32 * ipw));
        dstIp = out(bits(32 * ipw));
        cfgReady.set(TRUE);

        Bool global = cfgValid.and(cfgAddr.slice(15, 5).eq(0));
        Bits ownMacLo = word(global, OWN_MAC_LO, 32, 0, "own_mac_lo");
        Bits ownMacHi = word(global, OWN_MAC_HI, 16, 0, "own_mac_hi");
        ownMac.set(cat(ownMacHi, ownMacLo));
        ownXpuid.set(word(global, OWN_XPUID, 32, 0, "own_xpuid_reg"));
        udpDstPort.set(word(global, UDP_DST_PORT, 16, DEFAULT_UDP_PORT, "udp_dst_port_reg"));
        afhDaPrefix.set(word(global, AFH_DA_PREFIX, 32, DEFAULT_AFH_PREFIX, "afh_da_prefix_reg"));
        afhSaPrefix.set(word(global, AFH_SA_PREFIX, 32, DEFAULT_AFH_PREFIX, "afh_sa_prefix_reg"));
        vlanVid.set(word(global, VLAN_VID, 12, 0, "vlan_vid_reg"));
        hopLimit.set(word(global, HOP_LIMIT, 8, DEFAULT_HOP_LIMIT, "hop_limit_reg"));
        Bits[] ip = new Bits[ipw];
        for (int w = 0; w < ipw; w++) {
            ip[w] = word(global, OWN_IP + w, 32, 0, "own_ip_" + w);
        }
        ownIp.set(msbFirst(ip));
        Bits[] pcp = new Bits[4];
        Bits[] dscp = new Bits[4];
        Bits[] tc = new Bits[4];
        for (int v = 0; v < 4; v++) {
            pcp[v] = field(global, VC_MAP + v, 2, 0, v, "vc_pcp_" + v);
            dscp[v] = field(global, VC_MAP + v, 13, 8, 8L * v, "vc_dscp_" + v);
            tc[v] = field(global, VC_MAP + v, 23, 16, 32L * v, "vc_tc_" + v);
        }
        vcPcp.set(msbFirst(pcp));
        vcDscp.set(msbFirst(dscp));
        vcTc.set(msbFirst(tc));

        // Per-destination tables: one RAM per 32-bit word so a word write needs no read-modify-write.
        int depth = Math.max(2, numXpus);
        int aw = log2Up(depth);
        Bool inRange = numXpus == 1024 ? TRUE : cfgAddr.slice(13, 4).lt(numXpus);
        Bool table = cfgValid.and(cfgAddr.slice(15, 14).eq(1)).and(inRange);
        UInt wrIndex = cfgAddr.slice(13, 4).resize(aw);
        UInt rdIndex = lookupDest.resize(aw);
        UInt f = cfgAddr.slice(3, 0);
        partition.set(table(depth, 10, "partition_table", table.and(f.eq(T_PARTITION)), wrIndex, rdIndex));
        if (macTable) {
            Bits lo = table(depth, 32, "dst_mac_lo_table", table.and(f.eq(T_DST_MAC_LO)), wrIndex, rdIndex);
            Bits hi = table(depth, 16, "dst_mac_hi_table", table.and(f.eq(T_DST_MAC_HI)), wrIndex, rdIndex);
            dstMac.set(cat(hi, lo));
        } else {
            dstMac.set(B(0, 48));
        }
        if (ipWords > 0 && dstIpTable) {
            Bits[] d = new Bits[ipWords];
            for (int w = 0; w < ipWords; w++) {
                d[w] = table(depth, 32, "dst_ip_" + w + "_table", table.and(f.eq(T_DST_IP + w)), wrIndex, rdIndex);
            }
            dstIp.set(msbFirst(d));
        } else {
            dstIp.set(B(0, 32 * ipw));
        }
        latency(1);
    }

    /** A global register holding cfg_data[width-1:0], written at {@code address}. */
    private Bits word(Bool global, int address, int width, long reset, String name) {
        return field(global, address, width - 1, 0, reset, name);
    }

    /** A global register holding cfg_data[hi:lo], written at {@code address}. */
    private Bits field(Bool global, int address, int hi, int lo, long reset, String name) {
        Bits r = reg(name, bits(hi - lo + 1)).init(reset);
        when(global.and(cfgAddr.slice(4, 0).eq(address)), () -> r.set(cfgData.slice(hi, lo)));
        return r;
    }

    private Bits table(int depth, int width, String name, Bool writeEnable, UInt wrIndex, UInt rdIndex) {
        Mem<Bits> m = Mem.of(depth, width).named(name);
        m.write(wrIndex, cfgData.resize(width), writeEnable);
        return m.readSync(rdIndex);
    }

    /** Element 0 in the least significant bits. */
    private static Bits msbFirst(Bits[] lsbFirst) {
        Bits[] rev = new Bits[lsbFirst.length];
        for (int i = 0; i < lsbFirst.length; i++) {
            rev[i] = lsbFirst[lsbFirst.length - 1 - i];
        }
        return rev.length == 1 ? rev[0] : cat(rev);
    }
}
