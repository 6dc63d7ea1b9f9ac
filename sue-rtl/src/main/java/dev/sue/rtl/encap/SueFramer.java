// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.crc.CrcWindow;
import dev.sue.rtl.mgmt.ControlFrameMerge;
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
 * RH = {ver 0, op, rsv 0, xpuid = OWN_XPUID[9:0]; psn; vc, plane, move, partition (the destination's
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
 *
 * <h2>Stages</h2>
 * In the order of a frame's path ({@link FrameGeometry} holds the byte arithmetic they share):
 * {@link FramerOwnConfig} (MIN_FRAME, FCS_BY_SUE, OWN_XPUID), {@link FrameRequest} (hdr_room,
 * padding, the header builder's request), {@link FrameSideInfo} (beat counts and RH fields
 * delayed to the header), {@link FreshEntry} (RH bytes + header + side information),
 * {@link HeaderQueue} (waiting headers and the head entry), {@link FrameAssembler} (the beats
 * before the R-CRC), {@link HeadAdvance} (the head's next state), {@link RcrcStage} (R-CRC,
 * fast path), {@link ControlFrameMerge}, {@link FcsStage} (FCS or bypass, {@code m}).
 */
public final class SueFramer extends Component {
    /** Config word address of MIN_FRAME. */
    public static final int MIN_FRAME = 0x0210;
    /** Config word address of FCS_BY_SUE. */
    public static final int FCS_BY_SUE = 0x0211;
    /** Bits of the RH {@code move} field (byte 4 bits 3:2, below the plane field). */
    public static final int RH_MOVE_BITS = 2;
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
    /**
     * A multi-port endpoint's plane ({@code moves}): {@code move_epoch} (in, 2 bits), the plane's move
     * count (sue-rtl/DESIGN-PORTS.md, "Failover"), written into the RH {@code move} field (byte 4
     * bits 3:2) of each frame whose header is built from then on; else null and the field is 0.
     */
    public final Bits moveEpoch;
    /**
     * With {@code moves}: {@code frame_route} (out, beside {@link #m}'s beats, constant through a
     * frame): the port the frame's connection asks for ({@link FramePort}; control frames: none);
     * else null.
     */
    public final FramePort frameRoute;
    /** With {@code moves}: {@code port_live} (in, a bit per port): a frame's route names a live port only. */
    public final Bits portLive;
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
        /** A multi-port plane's frame: its connection's route (null with one port). */
        final ConnRoute route;
        private final int prefixBytes;
        private final int lanes;
        private final int trailBits;

        Entry(int prefixBytes, int lanes, int trailBits, boolean routed) {
            this.prefixBytes = prefixBytes;
            this.lanes = lanes;
            this.trailBits = trailBits;
            route = routed ? new ConnRoute() : null;
            prefix = bits(8 * prefixBytes);
            nIn = uint(13);
            nOut = uint(13);
            lastKeep = bits(lanes);
            trail = uint(trailBits);
        }

        @Override
        public Entry copyType() {
            return new Entry(prefixBytes, lanes, trailBits, route != null);
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
        this(dataWidth, encap, vlan, numXpus, controlFrames, plane, 1);
    }

    /**
     * As above, in an endpoint of {@code ports} ports: with more than one, a {@link #moveEpoch} input
     * fills the RH {@code move} field, and each frame's connection route its {@code conn_move} field
     * and {@link #frameRoute}.
     */
    public SueFramer(int dataWidth, Encapsulation encap, boolean vlan, int numXpus, boolean controlFrames, int plane,
            int ports) {
        param("dataWidth", dataWidth);
        boolean moves = ports > 1;
        if (moves) {
            param("ports", ports);
        }
        require(ports == 1 || ports == 2 || ports == 4, "ports must be 1, 2 or 4, got " + ports);
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
        FrameGeometry g = new FrameGeometry(dataWidth, encap, vlan, moves);
        param("HDR_BYTES", g.hBytes);
        param("FAST_PATH", g.fastPath);

        hdrReq = slave(Flow.of(PduDesc::new));
        rh = slave(Flow.of(() -> new RhFields(moves)));
        data = slave(Stream.of(() -> new PacketBeat(dataWidth)));
        m = master(Stream.of(() -> new PacketBeat(dataWidth)));

        SueHeaderBuilder hb = instance(() -> new SueHeaderBuilder(encap, vlan, numXpus));
        hb.cfgValid.set(cfgValid);
        hb.cfgAddr.set(cfgAddr);
        hb.cfgData.set(cfgData);
        cfgReady.set(hb.cfgReady);
        FramerOwnConfig own = new FramerOwnConfig(cfgValid, cfgAddr, cfgData, g);

        FrameRequest req = new FrameRequest(hdrReq, hdrRoom, own.minBody, hb);
        FrameSideInfo side = new FrameSideInfo(req, rh, g);
        moveEpoch = moves ? in(bits(RH_MOVE_BITS)).named("move_epoch") : null;
        FreshEntry fresh = new FreshEntry(hb, side, own.ownXpuid, plane, moves ? moveEpoch : B(0, RH_MOVE_BITS), g);
        HeaderQueue hq = new HeaderQueue(fresh, req, side, g);
        FrameAssembler asm = new FrameAssembler(hq, data, g);
        new HeadAdvance(hq, asm, fresh, g);
        frames.set(Counter.saturating("frame_count", StatusWord.BITS, asm.asmFire.and(hq.isLast)));
        drops.set(Counter.saturating("drop_count", StatusWord.BITS, asm.dropDone));

        Stream<PacketBeat> framed = new RcrcStage(asm, hq.head, data, g).framed;
        Stream<PacketBeat> sue;
        Bool fromCtl = FALSE;
        if (controlFrames) {
            ctl = slave(Stream.of(() -> new PacketBeat(dataWidth))).named("ctl");
            ControlFrameMerge merge = instance("ctl_merge", () -> new ControlFrameMerge(dataWidth, moves));
            merge.frames.connectFrom(framed);
            merge.ctl.connectFrom(ctl);
            sue = merge.m;
            if (moves) {
                fromCtl = merge.fromCtl;
            }
        } else {
            ctl = null;
            sue = framed;
        }
        new FcsStage(sue, own.fcsBySue, m, dataWidth);
        if (moves) {
            frameRoute = out(new FramePort(ports)).named("frame_route");
            portLive = in(bits(ports)).named("port_live");
            new FrameRoutes(asm, hq.head, framed, sue, fromCtl, m, own.fcsBySue, portLive, frameRoute);
        } else {
            frameRoute = null;
            portLive = null;
        }
        data.assertProtocol("data", false);
        List<Bits> beyond = new ArrayList<>();
        for (int i = g.n - 1; i >= 0; i--) {
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
}
