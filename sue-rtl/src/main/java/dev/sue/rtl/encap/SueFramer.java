// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.crc.CrcAppender;
import dev.sue.hdl.lib.crc.CrcSpec;
import dev.sue.hdl.lib.crc.CrcWindow;
import dev.sue.rtl.mgmt.ControlFrameMerge;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.config.SueEncapConfig;
import dev.sue.rtl.pdu.PduDesc;
import java.util.ArrayList;
import java.util.List;

/**
 * SUE frame builder: turns each PDU (header request, RH fields, op bytes) into a complete Ethernet
 * frame (ARCHITECTURE.md §5):
 * <pre>
 *   network header (H bytes, {@link SueHeaderBuilder}) | RH (8) | PDU bytes (L) | zero padding (P) | R-CRC (4) [| FCS (4)]
 * </pre>
 * RH = {ver 0, op, rsv 0, xpuid = OWN_XPUID[9:0]; psn; vc, plane, rsvd 0, partition (the destination's
 * {@code PARTITION} entry); rpsn}. P = max(0, MIN_FRAME - (H + 8 + L + 4 + 4)): the frame
 * including its FCS (appended here or by the MAC) reaches MIN_FRAME; the padding sits before the
 * R-CRC. R-CRC = CRC-32 ({@code zlib.crc32}) over RH..padding, appended least significant byte
 * first; FCS (when FCS_BY_SUE) = CRC-32 over the whole frame before it, LSB first.
 *
 * <h2>Parameters</h2>
 * <ul>
 *   <li>{@code dataWidth}: bus width in bits, a power of two 64..1024 (256, 512, 1024 are the
 *       tested ones).</li>
 *   <li>{@code encap}, {@code vlan}, {@code numXpus}: as {@link SueHeaderBuilder}.</li>
 * </ul>
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready}: the TX configuration bus;
 *       every write goes to the header builder's {@link SueEncapConfig}; this block also keeps
 *       {@code MIN_FRAME} (0x0210, bits [11:0], reset 64; 0 disables padding), {@code FCS_BY_SUE}
 *       (0x0211, bit 0, reset 0) and a copy of {@code OWN_XPUID[9:0]} (0x0002) for the RH.
 *       {@code cfg_ready} is the header builder's (always 1). Change MIN_FRAME and FCS_BY_SUE only
 *       while no frame is in flight.</li>
 *   <li>{@code hdr_req} (slave Flow of {@link PduDesc} {dest, vc, length}): the header request,
 *       one per PDU in PDU order, made only in a cycle with {@code hdr_room} (out: fewer than
 *       {@link #HEADER_SLOTS} PDUs between their request and their frame's last beat leaving the
 *       assembler; from a register). It carries what the network header needs, so the header is
 *       built while transmit reliability assigns the PSN.</li>
 *   <li>{@code rh} (slave Flow of {@link RhFields}): the request's RH fields {op, psn, rpsn}
 *       exactly {@link #RH_DELAY} = 2 cycles after it (asserted), or {@code cancel}: the PDU is
 *       withdrawn, its header is discarded and it has no data beats. {@link TxFramePath} turns a
 *       {@code Stream<RhDesc>} into the two.</li>
 *   <li>{@code data} (slave {@code Stream<PacketBeat>}): the PDU bytes, {@code ceil(L/(W/8))}
 *       beats per PDU (none for L = 0), keep full but on the last beat, {@code last} on the final
 *       beat (an SVA assertion checks it against the request's length); bytes beyond {@code keep}
 *       are zero (the queue manager clears them; asserted): the one-beat fast path feeds the
 *       data beat to its CRC window unmasked.</li>
 *   <li>{@code m} (master {@code Stream<PacketBeat>}): frames, byte 0 = first byte on the wire.</li>
 *   <li>{@code ctl} (slave {@code Stream<PacketBeat>}, only with {@code controlFrames}, as in
 *       {@code sue_endpoint}): whole control frames without FCS, kept back to back by their
 *       source; {@link ControlFrameMerge} puts them between SUE frames after the R-CRC stage,
 *       so they get the FCS when FCS_BY_SUE is 1, like every frame (with 0 the frames bypass the
 *       FCS stage). The merge takes the R-CRC stage's output register, so it costs no cycle.</li>
 *   <li>{@code frames}, {@code drops} (out, 32 bits, wrapping): frames sent into the CRC stages
 *       and PDUs dropped because {@code dest >= numXpus} (their data beats are consumed and
 *       nothing reaches {@code m}).</li>
 * </ul>
 *
 * <h2>Timing</h2>
 * A header request in cycle t (its RH fields in t + 2) gives the header {@link SueHeaderBuilder#LATENCY}
 * = 3 cycles later, with the RH fields registered beside it, and the frame's first beat is built
 * combinationally from them and the data stream's head; the R-CRC stage registers it (latency 1)
 * and its output register (a forward register: the appender's output logic, its queue head, CRC
 * select and lane multiplexers, is most of a cycle, so the merge, the FCS stage and the MAC port
 * start from flip-flops) adds a cycle; with FCS_BY_SUE = 1 the FCS stage lets it fall through into
 * its own output register (one more cycle), with 0 it is bypassed. So on an idle system a request
 * in cycle t with its first data beat by t + 3 gives the
 * first frame beat on {@code m} in cycle t + 5 (t + 6 with FCS_BY_SUE = 1), for every frame
 * length when FCS_BY_SUE = 0:
 * <ul>
 *   <li>frames of two or more beats (before the R-CRC): only the last beat waits for the
 *       appender's {@link dev.sue.hdl.lib.crc.CrcEngine} (2 cycles at every width: its tail
 *       matrix's partial sums registered with the last beat's state update; 3 before session 15,
 *       5 at 512 bits and 6 at 1024 before session 10), so the earlier beats stream and the last
 *       one leaves 2 cycles after it was assembled (streaming would be 1);</li>
 *   <li>one-beat frames ({@code H + 8 + L + P <= N}, i.e. {@code L + P <= N - H - 8}; only when
 *       {@code H + 8 < N}, parameter {@code FAST_PATH}): the R-CRC covers RH, the PDU in one
 *       data beat (zero beyond its length by the data contract) and padding zeros, all there
 *       when the beat is assembled. A {@link CrcWindow} over RH || data bytes
 *       {@code 0..N-H-9} (the window; its trailing {@code N-H-8-(L+P)} bytes are zero and
 *       undone by a matrix chosen by that count, computed at request time) gives the R-CRC
 *       one cycle after the beat, i.e. in cycle t + 4 when the beat is at the appender's head,
 *       and the appender takes it through its fast-CRC input ({@code s_fast}) instead of its
 *       engine: the beat leaves the appender at t + 4, {@code m} at t + 5. If the R-CRC does not
 *       fit in the beat's free lanes, it spills into a second beat at t + 6.</li>
 * </ul>
 * With FCS_BY_SUE = 1 a one-beat frame's (only) beat still waits for the FCS engine (its
 * latency, 2 cycles, so t + 8 with the two output registers; t + 9 before session 15, t + 11 /
 * t + 12 at 512 / 1024 bits before the engine's tail matrix);
 * frames of more beats leave at t + 6. Throughput: with requests and data backlogged the output carries a frame beat in
 * every cycle it is ready (the output is longer than the input by H + 8 + P + 4 [+ 4] bytes, so
 * the input side has the slack to absorb the CRC stages' extra beats), one-beat frames
 * included.
 */
public final class SueFramer extends Component {
    /** Config word address of MIN_FRAME. */
    public static final int MIN_FRAME = 0x0210;
    /** Config word address of FCS_BY_SUE. */
    public static final int FCS_BY_SUE = 0x0211;
    /** Reset value of MIN_FRAME. */
    public static final int DEFAULT_MIN_FRAME = 64;
    /** PDUs between their header request and their frame's last beat leaving the assembler (the current one included). */
    public static final int HEADER_SLOTS = 6;
    /** Cycles from a header request on {@code hdr_req} to its RH fields on {@code rh}. */
    public static final int RH_DELAY = 2;

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());

    /** Header requests: one per PDU, in PDU order, only in a cycle with {@link #hdrRoom}. */
    public final Flow<PduDesc> hdrReq;
    /** A header request may be made in this cycle. */
    public final Bool hdrRoom = out(bool());
    /** The RH fields of each request, {@link #RH_DELAY} cycles after it. */
    public final Flow<RhFields> rh;
    public final Stream<PacketBeat> data;
    public final Stream<PacketBeat> m;
    /** Control frames merged before the FCS stage (with {@code controlFrames}; else null). */
    public final Stream<PacketBeat> ctl;
    public final UInt frames = out(uint(32));
    public final UInt drops = out(uint(32));

    /** A header-queue entry: everything before the PDU bytes plus the frame's beat counts. */
    static final class Entry extends Bundle {
        final Bits prefix;
        final UInt nIn;
        final UInt nOut;
        final Bits lastKeep;
        final Bool drop = bool();
        /** The PDU has data beats ({@code nIn != 0}), kept as a flag for the fast path's window. */
        final Bool hasData = bool();
        /** The frame is one beat before its R-CRC: the R-CRC comes from the fast path. */
        final Bool fast = bool();
        /** The frame is one beat before its R-CRC ({@code nOut == 1}), fast path or not. */
        final Bool oneOut = bool();
        /** Fast path: window bytes after the covered ones (N - prefix bytes - body). */
        final UInt trail;
        private final int prefixBytes;
        private final int lanes;
        private final int trailBits;

        Entry(int prefixBytes, int lanes, int trailBits) {
            this.prefixBytes = prefixBytes;
            this.lanes = lanes;
            this.trailBits = trailBits;
            prefix = bits(8 * prefixBytes);
            nIn = uint(13);
            nOut = uint(13);
            lastKeep = bits(lanes);
            trail = uint(trailBits);
        }

        @Override
        public Entry copyType() {
            return new Entry(prefixBytes, lanes, trailBits);
        }
    }

    public SueFramer(int dataWidth, Encapsulation encap, boolean vlan, int numXpus) {
        this(dataWidth, encap, vlan, numXpus, false);
    }

    /** With {@code controlFrames}: a {@code ctl} input whose frames join between SUE frames before the FCS. */
    public SueFramer(int dataWidth, Encapsulation encap, boolean vlan, int numXpus, boolean controlFrames) {
        this(dataWidth, encap, vlan, numXpus, controlFrames, 0);
    }

    /**
     * The framer of plane {@code plane} (0..3) of a multi-port endpoint: its RH {@code plane} field
     * (byte 4 bits 5:4, ARCHITECTURE.md §5; sue-rtl/DESIGN-PORTS.md, failover) carries it.
     */
    public SueFramer(int dataWidth, Encapsulation encap, boolean vlan, int numXpus, boolean controlFrames, int plane) {
        param("dataWidth", dataWidth);
        if (plane != 0) {
            param("plane", plane);
        }
        require(plane >= 0 && plane < 4, "plane must be 0..3 (the RH plane field has 2 bits), got " + plane);
        param("controlFrames", controlFrames);
        param("encap", encap == null ? "null" : encap.name());
        param("vlan", vlan);
        param("numXpus", numXpus);
        require(dataWidth >= 64 && dataWidth <= 1024 && isPowerOfTwo(dataWidth),
                "dataWidth must be a power of two in 64..1024, got " + dataWidth);
        require(encap != null, "encap must be given");
        require(numXpus >= 1 && numXpus <= 1024, "numXpus must be 1..1024, got " + numXpus);
        require(!vlan || encap.vlanAllowed(), "vlan=true needs a standard or AFH Gen 1 encapsulation, got " + encap);
        final int n = dataWidth / 8;
        final int lg = log2Up(n);
        final int hBytes = encap.headerBytes(vlan);
        final int c = hBytes + 8; // header + RH
        final int q = c / n;
        final int r = c % n;
        // fast path: one-beat frames (c + body <= n) get their R-CRC from a CrcWindow over
        // RH || the first wd data bytes, so they need not wait for the appender's engine
        final boolean fastPath = c < n;
        final int wd = n - c; // data bytes a one-beat frame can hold
        final int tw = fastPath ? Math.max(1, bitsFor(wd)) : 1;
        param("HDR_BYTES", hBytes);
        param("FAST_PATH", fastPath);

        hdrReq = slave(Flow.of(PduDesc::new));
        rh = slave(Flow.of(RhFields::new));
        data = slave(Stream.of(() -> new PacketBeat(dataWidth)));
        m = master(Stream.of(() -> new PacketBeat(dataWidth)));

        SueHeaderBuilder hb = instance(() -> new SueHeaderBuilder(encap, vlan, numXpus));
        hb.cfgValid.set(cfgValid);
        hb.cfgAddr.set(cfgAddr);
        hb.cfgData.set(cfgData);
        cfgReady.set(hb.cfgReady);

        // ---- own configuration
        Bits ownXpuid = reg("own_xpuid", bits(10)).init(0);
        UInt minBody = reg("min_body", uint(13)).init(Math.max(0, DEFAULT_MIN_FRAME - c - 8));
        Bool fcsBySue = reg("fcs_by_sue", bool()).init(false);
        when(cfgValid.and(cfgAddr.eq(SueEncapConfig.OWN_XPUID)), () -> ownXpuid.set(cfgData.slice(9, 0)));
        UInt minFrameW = cfgData.slice(11, 0).asUInt().resize(13);
        when(cfgValid.and(cfgAddr.eq(MIN_FRAME)), () -> minBody.set(
                mux(minFrameW.gt(c + 8), minFrameW.sub(c + 8), U(0, 13))));
        when(cfgValid.and(cfgAddr.eq(FCS_BY_SUE)), () -> fcsBySue.set(cfgData.bit(0)));

        // ---- header request (ahead of the RH fields) and the frame's side information
        UInt outstanding = reg("outstanding", uint(bitsFor(HEADER_SLOTS))).init(0);
        hdrRoom.set(outstanding.lt(HEADER_SLOTS));
        Bool take = hdrReq.valid;
        assertThat(take.not().or(hdrRoom), "hdr_req: a header request while hdr_room is low");
        PduDesc dd = hdrReq.payload;
        UInt body = mux(dd.length.ge(minBody), dd.length, minBody).named("body_len"); // L + P
        hb.reqValid.set(take);
        hb.reqDest.set(dd.dest);
        hb.reqVc.set(dd.vc);
        hb.reqLength.set(body.resize(14).add(12));
        hb.reqEntropy.set(entropy(dd.dest, dd.vc));

        // side information, aligned with the header builder's 3 stages
        UInt len1 = regNext(dd.length).named("len1");
        UInt body1 = regNext(body).named("body1");
        // The VC's delay line has a reset: without one yosys packs it into shift registers
        // (SRL16E), whose read is a LUT level ahead of the CRC window's 8.
        UInt vc1 = reg("rh_vc1", uint(2)).init(0);
        vc1.set(dd.vc);
        UInt vc2 = reg("rh_vc2", uint(2)).init(0);
        vc2.set(vc1);
        UInt vc3 = reg("rh_vc3", uint(2)).init(0);
        vc3.set(vc2);
        Bool take1 = reg("take1", bool()).init(false);
        take1.set(take);
        Bool take2 = reg("take2", bool()).init(false);
        take2.set(take1);
        assertThat(rh.valid.eq(take2), "rh: the RH fields must follow their header request by RH_DELAY cycles");
        UInt nIn2 = regNext(len1.resize(14).add(n - 1).slice(13, lg).resize(13)).named("n_in2");
        UInt frameLen1 = body1.resize(14).add(c).named("frame_len1"); // without R-CRC
        UInt nOut2 = regNext(frameLen1.add(n - 1).slice(13, lg).resize(13)).named("n_out2");
        // one adder from body1 (not frame_len1 - 1): a carry chain less before the 1024-bit keep decode
        UInt lastIdx1 = body1.resize(14).add(c - 1).slice(lg - 1, 0).named("last_idx1");
        List<Bool> lk = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            lk.add(i == 0 ? TRUE : lastIdx1.ge(i));
        }
        Bits lastKeep2 = regNext(cat(lk)).named("last_keep2");
        Bool fast2 = regNext(fastPath ? frameLen1.le(n) : FALSE).named("fast2");
        UInt trail2 = regNext(U(Math.max(0, wd), 14).sub(body1.resize(14)).slice(tw - 1, 0)).named("trail2");
        Bool fast3 = regNext(fast2).named("fast3");
        Bool oneOut3 = regNext(regNext(frameLen1.le(n)).named("one_out2")).named("one_out3");
        Bool hasData3 = regNext(regNext(len1.ne(0)).named("has_data2")).named("has_data3");
        UInt trail3 = regNext(trail2).named("trail3");
        UInt nIn3 = regNext(nIn2).named("n_in3");
        UInt nOut3 = regNext(nOut2).named("n_out3");
        Bits lastKeep3 = regNext(lastKeep2).named("last_keep3");
        // the RH fields arrive with the header builder's stage 2 and are registered beside its
        // stage 3; a withdrawn PDU's header is discarded there
        UInt op3 = reg("rh_op3", uint(2)).init(0);
        UInt psn3 = reg("rh_psn3", uint(16)).init(0);
        UInt rpsn3 = reg("rh_rpsn3", uint(16)).init(0);
        Bool cancel3 = reg("rh_cancel3", bool()).init(false);
        op3.set(rh.payload.op);
        psn3.set(rh.payload.psn);
        rpsn3.set(rh.payload.rpsn);
        cancel3.set(rh.valid.and(rh.payload.cancel));
        Bool freshValid = hb.hdrValid.andNot(cancel3).named("fresh_valid");

        // RH bytes (network order) at hdr time
        Bits psnB = psn3.asBits();
        Bits rpsnB = rpsn3.asBits();
        Bits part = hb.hdrPartition;
        Bits[] rhBytes = {
            cat(B(0, 2), op3.asBits(), B(0, 2), ownXpuid.slice(9, 8)),
            ownXpuid.slice(7, 0),
            psnB.slice(15, 8), psnB.slice(7, 0),
            cat(vc3.asBits(), B(plane, 2), B(0, 2), part.slice(9, 8)),
            part.slice(7, 0),
            rpsnB.slice(15, 8), rpsnB.slice(7, 0),
        };
        List<Bits> rhList = new ArrayList<>();
        for (int k = 7; k >= 0; k--) {
            rhList.add(rhBytes[k]);
        }
        Entry fresh = wire("hdr_entry", new Entry(c, n, tw));
        fresh.prefix.set(cat(cat(rhList), hb.hdrData));
        fresh.nIn.set(nIn3);
        fresh.nOut.set(nOut3);
        fresh.lastKeep.set(lastKeep3);
        fresh.drop.set(hb.hdrDestError);
        fresh.hasData.set(hasData3);
        fresh.fast.set(fast3);
        fresh.oneOut.set(oneOut3);
        fresh.trail.set(trail3);

        // ---- the current entry: a register loaded from the header queue or straight from the
        // header builder; while it is empty the builder's fresh entry is the head (fall-through),
        // so a header is used in the cycle it arrives. The head is a 2:1 select of registers, and
        // its beat-count decisions (more input beats, last output beat, past the prefix beats)
        // are registered flags, not compares behind the queue's read multiplexer: the data ready,
        // the entry's end and the queue's push and count follow in a few levels.
        StreamFifo<Entry> hq = instance(() -> new StreamFifo<>(() -> new Entry(c, n, tw), HEADER_SLOTS,
                FifoStorage.LUT_RAM, HEADER_SLOTS));
        Entry cur = reg("cur", new Entry(c, n, tw));
        Bool curValid = reg("cur_valid", bool()).init(false);
        Bool curMoreIn = reg("cur_more_in", bool()).init(false); // input beats left for cur
        Bool curIsLast = reg("cur_is_last", bool()).init(false); // the next output beat is cur's last
        Bool headValid = curValid.or(freshValid).named("head_valid");
        Entry head = wire("head", new Entry(c, n, tw));
        assignLeaves(head, fresh);
        when(curValid, () -> assignLeaves(head, cur));
        // a fresh head has no beat out or in yet
        Bool moreIn = mux(curValid, curMoreIn, fresh.hasData).named("more_in");
        Bool isLast = mux(curValid, curIsLast, fresh.oneOut).named("is_last");
        Bool entryDone = wire("entry_done", bool());
        Bool nextFromQueue = hq.m.valid; // the queue holds entries only behind a valid cur
        hq.s.valid.set(freshValid.and(curValid).andNot(entryDone.andNot(nextFromQueue)));
        assignLeaves(hq.s.payload, fresh);
        hq.m.ready.set(entryDone);
        assertThat(hq.m.valid.not().or(curValid), "internal: header queue holds entries but no current one");
        assertThat(hq.s.valid.not().or(hq.s.ready), "internal: header queue overflow");
        // a withdrawn PDU's slot comes back when its header is discarded (from a register)
        UInt held = mux(cancel3, outstanding.sub(1), outstanding).named("outstanding_kept");
        outstanding.set(held);
        when(take.andNot(entryDone), () -> outstanding.set(held.add(1)))
                .elseWhen(entryDone.andNot(take), () -> outstanding.set(held.sub(1)));

        // ---- frame assembly: prefix, PDU bytes shifted by c (carry of r bytes), zero padding
        UInt j = reg("out_beat", uint(13)).init(0);
        UInt kTaken = reg("in_beats", uint(13)).init(0); // for the data contract's assertion only
        Bool pastPrefix = q == 0 ? TRUE : reg("past_prefix", bool()).init(false); // j >= q
        Bool needIn = pastPrefix.and(moreIn).named("need_in");
        Bool drop = head.drop;

        Stream<PacketBeat> asm = wire("asm", Stream.of(() -> new PacketBeat(dataWidth)));
        Bits carry = r > 0 ? reg("carry", bits(8 * r)) : null;
        Bits carryKeep = r > 0 ? reg("carry_keep", bits(r)) : null;
        List<Bits> lanes = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            Bits pdu;
            int lastPrefixBeat; // highest j whose lane i is prefix
            if (i >= r) {
                pdu = mux(needIn.and(data.payload.keep.bit(i - r)), data.payload.data.byteAt(i - r), B(0, 8));
                lastPrefixBeat = q - 1;
            } else {
                pdu = mux(carryKeep.bit(i), carry.slice(8 * i + 7, 8 * i), B(0, 8));
                lastPrefixBeat = q;
            }
            Bits lane = pdu;
            for (int jj = lastPrefixBeat; jj >= 0; jj--) {
                int f = jj * n + i;
                lane = mux(j.eq(jj), head.prefix.slice(8 * f + 7, 8 * f), lane);
            }
            lanes.add(lane);
        }
        asm.valid.set(headValid.andNot(drop).and(needIn.not().or(data.valid)));
        asm.payload.data.set(cat(lanes));
        asm.payload.keep.set(mux(isLast, head.lastKeep, allOnes(n)));
        asm.payload.last.set(isLast);
        Bool asmFire = asm.fire().named("asm_fire");

        // data consumption: with the output beat that needs it, or straight through when dropping
        Bool dropping = headValid.and(drop).named("dropping");
        data.ready.set(mux(drop, dropping.and(moreIn), headValid.and(needIn).and(asm.ready)));
        Bool dataFire = data.fire().named("data_fire");
        when(dataFire, () -> kTaken.set(kTaken.add(1)));
        assertThat(dataFire.not().or(data.payload.last.eq(kTaken.add(1).eq(head.nIn))),
                "data: last must mark beat ceil(length / bytes per beat) of the PDU");
        if (r > 0) {
            when(asmFire.and(pastPrefix), () -> {
                carry.set(data.payload.data.slice(8 * n - 1, 8 * (n - r)));
                carryKeep.set(mux(needIn, data.payload.keep.slice(n - 1, n - r), B(0, r)));
            });
        }
        when(asmFire, () -> j.set(j.add(1)));
        Bool lastIn = dataFire.and(data.payload.last).named("last_in");
        Bool dropDone = dropping.and(moreIn.not().or(lastIn));
        entryDone.set(asmFire.and(isLast).or(dropDone));
        // the flags of the head next cycle: the same entry (cur, or the fresh one kept in cur) with
        // this cycle's beats counted, or the next entry with none
        Bool penultimate = j.add(2).eq(head.nOut).named("penultimate_out");
        when(headValid.andNot(entryDone), () -> {
            curMoreIn.set(moreIn.andNot(lastIn));
            curIsLast.set(mux(asmFire, penultimate, isLast));
            if (q > 0) {
                when(asmFire.and(j.eq(q - 1)), () -> pastPrefix.set(true));
            }
        });
        when(curValid.not().and(freshValid).andNot(entryDone), () -> {
            curValid.set(true);
            assignLeaves(cur, fresh);
        });
        Entry next = wire("next_entry", new Entry(c, n, tw));
        assignLeaves(next, fresh);
        when(nextFromQueue, () -> assignLeaves(next, hq.m.payload));
        when(entryDone, () -> {
            j.set(0);
            kTaken.set(0);
            if (q > 0) {
                pastPrefix.set(false);
            }
            when(curValid, () -> {
                curValid.set(nextFromQueue.or(freshValid));
                assignLeaves(cur, next);
                curMoreIn.set(next.hasData);
                curIsLast.set(next.oneOut);
            });
        });
        frames.set(Counter.saturating("frame_count", StatusWord.BITS, asmFire.and(isLast)));
        drops.set(Counter.saturating("drop_count", StatusWord.BITS, dropDone));

        // ---- R-CRC over RH..padding (registered), then FCS over the frame (fall-through / bypass)
        CrcAppender rcrc = instance(() -> new CrcAppender(CrcSpec.CRC32, dataWidth, hBytes, false, fastPath));
        rcrc.enable.set(TRUE);
        rcrc.s.connectFrom(asm);
        if (fastPath) {
            // window = RH (the head's prefix bytes H..H+7) || data bytes 0..wd-1 (zero beyond the
            // PDU by the data contract; all zero when the PDU is empty and has no data beat). A
            // fast frame's one beat takes the PDU's first data beat, so "a data beat belongs to
            // it" is the entry's flag, not the beat count compare (moreIn): a level less before
            // the window's XOR network.
            CrcWindow win = instance(() -> new CrcWindow(CrcSpec.CRC32, 8 + wd, wd));
            List<Bits> wb = new ArrayList<>();
            for (int i = wd - 1; i >= 0; i--) {
                wb.add(mux(head.hasData, data.payload.data.byteAt(i), B(0, 8)));
            }
            win.valid.set(asmFire.and(head.fast));
            win.window.set(cat(cat(wb), head.prefix.slice(8 * c - 1, 8 * hBytes)));
            win.trail.set(head.trail);
            rcrc.sFast.set(head.fast);
            rcrc.fastCrc.valid.set(win.crcValid);
            rcrc.fastCrc.payload.set(win.crcValue);
        }
        // The R-CRC stage's output logic (its queue head, the CRC select, the lane multiplexers) is
        // most of a cycle: a forward register ends it, so the merge, the FCS stage and the MAC
        // port start from flip-flops (one cycle on every frame).
        Stream<PacketBeat> framed = rcrc.m.m2sPipe();
        Stream<PacketBeat> sue;
        if (controlFrames) {
            ctl = slave(Stream.of(() -> new PacketBeat(dataWidth))).named("ctl");
            ControlFrameMerge merge = instance("ctl_merge", () -> new ControlFrameMerge(dataWidth));
            merge.frames.connectFrom(framed);
            merge.ctl.connectFrom(ctl);
            sue = merge.m;
        } else {
            ctl = null;
            sue = framed;
        }
        // FCS_BY_SUE = 1: through the FCS stage and its output register (the FCS stage's output
        // logic is as deep as the R-CRC stage's); 0: straight to m, the FCS stage idle
        CrcAppender fcs = instance(() -> new CrcAppender(CrcSpec.CRC32, dataWidth, 0, true));
        fcs.enable.set(fcsBySue);
        Stream<PacketBeat> toFcs = sue.newWire("to_fcs");
        toFcs.valid.set(sue.valid.and(fcsBySue));
        assignLeaves(toFcs.payload, sue.payload);
        fcs.s.connectFrom(toFcs);
        Stream<PacketBeat> withFcs = fcs.m.m2sPipe();
        sue.ready.set(mux(fcsBySue, toFcs.ready, m.ready));
        m.valid.set(mux(fcsBySue, withFcs.valid, sue.valid));
        m.payload.data.set(mux(fcsBySue, withFcs.payload.data, sue.payload.data));
        m.payload.keep.set(mux(fcsBySue, withFcs.payload.keep, sue.payload.keep));
        m.payload.last.set(mux(fcsBySue, withFcs.payload.last, sue.payload.last));
        withFcs.ready.set(m.ready);
        data.assertProtocol("data", false);
        List<Bits> beyond = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            beyond.add(mux(data.payload.keep.bit(i), B(0, 8), data.payload.data.byteAt(i)));
        }
        assertThat(data.valid.not().or(cat(beyond).eq(0)), "data: bytes beyond keep must be zero");
        m.assertProtocol("m", true);
        latency(SueHeaderBuilder.LATENCY + 2);
    }

    /** UDP source port / flow label / AFH entropy: {2'b11, vc, dest, 2'b00}, constant per (dest, vc). */
    static Bits entropy(UInt dest, UInt vc) {
        return cat(B(3, 2), vc.asBits(), dest.asBits(), B(0, 2));
    }

    private static Bits allOnes(int width) {
        List<Bool> ones = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            ones.add(TRUE);
        }
        return cat(ones);
    }
}
