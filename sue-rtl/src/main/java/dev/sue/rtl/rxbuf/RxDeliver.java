// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.rx.RxPduBeat;
import dev.sue.rtl.xpu.XpuRxBus;
import java.util.ArrayList;
import java.util.List;

/**
 * SUE receive delivery: RX buffer, op unpacker and the XPU RX interface (spec §3.2.1, Table 2,
 * credit-FIFO option). Takes the PDU stream of {@code RxFrameParser} (cut-through, verdict on
 * the last beat), stores PDUs, walks their ops with the command-type table and delivers the ops
 * to the XPU in arrival order per VC, within the credits the XPU returns. The normative
 * description (signal table, rules, timing) is {@code sue-rtl/DESIGN-RX.md}, section
 * "RX buffer, unpacker and XPU RX interface".
 *
 * <pre>
 * in --&gt; writer (speculative, per-VC ring) --&gt; RAM (2 banks: even/odd words)
 *  | \--&gt; op map (lane lookups) --&gt; op-map RAM       | port H (pair)+M | port D (pair)
 *  |        | store: descriptor (walker busy)    | port V (word)  v                v
 *  |        v                                    v
 *  +--&gt; [reg] walker (1 op/cycle) --&gt; per-VC queues --&gt; header stage --&gt; data reads --&gt; rx_*
 *        ^-- descriptor FIFO
 * </pre>
 *
 * <h2>Parts</h2>
 * This class joins the ports, the command table and the per-VC queues; each stage is a class of
 * its own: {@link RxBuffer} (the two RAM banks and their geometry), {@link RxRing} (the
 * speculative ring writer: keep or roll back, {@code fits}), {@link RxOpMap} (per 2-byte lane
 * of a beat, the length and table entry of an op starting there, stored beside the beat and
 * read by both walks), {@link RxOpValidator}
 * (the walker over the op map, one cycle behind the input, and the descriptor FIFO),
 * {@link RxVcQueue} (per-VC queues of validated PDUs, a verdict into an empty one taken at once),
 * {@link RxOpDeliverer} (header walk on
 * port H, credits, data beats on port D, round robin over VCs) and {@link RxXpuOutput} (the
 * registered rx_* outputs).
 *
 * <h2>Parameters</h2>
 * <ul>
 * <li>{@code dataWidth} N: 256, 512 or 1024 (B = N/8 bytes per beat and per RAM word).
 * <li>{@code vcs}: 1..4 VCs; each VC owns a static partition (ring) of
 *     {@code bufBytes / vcs} bytes, so a VC whose XPU queue is full never takes space from
 *     another. A PDU on VC {@code >= vcs} is dropped (cnt_bad_vc).
 * <li>{@code bufBytes}: buffer size; {@code bufBytes / (vcs * B)} words per VC must be a power
 *     of two holding at least one 4096-byte PDU.
 * </ul>
 *
 * <h2>Ports</h2>
 * <ul>
 * <li>{@code in} (slave, {@link RxPduBeat}): {@code in_ready} is always 1 (line rate).
 * <li>{@code accept} (in): from receive reliability, read on the last beat (PSN expected, PDU
 *     carries ops). {@code fits} (out): on the last beat, the whole PDU is in the buffer
 *     (combinational from the beat and the buffer state, never from {@code accept}). The PDU
 *     is kept iff {@code commit && accept && fits}; otherwise every word it wrote is rolled back.
 * <li>XPU RX ({@link XpuRxBus} {@code rx}): {@code rx_valid[1:0]}, {@code rx_cycle[3:0]},
 *     {@code rx_vc[1:0]}, {@code rx_xpuid[9:0]}, {@code rx_control[143:0]},
 *     {@code rx_data[N-1:0]} (registered outputs), {@code rx_credit[5:0]} (in),
 *     {@code rx_reset_in} (in), {@code rx_reset_out}.
 * <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready}: command table
 *     ({@link RxCommandTable}); {@code cfg_ready} is 0 for 256 cycles after reset (the table's
 *     lane copies are cleared), then 1.
 * <li>Counters (32-bit, saturating): {@code cnt_stored, cnt_nobuf, cnt_rollback, cnt_bad_vc,
 *     cnt_bad_op, cnt_pdus, cnt_ops, cnt_cfg_reject}.
 * </ul>
 *
 * <h2>Why this structure</h2>
 * A PDU must be delivered atomically (a malformed op anywhere drops all of it), so its ops are
 * checked before the first is delivered. Checking a whole beat at once would need up to B/2
 * chained table lookups per cycle (2-byte ops); instead a walker checks one op per cycle, and
 * does it while the PDU streams in, one cycle behind (op headers from the registered input
 * beat, older ones from port V), so a PDU whose walk is done by its last beat is validated in
 * the next cycle; a PDU of many tiny ops is finished from the RAM and later PDUs wait in the
 * descriptor queue. The deliverer walks the ops again (nothing is kept per op, so state scales
 * with the buffer only); its header port H reads the next op's header while port D streams the
 * current op's beats, and the per-VC queues ({@link RxVcQueue}) offer a verdict the cycle
 * after it is pushed; an idle header stage keeps reading the first header of the PDU being
 * written, so that read is done when the verdict reaches the queue. Words are read in pairs (even/odd banks) so any op's control bytes and
 * any B data bytes at any 2-byte offset come from one read.
 *
 * <h2>Timing</h2>
 * Ingress one beat per cycle, never stalled. Latency: the last beat of a PDU whose walk ends
 * with it (always a single-op PDU) in at cycle t, first rx beat at t + {@link #LATENCY} = 3 on an
 * idle VC, command or data op (t write, the PDU's first header already read by the parked
 * header stage; t+1 verdict straight into the empty VC queue's head register; t+2 decode into
 * the output register; the validator works one cycle behind the input, see
 * {@link RxWrittenBeat}). XPU side: one op per cycle, data beats back to back across ops (1
 * beat/cycle). A PDU validated after its last beat (more ops than cycles) starts 2 cycles after
 * its verdict (3 when its VC's queue was not empty). Details and measured figures: DESIGN-RX.md.
 */
public final class RxDeliver extends Component {
    /** Last PDU beat in at cycle t (committed, walk complete) -> first rx_* beat of its first op at t + LATENCY. */
    public static final int LATENCY = 3;
    /** Counter names, port order ({@code cnt_<name>}). */
    public static final List<String> COUNTERS = List.of("stored", "nobuf", "rollback", "bad_vc", "bad_op", "pdus",
            "ops", "cfg_reject");

    public final Stream<RxPduBeat> in;
    public final Bool accept = in(bool());
    public final Bool fits = out(bool());

    /** The XPU RX interface ({@code rx_*}, spec Table 2). */
    public final XpuRxBus rx;

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());

    public final UInt cntStored = out(uint(32));
    public final UInt cntNobuf = out(uint(32));
    public final UInt cntRollback = out(uint(32));
    public final UInt cntBadVc = out(uint(32));
    public final UInt cntBadOp = out(uint(32));
    public final UInt cntPdus = out(uint(32));
    public final UInt cntOps = out(uint(32));
    public final UInt cntCfgReject = out(uint(32));

    public RxDeliver(int dataWidth, int vcs, int bufBytes) {
        param("dataWidth", dataWidth);
        param("vcs", vcs);
        param("bufBytes", bufBytes);
        require(dataWidth == 256 || dataWidth == 512 || dataWidth == 1024,
                "dataWidth must be 256, 512 or 1024, got " + dataWidth);
        require(vcs >= 1 && vcs <= 4, "vcs must be 1..4, got " + vcs);
        final int nb = dataWidth / 8;
        long wordsPerVc = vcs >= 1 && vcs <= 4 ? (long) bufBytes / ((long) vcs * nb) : 0;
        require(bufBytes > 0 && wordsPerVc * vcs * nb == bufBytes && isPowerOfTwo((int) Math.max(1, wordsPerVc))
                        && wordsPerVc * nb >= 4096 && bufBytes <= (1 << 22),
                "bufBytes must be vcs * B * 2^k with at least 4096 bytes per VC and at most 4 MiB (B = "
                        + nb + " bytes per word, vcs = " + vcs + "), got " + bufBytes);
        in = slave(Stream.of(() -> new RxPduBeat(dataWidth)));
        rx = master(new XpuRxBus(dataWidth).named("rx"));
        latency(LATENCY);

        RxCommandTable table = instance("command_table", () -> new RxCommandTable(nb / 2));
        table.cfgValid.set(cfgValid);
        table.cfgAddr.set(cfgAddr);
        table.cfgData.set(cfgData);
        cfgReady.set(table.cfgReady);

        RxBuffer buf = new RxBuffer(dataWidth, vcs, wordsPerVc);
        RxRing ring = new RxRing(buf, in, accept);
        fits.set(ring.beatOk);
        Bits opMap = RxOpMap.of(in.payload.data, table, ring.nEff).named("in_op_map");
        buf.opMap.write(buf.mapAddr(ring.vIn, ring.widx), opMap, ring.wen);
        RxOpValidator validator = new RxOpValidator(buf, new RxWrittenBeat(ring, in.valid, opMap));
        List<RxVcQueue> ready = new ArrayList<>();
        List<UInt> directOk = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            RxVcQueue q = instance("ready_q_" + v, () -> new RxVcQueue(buf.wb, buf.w));
            q.d.valid.set(validator.pushNow.and(validator.verdictNow.vc.eq(v)));
            assignLeaves(q.d.payload, validator.verdictNow);
            q.s.valid.set(validator.push.and(validator.verdict.vc.eq(v)));
            assignLeaves(q.s.payload, validator.verdict);
            directOk.add(q.directOk.asUInt());
            ready.add(q);
        }
        validator.directOk.set(RxBuffer.sel(directOk, validator.verdictNow.vc).bit(0));
        RxOpDeliverer deliverer = new RxOpDeliverer(buf, ring, ready, rx.credit, rx.resetIn, dataWidth);
        rx.valid.set(deliverer.output.valid);
        rx.cycle.set(deliverer.output.cycle);
        rx.vc.set(deliverer.output.vc);
        rx.xpuid.set(deliverer.output.xpuid);
        rx.control.set(deliverer.output.control);
        rx.data.set(deliverer.output.data);
        rx.resetOut.set(deliverer.rxResetOut);

        cntStored.set(Counter.saturating("cnt_stored_q", StatusWord.BITS, ring.store));
        cntNobuf.set(Counter.saturating("cnt_nobuf_q", StatusWord.BITS, ring.kept.and(ring.vcOk).andNot(ring.beatOk)));
        cntRollback.set(Counter.saturating("cnt_rollback_q", StatusWord.BITS,
                ring.lastIn.andNot(in.payload.commit.and(accept))));
        cntBadVc.set(Counter.saturating("cnt_bad_vc_q", StatusWord.BITS, ring.kept.andNot(ring.vcOk)));
        cntBadOp.set(Counter.saturating("cnt_bad_op_q", StatusWord.BITS, validator.badJudged));
        cntPdus.set(Counter.saturating("cnt_pdus_q", StatusWord.BITS, deliverer.pduDone));
        cntOps.set(Counter.saturating("cnt_ops_q", StatusWord.BITS, deliverer.go));
        cntCfgReject.set(Counter.saturating("cnt_cfg_reject_q", StatusWord.BITS, table.cfgReject));
    }

    /** Emitted as {@code sue_rx_deliver}. */
    @Override
    public String moduleBaseName() {
        return "sue_rx_deliver";
    }

    /** The counters in status-space order, named as in {@link #COUNTERS}. */
    public List<StatusWord> statusWords() {
        UInt[] ports = {cntStored, cntNobuf, cntRollback, cntBadVc, cntBadOp, cntPdus, cntOps, cntCfgReject};
        List<StatusWord> out = new ArrayList<>();
        for (int i = 0; i < ports.length; i++) {
            out.add(new StatusWord(COUNTERS.get(i), ports[i]));
        }
        return out;
    }
}
