// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.crc.CrcSpec;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.config.SueEncapConfig;
import dev.sue.rtl.encap.Encapsulation;
import dev.sue.rtl.mac.MacStreams;
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
 *   <li>{@code s} (in, AXI4-Stream {@code s_tvalid, s_tready, s_tdata, s_tkeep, s_tlast, s_tuser}):
 *       MAC receive frames, byte 0 in {@code tdata[7:0]}; {@code s_tuser} on the last beat marks a
 *       MAC error. Whole-byte keep rules of {@link MacRxBeat}.</li>
 *   <li>{@code m} (out, stream of {@link RxPduBeat}): accepted PDUs, op region only, descriptor
 *       on every beat, {@code commit} on the last beat; a pure ACK/NACK PDU is one beat with
 *       {@code keep = 0}. PDUs dropped on header fields (or truncated) never appear; PDUs that
 *       fail a check known only at the end (MAC error, FCS, length, R-CRC, oversized) end with
 *       {@code commit = 0}. An op region exceeding {@code RX_MAX_PDU} ends early: the beat that
 *       crosses the limit is sent with {@code last = 1, commit = 0} and the rest is discarded.</li>
 *   <li>{@code ctl} (out, AXI4-Stream {@code ctl_t*}): frames that are not SUE frames for this
 *       endpoint, whole and byte-identical (FCS included when present); {@code ctl_tuser} on the
 *       last beat = MAC error or (RX_FCS) bad FCS.</li>
 *   <li>{@code cnt_*} (out, 32 bits each, saturating, reset 0): {@code frames} (frames in, counted
 *       at their first beat), {@code pass} (committed PDUs), {@code ctl} (control frames), and one
 *       per drop reason: {@code mac_err}, {@code fcs}, {@code trunc}, {@code over}, {@code hdr},
 *       {@code len}, {@code csum}, {@code rcrc}, {@code ver}, {@code op}, {@code src},
 *       {@code part}. Each counts a cycle after its event (the event is registered first). Once no
 *       frame is in flight, frames = pass + ctl + the sum of the drops.</li>
 * </ul>
 *
 * <h2>Timing</h2>
 * Throughput one beat per cycle, back-to-back frames included; {@code s_ready} is low only while
 * an output is back-pressured (or at reset). Latency from the last MAC beat accepted in cycle t
 * to the PDU's last beat (with its verdict) on {@code m}: at most {@link #LAST_BEAT_LATENCY}
 * cycles with {@code m_ready} high (3, or 4 when the op region's tail needs its own output beat or the
 * frame ends within a beat of its RH, whose header check then decides; 4 or 5 before session 15,
 * when the CRC checks took 3 cycles).
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
    public static final int LAST_BEAT_LATENCY = 4;
    /** Depth of each per-frame record FIFO (frames between the header check and the output stage). */
    static final int RECORDS = 8;
    /** Counter names, in port order ({@code cnt_<name>}). */
    public static final List<String> COUNTERS = List.of("frames", "pass", "ctl", "mac_err", "fcs", "trunc", "over",
            "hdr", "len", "csum", "rcrc", "ver", "op", "src", "part");

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());

    /** MAC receive frames: AXI4-Stream ports {@code s_t*}, {@code tuser} = MAC error ({@link MacStreams#rx}). */
    public final AxiStream s;
    public final Stream<RxPduBeat> m;
    /** Frames that are not SUE frames for this endpoint: ports {@code ctl_t*}, {@code tuser} = error. */
    public final AxiStream ctl;

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
        final int nb = w / 8;
        final int cw = log2Up(nb + 1);
        final int hb = encap.headerBytes(vlan);
        final int ob = hb + 8;
        final int q = ob / nb;
        final int sh = ob % nb;
        param("HDR_BYTES", hb);
        require(sh != 0, "internal: op region offset " + ob + " is a multiple of the beat");

        s = slave(MacStreams.rx(w));
        m = master(Stream.of(() -> new RxPduBeat(w)));
        ctl = master(MacStreams.rx(w));
        Stream<MacRxBeat> macIn = wire(Stream.of(() -> new MacRxBeat(w))).named("mac_in");
        s.connectTo(macIn);
        Stream<MacRxBeat> ctlOut = wire(Stream.of(() -> new MacRxBeat(w))).named("ctl_out");
        ctl.connectFrom(ctlOut);

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

        // ---------------- stages ----------------
        Bool go = wire("go", bool());
        RxHeldBeat held = new RxHeldBeat(macIn, fcsEn, go, nb, cw, q);
        cntFrames.set(lateCounter("cnt_frames_r", held.frameIn));
        RxCrcChecks crc = new RxCrcChecks(held, fcsEn, w, hb);
        param("CRC_LATENCY", crc.latency);
        RxHeaderCheck header = new RxHeaderCheck(held, cfgBlock, encap, vlan, numXpus, nb, fcsEn);

        // per-frame records, in frame order: header verdict and RH fields, class, end verdicts
        StreamFifo<RxPduInfo> infoQ = instance("info_q", () -> new StreamFifo<>(RxPduInfo::new, RECORDS,
                FifoStorage.REGISTERS, RECORDS - 3));
        infoQ.s.valid.set(header.valid);
        assignLeaves(infoQ.s.payload, header.info);
        StreamFifo<Bits> classQ = instance("class_q", () -> new StreamFifo<>(() -> bits(1), RECORDS,
                FifoStorage.REGISTERS, RECORDS - 3));
        classQ.s.valid.set(header.valid);
        classQ.s.payload.set(header.info.ctl.asBits());
        StreamFifo<RxEndRecord> endQ = instance("end_q", () -> new StreamFifo<>(RxEndRecord::new, RECORDS,
                FifoStorage.REGISTERS, RECORDS - 3));
        StreamFifo<Bits> ctlEndQ = instance("ctl_end_q", () -> new StreamFifo<>(() -> bits(1), RECORDS,
                FifoStorage.REGISTERS, RECORDS - 3));
        ctlEndQ.s.valid.set(crc.valid);
        ctlEndQ.s.payload.set(crc.end.macErr.or(crc.end.fcsBad).asBits());
        assertThat(header.valid.not().or(infoQ.s.ready.and(classQ.s.ready)), "info record FIFO overflow");
        assertThat(crc.valid.not().or(ctlEndQ.s.ready), "control end FIFO overflow");

        RxControlPath control = new RxControlPath(held, crc.latency, q, w, classQ, ctlEndQ, ctlOut);
        param("CTL_DELAY", control.delay);
        RxRealigner realigner = new RxRealigner(held, w, cw, q, sh);
        go.set(realigner.out.ready.and(control.room).andNot(infoQ.almostFull).andNot(endQ.almostFull)
                .andNot(classQ.almostFull).andNot(ctlEndQ.almostFull));
        // elastic registers to the output stage, as many as the CRC latency: the end record is then ready. The first
        // registers ready too (a skid slot): the output stage's take (the end record FIFO's count, m_ready) no longer
        // runs back through the chain into go, s_ready and every stage-L register enable (10 levels in the endpoint)
        Stream<OpSlot> o = realigner.out.fullPipe();
        for (int i = 1; i < crc.latency; i++) {
            o = o.m2sPipe();
        }
        RxVerdict verdict = new RxVerdict(o, infoQ, endQ, crc, maxPdu, m, ob, nb, encap.standard());

        // ---------------- counters ----------------
        Bool sue = verdict.endPop.andNot(verdict.isCtl);
        cntPass.set(lateCounter("cnt_pass_r", sue.andNot(verdict.anyBad)));
        cntCtl.set(lateCounter("cnt_ctl_r", verdict.endPop.and(verdict.isCtl)));
        UInt[] outs = {cntMacErr, cntFcs, cntTrunc, cntOver, cntHdr, cntLen, cntCsum, cntRcrc, cntVer, cntOp, cntSrc,
            cntPart};
        List<Bool> reasons = List.of(verdict.reasons);
        for (int i = 0; i < reasons.size(); i++) {
            Bool earlier = RxVerdict.anyOf(reasons.subList(0, i));
            outs[i].set(lateCounter("cnt_" + COUNTERS.get(3 + i) + "_r", sue.and(reasons.get(i)).andNot(earlier)));
        }
        latency(LAST_BEAT_LATENCY);
    }

    /** Emitted as {@code sue_rx_parser} (SUE modules carry the {@code sue_} prefix). */
    @Override
    public String moduleBaseName() {
        return "sue_rx_parser";
    }

    /**
     * A saturating status counter of {@code event}, counted a cycle late: the events come from the go and verdict
     * logic (the record FIFOs' counts, the output's ready), and the count enable of 32 flip-flops behind them was
     * 10 levels.
     */
    private static UInt lateCounter(String name, Bool event) {
        Bool step = reg(name + "_step", bool()).init(false);
        step.set(event);
        return Counter.saturating(name, StatusWord.BITS, step);
    }

    /**
     * The edges of a contiguous-from-0 keep: element i is set when the keep holds exactly i + 1
     * lanes (at most one is set; none when the keep is empty).
     */
    static List<Bool> keepEdges(Bits keep) {
        int n = keep.width();
        List<Bool> edge = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            edge.add(i + 1 < n ? keep.bit(i).andNot(keep.bit(i + 1)) : keep.bit(i));
        }
        return edge;
    }

    /** Byte count of a contiguous-from-0 keep (0 when none), {@code cw} bits. */
    static UInt keepCount(Bits keep, int cw) {
        return keepCountLess(keep, cw, 0);
    }

    /**
     * {@code max(count - less, 0)} for the byte count of a contiguous-from-0 keep, {@code cw} bits: each
     * result bit is an OR of the keep's edges, with no compare or subtraction after the count.
     */
    static UInt keepCountLess(Bits keep, int cw, int less) {
        int n = keep.width();
        List<Bool> edge = keepEdges(keep);
        List<Bits> bitsMsbFirst = new ArrayList<>();
        for (int b = cw - 1; b >= 0; b--) {
            List<Bool> terms = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                if (((Math.max(i + 1 - less, 0) >> b) & 1) != 0) {
                    terms.add(edge.get(i));
                }
            }
            // one wide OR (a reduction tree), not a chain of two-input ORs
            bitsMsbFirst.add(terms.isEmpty() ? B(0, 1) : OneHot.fromBools(terms).ne(0).asBits());
        }
        return cat(bitsMsbFirst).asUInt();
    }

    /** Keep of {@code nb} lanes with lanes 0..n-1 set. */
    static Bits therm(UInt n, int nb) {
        List<Bits> lanes = new ArrayList<>();
        for (int i = nb - 1; i >= 0; i--) {
            lanes.add(n.gt(U(i, n.bitWidth())).asBits());
        }
        return cat(lanes);
    }

    /** {@code v} delayed by {@code n} free-running cycles (reset 0). */
    static Bool delay(String name, Bool v, int n) {
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
