// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.crc.CrcEngine;
import dev.sue.hdl.lib.crc.CrcSpec;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.config.SueEncapConfig;
import dev.sue.rtl.encap.Encapsulation;
import java.util.ArrayList;
import java.util.List;

/**
 * SUE receive frame parser (ARCHITECTURE.md §4 "header parse/validate, RH parse, R-CRC check,
 * control-packet demux"; wire profile §5): takes the MAC receive stream, validates the network
 * header, the RH and the R-CRC (and the FCS when configured), and delivers the PDU's op region
 * cut-through with a commit/abort verdict on its last beat. Frames that are not SUE frames for
 * this endpoint go whole to a control-frame output; every frame is counted exactly once.
 * The normative description (classification rules, priorities, timing) is {@code DESIGN-RX.md}.
 *
 * <h2>Parameters</h2>
 * <ul>
 *   <li>{@code dataWidth} W = 256, 512 or 1024 bits (B = W/8 bytes per beat).</li>
 *   <li>{@code encap} ({@link Encapsulation}, codes 0..5) and {@code vlan} (802.1Q tag, encap 0..3
 *       only): the frames this endpoint accepts, exactly as {@code SueHeaderBuilder} builds them.
 *       H = header bytes (8..66), O = H + 8 = offset of the op region.</li>
 *   <li>{@code numXpus} (1..1024): XPUs in the partition table; an RH {@code xpuid >= numXpus} is
 *       an unknown source.</li>
 * </ul>
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready}: configuration writes, the
 *       address map of {@link SueEncapConfig} (OWN_MAC, OWN_XPUID, UDP_DST_PORT, AFH_DA_PREFIX,
 *       OWN_IP, PARTITION[d] at 0x4000|d&lt;&lt;4|2) plus {@code RX_FCS} (0x0300, bit 0: frames
 *       carry an FCS that SUE checks, reset 0) and {@code RX_MAX_PDU} (0x0301, bits 12:0: largest
 *       op region accepted, reset 4096, larger values are taken as 4096). Change the
 *       configuration only while no frame is in flight.</li>
 *   <li>{@code s} (in, stream of {@link MacRxBeat}): MAC receive frames; {@code s_err} on the
 *       last beat marks a MAC error. Whole-byte keep rules of {@link MacRxBeat}.</li>
 *   <li>{@code m} (out, stream of {@link RxPduBeat}): accepted PDUs, op region only, descriptor
 *       on every beat, {@code commit} on the last beat; a pure ACK/NACK PDU is one beat with
 *       {@code keep = 0}. PDUs dropped on header fields (or truncated) never appear; PDUs that
 *       fail a check known only at the end (MAC error, FCS, length, R-CRC, oversized) end with
 *       {@code commit = 0}. An op region exceeding {@code RX_MAX_PDU} ends early: the beat that
 *       crosses the limit is sent with {@code last = 1, commit = 0} and the rest is discarded.</li>
 *   <li>{@code ctl} (out, stream of {@link MacRxBeat}): frames that are not SUE frames for this
 *       endpoint, whole and byte-identical (FCS included when present); {@code ctl_err} on the
 *       last beat = MAC error or (RX_FCS) bad FCS.</li>
 *   <li>{@code cnt_*} (out, 32 bits each, saturating, reset 0): {@code frames} (frames in, counted
 *       at their first beat), {@code pass} (committed PDUs), {@code ctl} (control frames), and one
 *       per drop reason: {@code mac_err}, {@code fcs}, {@code trunc}, {@code over}, {@code hdr},
 *       {@code len}, {@code csum}, {@code rcrc}, {@code ver}, {@code op}, {@code src},
 *       {@code part}. Once no frame is in flight, frames = pass + ctl + the sum of the drops.</li>
 * </ul>
 *
 * <h2>Timing</h2>
 * Throughput one beat per cycle, back-to-back frames included; {@code s_ready} is low only while
 * an output is back-pressured (or at reset). Latency from the last MAC beat accepted in cycle t
 * to the PDU's last beat (with its verdict) on {@code m}: at most {@link #LAST_BEAT_LATENCY}
 * cycles with {@code m_ready} high (4 or 5 depending on where the op region ends in the beat).
 * The first op beat leaves at most 6 cycles after the MAC beat holding the first op byte.
 */
public final class RxFrameParser extends Component {
    /** RX_FCS configuration word address (bit 0: SUE checks an FCS at the end of every frame). */
    public static final int RX_FCS = 0x0300;
    /** RX_MAX_PDU configuration word address (bits 12:0, op-region bytes, reset 4096). */
    public static final int RX_MAX_PDU = 0x0301;
    /** Largest op region of the wire profile. */
    public static final int MAX_PDU = 4096;
    /** Width of frame positions (saturating frame byte counters). */
    public static final int POS_BITS = 15;
    /** Last MAC beat in to the PDU's last beat (with commit) out, m_ready high. */
    public static final int LAST_BEAT_LATENCY = 5;
    /** Counter names, in port order ({@code cnt_<name>}). */
    public static final List<String> COUNTERS = List.of("frames", "pass", "ctl", "mac_err", "fcs", "trunc", "over",
            "hdr", "len", "csum", "rcrc", "ver", "op", "src", "part");

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());

    public final Stream<MacRxBeat> s;
    public final Stream<RxPduBeat> m;
    public final Stream<MacRxBeat> ctl;

    public final UInt cntFrames = out(uint(32));
    public final UInt cntPass = out(uint(32));
    public final UInt cntCtl = out(uint(32));
    public final UInt cntMacErr = out(uint(32));
    public final UInt cntFcs = out(uint(32));
    public final UInt cntTrunc = out(uint(32));
    public final UInt cntOver = out(uint(32));
    public final UInt cntHdr = out(uint(32));
    public final UInt cntLen = out(uint(32));
    public final UInt cntCsum = out(uint(32));
    public final UInt cntRcrc = out(uint(32));
    public final UInt cntVer = out(uint(32));
    public final UInt cntOp = out(uint(32));
    public final UInt cntSrc = out(uint(32));
    public final UInt cntPart = out(uint(32));

    private final int nb;
    private final int cw;
    private Bits hdr;

    public RxFrameParser(int dataWidth, Encapsulation encap, boolean vlan, int numXpus) {
        param("dataWidth", dataWidth);
        param("encap", encap.name());
        param("vlan", vlan);
        param("numXpus", numXpus);
        require(dataWidth == 256 || dataWidth == 512 || dataWidth == 1024,
                "dataWidth must be 256, 512 or 1024, got " + dataWidth);
        require(numXpus >= 1 && numXpus <= 1024, "numXpus must be 1..1024, got " + numXpus);
        require(!vlan || encap.vlanAllowed(), "vlan=true needs a standard or AFH Gen 1 encapsulation, got " + encap);
        final int w = dataWidth;
        nb = w / 8;
        cw = log2Up(nb + 1);
        final int hb = encap.headerBytes(vlan);
        final int ob = hb + 8;
        final int q = ob / nb;
        final int sh = ob % nb;
        param("HDR_BYTES", hb);
        require(sh != 0, "internal: op region offset " + ob + " is a multiple of the beat");

        s = slave(Stream.of(() -> new MacRxBeat(w)));
        m = master(Stream.of(() -> new RxPduBeat(w)));
        ctl = master(Stream.of(() -> new MacRxBeat(w)));

        // ---------------- configuration ----------------
        int ipWords = encap == Encapsulation.STD_IPV4 ? 1 : encap == Encapsulation.STD_IPV6 ? 4 : 0;
        SueEncapConfig cfgBlock = instance(() -> new SueEncapConfig(numXpus, false, ipWords, false));
        cfgBlock.cfgValid.set(cfgValid);
        cfgBlock.cfgAddr.set(cfgAddr);
        cfgBlock.cfgData.set(cfgData);
        cfgReady.set(cfgBlock.cfgReady);
        Bool fcsEn = reg("fcs_en", bool()).init(false);
        UInt maxPdu = reg("max_pdu", uint(13)).init(MAX_PDU);
        when(cfgValid.and(cfgAddr.eq(RX_FCS)), () -> fcsEn.set(cfgData.bit(0)));
        when(cfgValid.and(cfgAddr.eq(RX_MAX_PDU)), () -> maxPdu.set(
                mux(cfgData.asUInt().gt(U(MAX_PDU, 32)), U(MAX_PDU, 13), cfgData.slice(12, 0).asUInt())));

        // ---------------- stage L: one held beat, decided with the next beat as lookahead ----------------
        Bool hv = reg("hv", bool()).init(false);
        Bits hd = reg("hd", bits(w));
        Bits hk = reg("hk", bits(nb));
        // hk without the FCS lanes (at least lane 0): the R-CRC's keep on a last beat, from a register
        Bits hkNoFcs = reg("hk_no_fcs", bits(nb));
        Bool hl = reg("hl", bool());
        Bool he = reg("he", bool());
        UInt hc = reg("hc", uint(cw));
        UInt kin = keepCount(s.payload.keep).named("s_keep_count");

        Bool go = wire("go", bool());
        Bool emit = hv.and(hl.or(s.valid)).and(go).named("emit");
        s.ready.set(hv.not().or(emit));
        when(s.fire(), () -> {
            hv.set(TRUE);
            hd.set(s.payload.data);
            hk.set(s.payload.keep);
            hkNoFcs.set(mux(fcsEn, cat(B(0, 4), s.payload.keep.slice(nb - 1, 4)).or(B(1, nb)), s.payload.keep));
            hl.set(s.payload.last);
            he.set(s.payload.err);
            hc.set(kin);
        }).elseWhen(emit, () -> hv.set(FALSE));

        // frames in: counted at their first beat
        Bool firstIn = reg("first_in", bool()).init(true);
        when(s.fire(), () -> firstIn.set(s.payload.last));
        cntFrames.set(Counter.saturating("cnt_frames_r", StatusWord.BITS, s.fire().and(firstIn)));

        // position of the held beat in its frame
        int biMax = q + 1;
        UInt bi = reg("bi", uint(bitsFor(biMax))).init(0);
        UInt pos = reg("pos", uint(POS_BITS)).init(0);
        long posMax = (1L << POS_BITS) - 1 - 2L * nb; // pos + nb + opHi never wraps
        when(emit, () -> {
            when(hl, () -> {
                bi.set(0);
                pos.set(0);
            }).otherwise(() -> {
                when(bi.lt(U(biMax, bi.bitWidth())), () -> bi.set(bi.add(1)));
                when(pos.lt(U(posMax, POS_BITS)), () -> pos.set(pos.add(nb)));
            });
        });

        // Trailer views: T = R-CRC (+ FCS) bytes, F = FCS bytes. opHi: bytes of the held beat
        // before the op-region end / before the FCS; opEnd/fEnd: the region ends in this beat.
        UInt tLen = mux(fcsEn, cu(8), cu(4));
        UInt fLen = mux(fcsEn, cu(4), cu(0));
        Bool nextLast = hl.not().and(s.payload.last).named("next_last");
        // "the next beat has at most T (F) bytes" is one keep bit (keep is contiguous from byte 0)
        Bits sk = s.payload.keep;
        Bool nextShortT = nextLast.andNot(mux(fcsEn, sk.bit(8), sk.bit(4))).named("next_short_t");
        Bool nextShortF = nextLast.and(fcsEn).andNot(sk.bit(4)).named("next_short_f");
        // a next beat short enough to hold only trailer bytes has at most 8: count its first 8 lanes only
        UInt kinShort = keepCount(sk.slice(7, 0)).named("s_keep_count_short");
        UInt opHi = mux(hl, mux(hc.gt(tLen), hc.sub(tLen), cu(0)),
                mux(nextShortT, cu(nb).sub(tLen).add(kinShort), cu(nb))).named("op_hi");
        Bool opEnd = hl.or(nextShortT).named("op_end");
        Bool fEnd = hl.or(nextShortF).named("f_end");
        UInt eNow = pos.add(opHi.resize(POS_BITS)).named("e_now");

        // ---------------- CRC checks ----------------
        CrcEngine.Options copt = CrcEngine.Options.defaults().withValue(false).withCheck(true);
        CrcEngine fcsCrc = instance("fcs_crc", () -> new CrcEngine(CrcSpec.CRC32, w, copt));
        fcsCrc.s.valid.set(emit);
        fcsCrc.s.payload.data.set(hd);
        fcsCrc.s.payload.keep.set(hk);
        fcsCrc.s.payload.last.set(hl);
        // R-CRC over RH..R-CRC: the header bytes are zeroed and the register starts from the value
        // that H zero bytes turn into the standard init, so the engine sees the frame from byte 0.
        CrcSpec rspec = new CrcSpec("CRC-32-after-" + hb, 32, CrcSpec.CRC32.polynomial(), true, true,
                preInit(CrcSpec.CRC32, hb), CrcSpec.CRC32.xorOut());
        CrcEngine rcrc = instance("rcrc_crc", () -> new CrcEngine(rspec, w, copt));
        Bool dropF = hl.and(hc.le(fLen)).and(bi.ne(0)); // a last beat holding only FCS bytes
        rcrc.s.valid.set(emit.andNot(dropF));
        rcrc.s.payload.data.set(zeroHeader(hd, bi, hb));
        // keep of the held beat without the FCS: when the FCS straddles into the next beat, the held
        // beat's last 4 lanes are kept as far as the next beat's first 4 are (no byte count needed)
        Bits allLanes = B(java.math.BigInteger.ONE.shiftLeft(nb).subtract(java.math.BigInteger.ONE), nb);
        Bits straddleKeep = cat(sk.slice(3, 0), allLanes.slice(nb - 5, 0));
        rcrc.s.payload.keep.set(mux(hl, hkNoFcs, mux(nextShortF, straddleKeep, allLanes)));
        rcrc.s.payload.last.set(fEnd);
        final int lat = fcsCrc.latencyCycles();
        require(lat == rcrc.latencyCycles(), "internal: CRC engines differ in latency");
        param("CRC_LATENCY", lat);
        Bool errD = delay("mac_err_d", emit.and(hl).and(he), lat);
        Bool fcsV = fcsCrc.crcValid;
        Bool endErrLive = errD;
        Bool endFcsBadLive = fcsEn.andNot(fcsCrc.crcOk);
        Bool endRcrcBadLive = rcrc.crcOk.not();

        // ---------------- header capture and checks ----------------
        List<Bits> capParts = new ArrayList<>();
        for (int j = 0; j <= q; j++) {
            int bytes = Math.min(nb, ob - j * nb);
            Bits cj = reg("cap" + j, bits(8 * bytes));
            int jj = j;
            when(emit.and(bi.eq(jj)), () -> cj.set(hd.slice(8 * bytes - 1, 0)));
            capParts.add(0, cj);
        }
        hdr = cat(capParts);
        Bool beforeQ = q == 0 ? FALSE : bi.lt(U(q, bi.bitWidth()));
        Bool trig = emit.and(bi.eq(q).or(hl.and(beforeQ))).named("hdr_trig");
        Bool shortT = hl.and(pos.add(hc.resize(POS_BITS)).lt(U(hb, POS_BITS).add(fLen.resize(POS_BITS))));
        Bool va = reg("va", bool()).init(false);
        va.set(trig);
        Bool shortA = reg("short_a", bool());
        when(trig, () -> shortA.set(shortT));

        // Stage A: comparisons on the captured header.
        Bool ident;
        Bool hdrBad;
        Bool lenHdrBad = FALSE;
        UInt expE = U(0, 17);
        boolean lenCheck = encap.standard();
        // IPv4 header checksum: two sums of five words in stage A, their sum and fold in stage B
        UInt csumLo = U(0, 20);
        UInt csumHi = U(0, 20);
        int e = 14 + (vlan ? 4 : 0);
        Bool tagOk = vlan ? f(12, 2).eq(0x8100) : TRUE;
        switch (encap) {
            case STD_IPV4 -> {
                ident = f(0, 6).eq(cfgBlock.ownMac).and(tagOk).and(f(e - 2, 2).eq(0x0800))
                        .and(f(e + 9, 1).eq(17)).and(f(e + 16, 4).eq(cfgBlock.ownIp))
                        .and(f(e + 22, 2).eq(cfgBlock.udpDstPort));
                hdrBad = f(e, 1).ne(0x45).or(f(e + 6, 2).and(B(0x3FFF, 16)).ne(0));
                UInt total = f(e + 2, 2).asUInt().resize(17);
                lenHdrBad = f(e + 24, 2).asUInt().resize(17).add(20).ne(total);
                expE = total.add(e - 4);
                // a balanced tree: ten chained adds would be ten carry chains deep
                List<UInt> terms = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    terms.add(f(e + 2 * i, 2).asUInt().resize(20));
                }
                csumLo = addTree(terms.subList(0, 5));
                csumHi = addTree(terms.subList(5, 10));
            }
            case STD_IPV6 -> {
                ident = f(0, 6).eq(cfgBlock.ownMac).and(tagOk).and(f(e - 2, 2).eq(0x86DD))
                        .and(f(e + 6, 1).eq(17)).and(f(e + 24, 16).eq(cfgBlock.ownIp))
                        .and(f(e + 42, 2).eq(cfgBlock.udpDstPort));
                hdrBad = f(e, 1).slice(7, 4).ne(6);
                UInt plen = f(e + 4, 2).asUInt().resize(17);
                lenHdrBad = f(e + 44, 2).asUInt().resize(17).ne(plen);
                expE = plen.add(e + 36);
            }
            case AFH1, AFH1_SHIM -> {
                Bool base = f(0, 4).eq(cfgBlock.afhDaPrefix).and(f(4, 2).eq(cfgBlock.ownXpuid.slice(15, 0)))
                        .and(tagOk);
                if (encap == Encapsulation.AFH1) {
                    ident = base.and(f(e - 2, 2).eq(0x88B5));
                    hdrBad = FALSE;
                } else {
                    ident = base.and(f(e - 2, 2).eq(0x88B6)).and(f(e + 6, 2).eq(0x88B5));
                    hdrBad = f(e, 1).slice(7, 4).ne(0);
                }
            }
            case AFH2_NORMAL -> {
                ident = f(0, 1).and(B(0x8F, 8)).eq(0x02).and(f(2, 4).eq(cfgBlock.ownXpuid))
                        .and(f(12, 2).eq(0x88B5));
                hdrBad = f(0, 1).bit(6);
            }
            case AFH2_COMPRESSED -> {
                ident = f(0, 1).and(B(0x8F, 8)).eq(0x82).and(f(2, 2).eq(cfgBlock.ownXpuid.slice(15, 0)))
                        .and(f(6, 2).eq(0x88B5));
                hdrBad = f(0, 1).bit(6);
            }
            default -> throw new IllegalStateException(encap.toString());
        }
        Bits rh0 = f(hb, 1);
        UInt rhSrc = cat(rh0.slice(1, 0), f(hb + 1, 1)).asUInt();
        Bits rhPsn = f(hb + 2, 2);
        Bits rh4 = f(hb + 4, 1);
        Bits rhPart = cat(rh4.slice(1, 0), f(hb + 5, 1));
        Bits rhRpsn = f(hb + 6, 2);
        cfgBlock.lookupDest.set(rhSrc);

        Bool vb = reg("vb", bool()).init(false);
        vb.set(va);
        Bool ctlB = regAt("ctl_b", shortA.or(ident.not()), va);
        Bool hdrBadB = regAt("hdr_bad_b", hdrBad, va);
        Bool lenHdrBadB = regAt("len_hdr_bad_b", lenHdrBad, va);
        UInt expEB = regAt("exp_e_b", expE, va);
        UInt csumLoB = regAt("csum_lo_b", csumLo, va);
        UInt csumHiB = regAt("csum_hi_b", csumHi, va);
        Bits rh0B = regAt("rh0_b", rh0, va);
        UInt srcB = regAt("src_b", rhSrc, va);
        Bits psnB = regAt("psn_b", rhPsn, va);
        Bits vcB = regAt("vc_b", rh4.slice(7, 6), va);
        Bits partB = regAt("part_b", rhPart, va);
        Bits rpsnB = regAt("rpsn_b", rhRpsn, va);

        // Stage B: checksum fold, partition lookup result.
        Bool csumBad = FALSE;
        if (encap == Encapsulation.STD_IPV4) {
            UInt csumB = csumLoB.add(csumHiB).named("csum_sum");
            UInt f1 = csumB.slice(15, 0).resize(17).add(csumB.slice(19, 16).resize(17)).named("csum_f1");
            // the second fold (f1[15:0] + f1[16]) is 0xFFFF exactly when f1 is 0xFFFF or 0x1FFFE
            csumBad = f1.ne(0xFFFF).and(f1.ne(0x1FFFE));
        }
        Bool verBad = rh0B.slice(7, 6).ne(0);
        Bool opBad = rh0B.slice(5, 4).eq(3);
        Bool srcBad = numXpus == 1024 ? FALSE : srcB.ge(U(numXpus, 10));
        Bool partBad = cfgBlock.partition.ne(partB);
        // info record: {ctl, hdr, lenHdr, csum, ver, op, src, part, expE 17, src 10, vc 2, psn 16, op 2, rpsn 16, part 10}
        Bits infoRec = cat(ctlB, hdrBadB, lenHdrBadB, csumBad, verBad, opBad, srcBad, partBad, expEB.asBits(),
                srcB.asBits(), vcB, psnB, rh0B.slice(5, 4), rpsnB, partB);
        int infoW = infoRec.width();
        StreamFifo<Bits> infoQ = instance("info_q", () -> new StreamFifo<>(() -> bits(infoW), 8,
                FifoStorage.REGISTERS, 5));
        infoQ.s.valid.set(vb);
        infoQ.s.payload.set(infoRec);
        StreamFifo<Bits> classQ = instance("class_q", () -> new StreamFifo<>(() -> bits(1), 8,
                FifoStorage.REGISTERS, 5));
        classQ.s.valid.set(vb);
        classQ.s.payload.set(ctlB.asBits());

        // end records: {mac_err, fcs_bad, rcrc_bad} per frame, at the FCS engine's result
        Bits endLive = cat(endErrLive, endFcsBadLive, endRcrcBadLive);
        StreamFifo<Bits> endQ = instance("end_q", () -> new StreamFifo<>(() -> bits(3), 8,
                FifoStorage.REGISTERS, 5));
        StreamFifo<Bits> ctlEndQ = instance("ctl_end_q", () -> new StreamFifo<>(() -> bits(1), 8,
                FifoStorage.REGISTERS, 5));
        ctlEndQ.s.valid.set(fcsV);
        ctlEndQ.s.payload.set(endErrLive.or(endFcsBadLive).asBits());

        // ---------------- control path: fixed delay, then a FIFO drained once the class is known ----------------
        final int dc = Math.max(lat, q + 2);
        param("CTL_DELAY", dc);
        Bool dv = emit;
        Bits dd = hd;
        Bits dk = hk;
        Bool dl = hl;
        for (int i = 0; i < dc; i++) {
            Bool nv = reg("ctl_d" + i + "_v", bool()).init(false);
            nv.set(dv);
            dv = nv;
            dd = regNext(dd).named("ctl_d" + i + "_data");
            dk = regNext(dk).named("ctl_d" + i + "_keep");
            dl = regNext(dl).named("ctl_d" + i + "_last");
        }
        StreamFifo<MacRxBeat> ctlQ = instance("ctl_q", () -> new StreamFifo<>(() -> new MacRxBeat(w), 8,
                FifoStorage.REGISTERS, 8));
        ctlQ.s.valid.set(dv);
        ctlQ.s.payload.data.set(dd);
        ctlQ.s.payload.keep.set(dk);
        ctlQ.s.payload.last.set(dl);
        ctlQ.s.payload.err.set(FALSE);
        assertThat(dv.not().or(ctlQ.s.ready), "control FIFO overflow");
        Bool ctlRoom = ctlQ.occupancy.le(U(8 - dc - 1, ctlQ.occupancy.bitWidth()));
        Bool hdVal = ctlQ.m.valid;
        Bool ready2 = hdVal.and(classQ.m.valid).and(ctlQ.m.payload.last.not().or(ctlEndQ.m.valid));
        Bool isCtlFrame = classQ.m.payload.bit(0);
        ctl.valid.set(ready2.and(isCtlFrame));
        ctl.payload.data.set(ctlQ.m.payload.data);
        ctl.payload.keep.set(ctlQ.m.payload.keep);
        ctl.payload.last.set(ctlQ.m.payload.last);
        ctl.payload.err.set(ctlQ.m.payload.last.and(ctlEndQ.m.payload.bit(0)));
        Bool ctlPop = ready2.and(isCtlFrame.not().or(ctl.ready));
        ctlQ.m.ready.set(ctlPop);
        classQ.m.ready.set(ctlPop.and(ctlQ.m.payload.last));
        ctlEndQ.m.ready.set(ctlPop.and(ctlQ.m.payload.last));

        // ---------------- realigner: op region to byte 0 ----------------
        Stream<OpSlot> ra = wire(Stream.of(() -> new OpSlot(w, cw))).named("ra");
        Bits prevHi = reg("prev_hi", bits(8 * (nb - sh)));
        Bool done = reg("done", bool()).init(false);
        Bool pv = reg("pend_v", bool()).init(false);
        Bits pd = reg("pend_data", bits(w));
        UInt pc = reg("pend_cnt", uint(cw));
        UInt pe = reg("pend_e", uint(POS_BITS));
        Bits curHi = cat(B(0, 8 * sh), hd.slice(w - 1, 8 * sh));
        Bits combined = cat(hd.slice(8 * sh - 1, 0), prevHi);
        Bool live = emit.andNot(done);
        Bool atQ = bi.eq(q);
        Bool afterQ = bi.gt(U(q, bi.bitWidth()));
        Bool comb = live.and(afterQ).named("comb");
        ra.valid.set(pv.or(comb));
        ra.payload.data.set(mux(pv, pd, combined));
        ra.payload.cnt.set(mux(pv, pc, mux(opEnd.and(opHi.le(cu(sh))), cu(nb - sh).add(opHi), cu(nb))));
        ra.payload.last.set(pv.or(opEnd.and(opHi.le(cu(sh)))));
        ra.payload.e.set(mux(pv, pe, eNow));
        assertThat(pv.and(comb).not(), "realigner: pending end and combined beat in one cycle");
        Bool adv0 = ra.ready;
        go.set(adv0.and(ctlRoom).andNot(infoQ.almostFull).andNot(endQ.almostFull).andNot(classQ.almostFull)
                .andNot(ctlEndQ.almostFull));
        when(adv0, () -> {
            pv.set(FALSE);
            when(emit, () -> {
                when(bi.le(U(q, bi.bitWidth())).or(afterQ.and(opEnd).and(opHi.gt(cu(sh)))), () -> {
                    pd.set(mux(beforeQ, B(0, w), curHi));
                    pc.set(mux(bi.eq(q).and(opHi.gt(cu(sh))), opHi.sub(cu(sh)),
                            mux(afterQ, opHi.sub(cu(sh)), cu(0))));
                    pe.set(eNow);
                });
                when(live.and(opEnd).and(bi.le(U(q, bi.bitWidth())).or(opHi.gt(cu(sh)))), () -> pv.set(TRUE));
                when(opEnd, () -> done.set(TRUE));
                when(atQ.or(afterQ), () -> prevHi.set(hd.slice(w - 1, 8 * sh)));
                when(hl, () -> done.set(FALSE));
            });
        });

        // ---------------- elastic registers to the output stage ----------------
        Stream<OpSlot> o = ra.m2sPipe();
        for (int i = 1; i < lat; i++) {
            o = o.m2sPipe();
        }

        // ---------------- output stage ----------------
        UInt acc = reg("acc", uint(14)).init(0);
        Bool aborted = reg("aborted", bool()).init(false);
        Bits info = infoQ.m.payload;
        int p = infoW;
        Bool iCtl = info.bit(--p);
        Bool iHdr = info.bit(--p);
        Bool iLenHdr = info.bit(--p);
        Bool iCsum = info.bit(--p);
        Bool iVer = info.bit(--p);
        Bool iOp = info.bit(--p);
        Bool iSrc = info.bit(--p);
        Bool iPart = info.bit(--p);
        UInt iExpE = info.slice(p - 1, p - 17).asUInt();
        p -= 17;
        UInt iSrcId = info.slice(p - 1, p - 10).asUInt();
        p -= 10;
        UInt iVc = info.slice(p - 1, p - 2).asUInt();
        p -= 2;
        Bits iPsn = info.slice(p - 1, p - 16);
        p -= 16;
        UInt iOpc = info.slice(p - 1, p - 2).asUInt();
        p -= 2;
        Bits iRpsn = info.slice(p - 1, p - 16);
        p -= 16;
        Bits iPartF = info.slice(p - 1, p - 10);
        p -= 10;
        require(p == 0, "internal: info record layout");

        Bool endV = endQ.m.valid.or(fcsV);
        Bits endRec = mux(endQ.m.valid, endQ.m.payload, endLive);
        Bool oL = o.payload.last;
        UInt oe = o.payload.e;
        Bool haveRec = infoQ.m.valid.and(oL.not().or(endV));
        Bool hdrDrop = iHdr.or(iLenHdr).or(iCsum).or(iVer).or(iOp).or(iSrc).or(iPart);
        Bool trunc = oe.lt(U(ob, POS_BITS));
        UInt opLen = oe.sub(ob).named("op_len");
        Bool over = trunc.not().and(opLen.gt(maxPdu.resize(POS_BITS)));
        Bool lenBad = lenCheck ? iLenHdr.or(oe.resize(17).ne(iExpE)) : FALSE;
        Bool deliverable = iCtl.not().and(hdrDrop.not()).and(aborted.not()).and(oL.and(trunc).not());
        Bool abortNow = oL.not().and(acc.resize(15).add(nb).gt(maxPdu.resize(15)));
        Bool macErr = endRec.bit(2);
        Bool fcsBad = endRec.bit(1);
        Bool rcrcBad = endRec.bit(0);
        // drop reasons in priority order (the first that holds is counted)
        Bool[] reasons = {macErr, fcsBad, trunc, over, iHdr, lenBad, iCsum, rcrcBad, iVer, iOp, iSrc, iPart};
        Bool anyBad = FALSE;
        for (Bool r : reasons) {
            anyBad = anyBad.or(r);
        }
        m.valid.set(o.valid.and(haveRec).and(deliverable));
        Bool take = o.valid.and(haveRec).and(deliverable.not().or(m.ready)).named("take");
        o.ready.set(take);
        m.payload.src.set(iSrcId);
        m.payload.vc.set(iVc);
        m.payload.psn.set(iPsn);
        m.payload.op.set(iOpc);
        m.payload.rpsn.set(iRpsn);
        m.payload.partition.set(iPartF);
        m.payload.length.set(opLen.resize(13));
        m.payload.data.set(o.payload.data);
        m.payload.keep.set(therm(o.payload.cnt));
        m.payload.last.set(oL.or(abortNow));
        m.payload.commit.set(oL.andNot(anyBad));
        Bool endPop = take.and(oL).named("end_pop");
        infoQ.m.ready.set(endPop);
        endQ.m.ready.set(endPop.and(endQ.m.valid));
        endQ.s.valid.set(fcsV.andNot(endPop.andNot(endQ.m.valid)));
        endQ.s.payload.set(endLive);
        when(take, () -> {
            when(oL, () -> {
                acc.set(0);
                aborted.set(FALSE);
            }).elseWhen(deliverable, () -> {
                acc.set(acc.add(nb));
                when(abortNow, () -> aborted.set(TRUE));
            });
        });
        assertThat(fcsV.not().or(endQ.s.ready).or(endPop.andNot(endQ.m.valid)), "end record FIFO overflow");
        assertThat(vb.not().or(infoQ.s.ready.and(classQ.s.ready)), "info record FIFO overflow");
        assertThat(fcsV.not().or(ctlEndQ.s.ready), "control end FIFO overflow");

        // ---------------- counters ----------------
        Bool sue = endPop.andNot(iCtl);
        cntPass.set(Counter.saturating("cnt_pass_r", StatusWord.BITS, sue.andNot(anyBad)));
        cntCtl.set(Counter.saturating("cnt_ctl_r", StatusWord.BITS, endPop.and(iCtl)));
        UInt[] outs = {cntMacErr, cntFcs, cntTrunc, cntOver, cntHdr, cntLen, cntCsum, cntRcrc, cntVer, cntOp, cntSrc,
            cntPart};
        Bool earlier = FALSE;
        for (int i = 0; i < reasons.length; i++) {
            outs[i].set(Counter.saturating("cnt_" + COUNTERS.get(3 + i) + "_r", StatusWord.BITS,
                    sue.and(reasons[i]).andNot(earlier)));
            earlier = earlier.or(reasons[i]);
        }
        latency(LAST_BEAT_LATENCY);
    }

    /** Emitted as {@code sue_rx_parser} (SUE modules carry the {@code sue_} prefix). */
    @Override
    public String moduleBaseName() {
        return "sue_rx_parser";
    }

    /** Header bytes [off, off+len) as one big-endian field. */
    private Bits f(int off, int len) {
        List<Bits> parts = new ArrayList<>();
        for (int k = off; k < off + len; k++) {
            parts.add(hdr.slice(8 * k + 7, 8 * k));
        }
        return cat(parts);
    }

    private UInt cu(long v) {
        return U(v, cw);
    }

    /** Byte count of a contiguous-from-0 keep (0 when none). */
    private UInt keepCount(Bits keep) {
        int n = keep.width();
        Bool[] edge = new Bool[n];
        for (int i = 0; i < n; i++) {
            edge[i] = i + 1 < n ? keep.bit(i).andNot(keep.bit(i + 1)) : keep.bit(i);
        }
        List<Bits> bitsMsbFirst = new ArrayList<>();
        for (int b = cw - 1; b >= 0; b--) {
            List<Bool> terms = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if ((((i + 1) >> b) & 1) != 0) {
                    terms.add(edge[i]);
                }
            }
            // one wide OR (a reduction tree), not a chain of two-input ORs
            bitsMsbFirst.add(terms.isEmpty() ? B(0, 1) : OneHot.fromBools(terms).ne(0).asBits());
        }
        return cat(bitsMsbFirst).asUInt();
    }

    /** The sum of {@code terms} as a balanced tree of adds (a chain would be one carry chain per term). */
    private static UInt addTree(List<UInt> terms) {
        List<UInt> level = terms;
        while (level.size() > 1) {
            List<UInt> next = new ArrayList<>();
            for (int i = 0; i + 1 < level.size(); i += 2) {
                next.add(level.get(i).add(level.get(i + 1)));
            }
            if (level.size() % 2 == 1) {
                next.add(level.get(level.size() - 1));
            }
            level = next;
        }
        return level.get(0);
    }

    /** Keep with lanes 0..n-1 set. */
    private Bits therm(UInt n) {
        List<Bits> lanes = new ArrayList<>();
        for (int i = nb - 1; i >= 0; i--) {
            lanes.add(n.gt(cu(i)).asBits());
        }
        return cat(lanes);
    }

    /** The beat with frame bytes below {@code hb} cleared (beat index {@code bi}). */
    private Bits zeroHeader(Bits data, UInt bi, int hb) {
        Bits out = data;
        for (int j = (hb - 1) / nb; j >= 0; j--) {
            int zeroBytes = Math.min(nb, hb - j * nb);
            Bits z = zeroBytes == nb ? B(0, 8 * nb) : cat(data.slice(8 * nb - 1, 8 * zeroBytes), B(0, 8 * zeroBytes));
            out = mux(bi.eq(j), z, out);
        }
        return out;
    }

    /** A register loaded with {@code v} when {@code en}. */
    private static <T extends dev.sue.hdl.BaseType> T regAt(String name, T v, Bool en) {
        return regNextWhen(v, en).named(name);
    }

    /** {@code v} delayed by {@code n} free-running cycles (reset 0). */
    private static Bool delay(String name, Bool v, int n) {
        Bool d = v;
        for (int i = 0; i < n; i++) {
            Bool r = reg(name + i, bool()).init(false);
            r.set(d);
            d = r;
        }
        return d;
    }

    /** The register value from which {@code zeroBytes} zero bytes lead to {@code spec.init()}. */
    static long preInit(CrcSpec spec, int zeroBytes) {
        long mask = spec.mask();
        long top = 1L << (spec.width() - 1);
        long reg = spec.init();
        for (int i = 0; i < 8 * zeroBytes; i++) {
            // forward step with a zero input bit: fb = msb; reg = (reg << 1) ^ (fb ? poly : 0)
            if ((reg & 1) != 0) {
                reg = ((reg ^ spec.polynomial()) >>> 1) | top;
            } else {
                reg = reg >>> 1;
            }
            reg &= mask;
        }
        return reg;
    }

    /** The counters in status-space order (names as in the register map). */
    public List<StatusWord> statusWords() {
        return List.of(
                new StatusWord("frames", cntFrames),
                new StatusWord("pass", cntPass),
                new StatusWord("ctl", cntCtl),
                new StatusWord("mac_err", cntMacErr),
                new StatusWord("fcs", cntFcs),
                new StatusWord("trunc", cntTrunc),
                new StatusWord("over", cntOver),
                new StatusWord("hdr", cntHdr),
                new StatusWord("len", cntLen),
                new StatusWord("csum", cntCsum),
                new StatusWord("rcrc", cntRcrc),
                new StatusWord("ver", cntVer),
                new StatusWord("op", cntOp),
                new StatusWord("src", cntSrc),
                new StatusWord("part", cntPart));
    }
}
