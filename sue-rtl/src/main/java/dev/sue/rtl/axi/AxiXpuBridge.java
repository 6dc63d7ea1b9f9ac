// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.regif.Axi4;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.rtl.config.CfgBus;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.xpu.XpuRxBus;
import dev.sue.rtl.xpu.XpuTxBus;
import java.util.List;

/**
 * The AXI4 XPU interface of spec 3.2.2 as a bridge onto SUE's FIFO XPU interface: an AXI4 slave
 * {@code s_axi} (the local SoC's requests) and an AXI4 master {@code m_axi} (requests from far
 * XPUs into the local SoC) on one side, the XPU side of {@code tx_*} and {@code rx_*} on the
 * other, so every SUE block, the wire format and the reliability are those of the FIFO interface.
 * Design, signal table, credit loops and error behaviour: sue-rtl/DESIGN-AXI.md.
 *
 * <pre>
 * s_axi AW --&gt; aw buffer --+
 * s_axi W  --&gt; WriteBursts -+-&gt; WritePacker --+                      +-&gt; VC 0 --&gt; MasterRequests --&gt; m_axi AW, W, AR
 * s_axi AR --&gt; ar buffer ----&gt; ReadPacker ---+-&gt; OpSender --&gt; tx_*   |          (origin queues)
 *              MasterResponses (B op, R op) --+           rx_* --&gt; OpReceiver
 * s_axi B, R &lt;-- SlaveResponses (+ local errors) &lt;-------------------+-- VC 1     m_axi B, R --&gt; MasterResponses
 * </pre>
 *
 * <h2>Parameters</h2>
 * <ul>
 * <li>{@code dataWidth}: 256, 512 or 1024, the AXI data bus and SUE's (one AXI beat is one SUE
 *     data beat); a burst carries at most 256 bytes of bus beats, {@link AxiOps#maxBeats}.
 * <li>{@code addrBits} 12..64, {@code idBits} 1..16: the slave's address and ID widths (the
 *     master's address is as wide; its ID is 1 bit, always 0).
 * <li>{@code destLsb}, {@code destBits}: the destination XPU's address bits after reset
 *     ({@link DestinationMap}; the configuration register {@code AXI_DEST_MAP} changes them).
 * <li>{@code cmdCredits}, {@code dataCredits}: SUE's initial TX credits per VC.
 * </ul>
 */
public final class AxiXpuBridge extends Component {
    /** The local SoC's requests (SUE is the slave): ports {@code s_axi_*}. */
    public final Axi4 sAxi;
    /** Requests from far XPUs into the local SoC (SUE is the master): ports {@code m_axi_*}. */
    public final Axi4 mAxi;
    /** SUE's TX interface, driven by the bridge as the XPU: ports {@code tx_*}. */
    public final XpuTxBus tx;
    /** SUE's RX interface, taken by the bridge as the XPU: ports {@code rx_*}. */
    public final XpuRxBus rx;
    /**
     * Configuration writes (ports {@code cfg_*}; {@code cfg_ready} is 1): the bridge takes
     * {@link #ADDR_DEST_MAP} and ignores every other address.
     */
    public final CfgBus cfg = slave(new CfgBus()).named("cfg");

    /** Configuration word address of {@code AXI_DEST_MAP} (ConfigRegisters#axiDestMap). */
    public static final int ADDR_DEST_MAP = 0x0240;

    /** 32-bit saturating counters (DESIGN-AXI.md "Error behaviour"). */
    public final UInt cntWrites = out(uint(32));
    public final UInt cntReads = out(uint(32));
    public final UInt cntB = out(uint(32));
    public final UInt cntR = out(uint(32));
    public final UInt cntUnmapped = out(uint(32));
    public final UInt cntTooLong = out(uint(32));
    public final UInt cntBadBurst = out(uint(32));
    public final UInt cntWStall = out(uint(32));
    public final UInt cntBadOp = out(uint(32));
    public final UInt cntOverlong = out(uint(32));

    /**
     * The counters as status words of the endpoint's register map ({@code axi.writes}, ...), in
     * the order of the table in DESIGN-AXI.md.
     */
    public List<StatusWord> statusWords() {
        return List.of(new StatusWord("axi.writes", cntWrites), new StatusWord("axi.reads", cntReads),
                new StatusWord("axi.b", cntB), new StatusWord("axi.r", cntR),
                new StatusWord("axi.unmapped", cntUnmapped), new StatusWord("axi.too_long", cntTooLong),
                new StatusWord("axi.bad_burst", cntBadBurst), new StatusWord("axi.w_stall", cntWStall),
                new StatusWord("axi.bad_op", cntBadOp), new StatusWord("axi.overlong", cntOverlong));
    }

    /** Buffer depths: AW, AR, W bursts, local errors and the origin queues; the data buffers are per beat. */
    static final int ADDR_DEPTH = 4;
    static final int ORIGIN_DEPTH = 16;
    static final int RX_HEADS = 8;

    public AxiXpuBridge(int dataWidth, int addrBits, int idBits, int xpus, int destLsb, int destBits,
            int cmdCredits, int dataCredits) {
        param("dataWidth", dataWidth);
        param("addrBits", addrBits);
        param("idBits", idBits);
        param("xpus", xpus);
        param("destLsb", destLsb);
        param("destBits", destBits);
        param("cmdCredits", cmdCredits);
        param("dataCredits", dataCredits);
        require(dataWidth == 256 || dataWidth == 512 || dataWidth == 1024,
                "dataWidth must be 256, 512 or 1024, got " + dataWidth);
        require(idBits >= 1 && idBits <= 16, "idBits must be 1..16 (two control bytes), got " + idBits);
        require(cmdCredits >= 1 && dataCredits >= AxiOps.maxBeats(dataWidth),
                "the initial credits must cover the largest op: cmdCredits >= 1, dataCredits >= "
                        + AxiOps.maxBeats(dataWidth) + ", got " + cmdCredits + ", " + dataCredits);
        sAxi = slave(new Axi4(addrBits, dataWidth, idBits).named("s_axi"));
        mAxi = master(new Axi4(addrBits, dataWidth, 1).named("m_axi"));
        tx = master(new XpuTxBus(dataWidth).named("tx"));
        rx = slave(new XpuRxBus(dataWidth).named("rx"));
        DestinationMap map = new DestinationMap(cfg, addrBits, destLsb, destBits, xpus);
        int maxBeats = AxiOps.maxBeats(dataWidth);
        int beatBits = bitsFor(maxBeats - 1);
        int beatDepth = 2 * maxBeats;

        // ---- slave requests ----------------------------------------------------------------------------
        Stream<Routed> aw = map.route(addressChannel("aw", sAxi, true)).queue(ADDR_DEPTH);
        Stream<Routed> ar = map.route(addressChannel("ar", sAxi, false)).queue(ADDR_DEPTH);
        WriteBursts w = new WriteBursts(sAxi, aw.valid, maxBeats, beatBits, beatDepth, ADDR_DEPTH);
        StreamFifo<LocalError> bErrors = errorQueue("b_errors", idBits);
        StreamFifo<LocalError> rErrors = errorQueue("r_errors", idBits);
        WritePacker writes = new WritePacker(aw, w, bErrors.s, map, dataWidth, maxBeats, beatBits);
        ReadPacker reads = new ReadPacker(ar, rErrors.s, map, dataWidth, maxBeats, beatBits);

        // ---- master side ---------------------------------------------------------------------------------
        OpReceiver received = new OpReceiver(rx, RX_HEADS, beatDepth);
        StreamFifo<Origin> wOrigins = instance("write_origins",
                () -> new StreamFifo<>(Origin::new, ORIGIN_DEPTH, FifoStorage.forDepth(ORIGIN_DEPTH), ORIGIN_DEPTH));
        StreamFifo<Origin> rOrigins = instance("read_origins",
                () -> new StreamFifo<>(Origin::new, ORIGIN_DEPTH, FifoStorage.forDepth(ORIGIN_DEPTH), ORIGIN_DEPTH));
        MasterRequests requests = new MasterRequests(mAxi, received.heads.get(AxiOps.REQUEST_VC),
                received.data.get(AxiOps.REQUEST_VC), wOrigins.s, rOrigins.s, beatBits);
        MasterResponses answers = new MasterResponses(mAxi, wOrigins.m, rOrigins.m, maxBeats, beatBits, beatDepth);
        SlaveResponses responses = new SlaveResponses(sAxi, received.heads.get(AxiOps.RESPONSE_VC),
                received.data.get(AxiOps.RESPONSE_VC), bErrors.m, rErrors.m, beatBits);

        // ---- one op at a time onto tx_*: responses and requests in turn -------------------------------
        // The requests' address checks and the sender's choice would make one long path: a register
        // between them (full rate, so a write's beats stay back to back; ready registered too).
        new OpSender(tx, List.of(answers.bOps, answers.rOps, writes.ops.fullPipe(), reads.ops.fullPipe()),
                new int[] {AxiOps.RESPONSE_VC, AxiOps.RESPONSE_VC, AxiOps.REQUEST_VC, AxiOps.REQUEST_VC},
                cmdCredits, dataCredits);

        cntWrites.set(writes.cntWrites);
        cntReads.set(reads.cntReads);
        cntB.set(responses.cntB);
        cntR.set(responses.cntR);
        cntUnmapped.set(countEvents("unmapped", writes.unmappedEvent, reads.unmappedEvent));
        cntTooLong.set(countEvents("too_long", writes.tooLongEvent, reads.tooLongEvent));
        cntBadBurst.set(writes.cntBadBurst);
        cntWStall.set(w.cntStall);
        cntBadOp.set(countEvents("bad_op", requests.badOpEvent, responses.badOpEvent, received.badVcEvent));
        cntOverlong.set(answers.cntOverlong);
    }

    /** An AW or AR channel of {@code axi} as a stream of {@link AxAddr}. */
    private static Stream<AxAddr> addressChannel(String name, Axi4 axi, boolean write) {
        Stream<AxAddr> s = wire(Stream.of(() -> new AxAddr(axi.idBits(), axi.addrBits()))).named(name + "_in");
        AxAddr a = s.payload;
        s.valid.set(write ? axi.awvalid : axi.arvalid);
        (write ? axi.awready : axi.arready).set(s.ready);
        a.id.set(write ? axi.awid : axi.arid);
        a.addr.set(write ? axi.awaddr : axi.araddr);
        a.len.set(write ? axi.awlen : axi.arlen);
        a.size.set(write ? axi.awsize : axi.arsize);
        a.burst.set(write ? axi.awburst : axi.arburst);
        a.lock.set(write ? axi.awlock : axi.arlock);
        a.cache.set(write ? axi.awcache : axi.arcache);
        a.prot.set(write ? axi.awprot : axi.arprot);
        a.qos.set(write ? axi.awqos : axi.arqos);
        a.region.set(write ? axi.awregion : axi.arregion);
        return s;
    }

    private static StreamFifo<LocalError> errorQueue(String name, int idBits) {
        return instance(name, () -> new StreamFifo<>(() -> new LocalError(idBits), 2, FifoStorage.REGISTERS, 2));
    }

    /**
     * One 32-bit saturating counter of events that may coincide (each at most once per cycle):
     * exact up to saturation, unlike a sum of saturated counters. The events are registered first
     * (a cycle late), so their logic does not sit in front of the adder.
     */
    private static UInt countEvents(String name, Bool... events) {
        int w = bitsFor(events.length);
        UInt amount = U(0, w);
        for (int i = 0; i < events.length; i++) {
            Bool event = regNext(events[i]).named(name + "_event_" + i);
            amount = amount.add(mux(event, U(1, w), U(0, w))).resize(w);
        }
        UInt n = amount.named(name + "_events");
        return Counter.add(name, StatusWord.BITS, n.ne(0), n, Counter.Overflow.SATURATE);
    }
}
