// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.rtl.config.SueEncapConfig;

/**
 * Network header builder for one SUE instance (ARCHITECTURE.md §5, "Encapsulations"): from a
 * request {destination xpuid, VC, PDU length, entropy} it emits the complete network header
 * (everything before the RH) for the instance's encapsulation, with field values from the
 * configuration registers and per-destination tables of {@link SueEncapConfig} (instantiated
 * inside; its write port and address map are this block's {@code cfg_*} ports).
 *
 * <h2>Parameters</h2>
 * <ul>
 *   <li>{@code encap}: {@link Encapsulation} (generator codes 0..5).</li>
 *   <li>{@code vlan}: insert an 802.1Q tag (TPID 0x8100, PCP from the VC map, DEI 0, VID from
 *       {@code VLAN_VID}) after the MAC addresses. Allowed for the standard and AFH Gen 1
 *       encapsulations only.</li>
 *   <li>{@code numXpus} (1..1024): destinations in the tables.</li>
 * </ul>
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready}: configuration writes,
 *       see {@link SueEncapConfig}.</li>
 *   <li>{@code req_valid}; {@code req_dest[9:0]} destination xpuid (must be {@code < numXpus});
 *       {@code req_vc[1:0]}; {@code req_length[13:0]} PDU length in bytes from the first RH
 *       byte to the last R-CRC byte inclusive (including any zero padding), 0..16383 (every value
 *       fits the 16-bit IPv4/IPv6/UDP length fields);
 *       {@code req_entropy[15:0]}. A request is taken in every cycle with {@code req_valid}
 *       (no back-pressure: one header per cycle).</li>
 *   <li>{@code hdr_valid}; {@code hdr_data[8*HDR_BYTES-1:0]}, header byte k (k = 0 is the first
 *       byte on the wire) at bits {@code [8k+7:8k]}, multi-byte fields in network byte order;
 *       {@code hdr_partition[9:0]} the destination's partition (for the RH);
 *       {@code hdr_dest_error} the request's {@code req_dest >= numXpus} (the header's table
 *       fields are then undefined: drop the PDU).</li>
 * </ul>
 * {@code HDR_BYTES} = {@link Encapsulation#headerBytes(boolean)}: STD_IPV4 42/46, STD_IPV6
 * 62/66, AFH1 14/18, AFH1_SHIM 22/26, AFH2_NORMAL 14, AFH2_COMPRESSED 8 (without / with VLAN).
 *
 * <h2>Fields</h2>
 * <ul>
 *   <li>Standard: DA = table {@code DST_MAC}, SA = {@code OWN_MAC}. IPv4: version 4, IHL 5,
 *       DSCP from the VC map, ECN 0, total length = 28 + req_length, identification 0, DF,
 *       fragment offset 0, TTL = {@code HOP_LIMIT}, protocol 17, header checksum, source
 *       {@code OWN_IP}, destination table {@code DST_IP}. IPv6: version 6, traffic class from
 *       the VC map, flow label = {4'b0, entropy}, payload length = 8 + req_length, next header
 *       17, hop limit = {@code HOP_LIMIT}. UDP: source port = entropy, destination port =
 *       {@code UDP_DST_PORT}, length = 8 + req_length, checksum 0.</li>
 *   <li>AFH Gen 1: DA = {{@code AFH_DA_PREFIX}, req_dest as 16 bits}, SA =
 *       {{@code AFH_SA_PREFIX}, {@code OWN_XPUID[15:0]}}, EtherType 0x88B5; with shim
 *       EtherType 0x88B6 then {ver 0, rsv 0; DSCP (VC map), ECN 0; TTL = {@code HOP_LIMIT};
 *       rsv 0; entropy; next EtherType 0x88B5}.</li>
 *   <li>AFH Gen 2: key octet {W, V=0, VC[1:0], Z=0, Y=0, X=1, M=0} (bit 7 .. bit 0); normal
 *       form (W=0): key, hop count = {@code HOP_LIMIT}, dst xpuid (req_dest, 32 bits), entropy,
 *       src xpuid ({@code OWN_XPUID}, 32 bits); compressed (W=1): key, 0, dst xpuid 16 bits,
 *       src xpuid 16 bits ({@code OWN_XPUID[15:0]}); then EtherType 0x88B5.</li>
 * </ul>
 *
 * <h2>Timing</h2>
 * Latency 3 for every encapsulation: a request in cycle t gives {@code hdr_valid} in cycle
 * t + 3. Stage 1 reads the table RAMs (and registers the request); stage 2 registers the
 * assembled header and two partial sums of the IPv4 header words; stage 3 adds them, folds
 * the carries, complements, and inserts the checksum ({@link Ipv4Checksum}). Configuration values are sampled in
 * stage 1 (globals) and stage 0 (tables): do not change the configuration of a destination with
 * requests in flight. Throughput one header per cycle.
 */
public final class SueHeaderBuilder extends Component {
    /** Header latency in cycles (request to {@code hdr_valid}). */
    public static final int LATENCY = 3;

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());

    public final Bool reqValid = in(bool());
    public final UInt reqDest = in(uint(10));
    public final UInt reqVc = in(uint(2));
    public final UInt reqLength = in(uint(14));
    public final Bits reqEntropy = in(bits(16));

    public final Bool hdrValid = out(bool());
    public final Bits hdrData;
    public final Bits hdrPartition = out(bits(10));
    public final Bool hdrDestError = out(bool());

    private final SueEncapConfig cfgBlock;

    public SueHeaderBuilder(Encapsulation encap, boolean vlan, int numXpus) {
        param("encap", encap.name());
        param("vlan", vlan);
        param("numXpus", numXpus);
        require(numXpus >= 1 && numXpus <= 1024, "numXpus must be 1..1024, got " + numXpus);
        require(!vlan || encap.vlanAllowed(), "vlan=true needs a standard or AFH Gen 1 encapsulation, got " + encap);
        int hdrBytes = encap.headerBytes(vlan);
        param("HDR_BYTES", hdrBytes);
        hdrData = out(bits(8 * hdrBytes));

        int ipWords = encap == Encapsulation.STD_IPV4 ? 1 : encap == Encapsulation.STD_IPV6 ? 4 : 0;
        cfgBlock = instance(() -> new SueEncapConfig(numXpus, encap.standard(), ipWords));
        cfgBlock.cfgValid.set(cfgValid);
        cfgBlock.cfgAddr.set(cfgAddr);
        cfgBlock.cfgData.set(cfgData);
        cfgReady.set(cfgBlock.cfgReady);
        cfgBlock.lookupDest.set(reqDest);

        // Stage 1: table read data arrives; the request is registered alongside.
        Bool v1 = reg("v1", bool()).init(false);
        v1.set(reqValid);
        UInt dest1 = reg("dest1", uint(10));
        UInt vc1 = reg("vc1", uint(2));
        UInt len1 = reg("len1", uint(14));
        Bits ent1 = reg("ent1", bits(16));
        Bool destErr1 = reg("dest_err1", bool());
        dest1.set(reqDest);
        vc1.set(reqVc);
        len1.set(reqLength);
        ent1.set(reqEntropy);
        destErr1.set(numXpus == 1024 ? FALSE : reqDest.ge(numXpus));

        Bits pcp = select(cfgBlock.vcPcp, vc1, 3);
        Bits dscp = select(cfgBlock.vcDscp, vc1, 6);
        Bits tc = select(cfgBlock.vcTc, vc1, 8);
        Bits vlanTag = cat(B(0x8100, 16), pcp, B(0, 1), cfgBlock.vlanVid);

        HeaderBytes h = new HeaderBytes();
        int ipOffset = -1;
        switch (encap) {
            case STD_IPV4, STD_IPV6 -> {
                h.field(cfgBlock.dstMac).field(cfgBlock.ownMac);
                if (vlan) {
                    h.field(vlanTag);
                }
                UInt udpLength = len1.resize(16).add(8);
                if (encap == Encapsulation.STD_IPV4) {
                    h.constant(0x0800, 2);
                    ipOffset = h.size();
                    h.constant(0x45, 1).field(cat(dscp, B(0, 2)))
                            .field(len1.resize(16).add(28).asBits())
                            .constant(0, 2).constant(0x4000, 2)
                            .field(cfgBlock.hopLimit).constant(17, 1)
                            .constant(0, 2)
                            .field(cfgBlock.ownIp).field(cfgBlock.dstIp);
                } else {
                    h.constant(0x86DD, 2);
                    h.field(cat(B(6, 4), tc, B(0, 4), ent1))
                            .field(udpLength.asBits()).constant(17, 1).field(cfgBlock.hopLimit)
                            .field(cfgBlock.ownIp).field(cfgBlock.dstIp);
                }
                h.field(ent1).field(cfgBlock.udpDstPort).field(udpLength.asBits()).constant(0, 2);
            }
            case AFH1, AFH1_SHIM -> {
                h.field(cfgBlock.afhDaPrefix).field(dest1.resize(16).asBits())
                        .field(cfgBlock.afhSaPrefix).field(cfgBlock.ownXpuid.slice(15, 0));
                if (vlan) {
                    h.field(vlanTag);
                }
                if (encap == Encapsulation.AFH1_SHIM) {
                    h.constant(0x88B6, 2).constant(0, 1).field(cat(dscp, B(0, 2))).field(cfgBlock.hopLimit)
                            .constant(0, 1).field(ent1).constant(0x88B5, 2);
                } else {
                    h.constant(0x88B5, 2);
                }
            }
            case AFH2_NORMAL -> h.field(cat(B(0, 1), B(0, 1), vc1.asBits(), B(0b0010, 4)))
                    .field(cfgBlock.hopLimit).field(dest1.resize(32).asBits()).field(ent1)
                    .field(cfgBlock.ownXpuid).constant(0x88B5, 2);
            case AFH2_COMPRESSED -> h.field(cat(B(1, 1), B(0, 1), vc1.asBits(), B(0b0010, 4)))
                    .constant(0, 1).field(dest1.resize(16).asBits()).field(cfgBlock.ownXpuid.slice(15, 0))
                    .constant(0x88B5, 2);
            default -> throw new IllegalStateException(encap.toString());
        }
        require(h.size() == hdrBytes, "internal: " + encap + " header has " + h.size() + " bytes, expected "
                + hdrBytes);

        // Stage 2: header (checksum field 0); the checksum's partial sums (Ipv4Checksum).
        Bool v2 = reg("v2", bool()).init(false);
        v2.set(v1);
        Bits hdr2 = reg("hdr2", bits(8 * hdrBytes));
        hdr2.set(h.pack());
        Bits part2 = reg("part2", bits(10));
        part2.set(cfgBlock.partition);
        Bool destErr2 = reg("dest_err2", bool());
        destErr2.set(destErr1);

        Bool v3 = reg("v3", bool()).init(false);
        v3.set(v2);
        Bits hdr3 = reg("hdr3", bits(8 * hdrBytes));
        Bits part3 = reg("part3", bits(10));
        part3.set(part2);
        Bool destErr3 = reg("dest_err3", bool());
        destErr3.set(destErr2);

        if (ipOffset >= 0) {
            Bits csum = new Ipv4Checksum(h, ipOffset).value;
            int k = ipOffset + 10; // checksum bytes k (high) and k + 1 (low)
            hdr3.set(cat(hdr2.slice(8 * hdrBytes - 1, 8 * (k + 2)), csum.slice(7, 0), csum.slice(15, 8),
                    hdr2.slice(8 * k - 1, 0)));
        } else {
            hdr3.set(hdr2);
        }

        hdrValid.set(v3);
        hdrData.set(hdr3);
        hdrPartition.set(part3);
        hdrDestError.set(destErr3);
        latency(LATENCY);
    }

    /** Element {@code index} of a flat vector of 4 elements of {@code width} bits (element 0 lowest). */
    private static Bits select(Bits flat, UInt index, int width) {
        Bits e0 = flat.slice(width - 1, 0);
        Bits e1 = flat.slice(2 * width - 1, width);
        Bits e2 = flat.slice(3 * width - 1, 2 * width);
        Bits e3 = flat.slice(4 * width - 1, 3 * width);
        return mux(index.bit(1), mux(index.bit(0), e3, e2), mux(index.bit(0), e1, e0));
    }
}
