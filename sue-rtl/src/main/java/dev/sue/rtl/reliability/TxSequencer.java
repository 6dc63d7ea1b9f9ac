// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.rtl.pdu.AckReq;
import dev.sue.rtl.pdu.PduDesc;
import dev.sue.rtl.pdu.RhDesc;

/**
 * Transmit sequencer: gives every PDU its packet sequence number and the ACK information it
 * carries, turning the queue manager's {@link PduDesc} stream into the framer's {@link RhDesc}
 * stream (ARCHITECTURE.md §5: a PDU with ops consumes one PSN per destination; a PDU of length 0,
 * pure ACK/NACK, consumes none).
 *
 * <h2>Parameters</h2>
 * {@code numXpus} (1..1024): destinations (table entries 0..numXpus-1).
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code s} (slave {@code Stream<PduDesc>}): descriptors in PDU order.</li>
 *   <li>{@code m} (master {@code Stream<RhDesc>}): the same descriptors with {@code psn},
 *       {@code op}, {@code rpsn}. Combinational from {@code s} ({@code m_valid = s_valid},
 *       {@code s_ready = m_ready}): latency 0. {@code psn} is the destination's next PSN; it is
 *       incremented (mod 2^16) when a PDU with {@code length != 0} transfers. A length-0 PDU
 *       carries the next PSN unchanged and does not consume it. {@code op}/{@code rpsn} are the
 *       destination's pending ACK information (then cleared) or {@code op = 2, rpsn = 0}.
 *       Destinations {@code >= numXpus} read PSN 0 / no ACK info and change nothing (the framer
 *       drops those PDUs).</li>
 *   <li>{@code ack_req} (slave {@code Flow<AckReq>}): ACK information towards a destination;
 *       a later request overwrites an unsent earlier one. A request in the same cycle as a PDU
 *       to the same destination stays pending for the next PDU (the PDU carries what was pending
 *       before). Requests for destinations {@code >= numXpus} are ignored.</li>
 *   <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready}: the TX configuration bus
 *       (word addresses, see DESIGN-TX.md). This block owns {@code NEXT_PSN[d]} at
 *       {@code 0x4000 | d<<4 | 3} ({@code cfg_data[15:0]}, reset 0). A write is accepted when
 *       {@code cfg_valid && cfg_ready}; the PSN table has one write port shared with the PDUs, so
 *       an accepted NEXT_PSN write waits in a one-entry buffer (visible to PDUs at once) until
 *       the first cycle without a PDU transfer (or a PDU to the same destination takes it over),
 *       and {@code cfg_ready} is low while it waits. Write NEXT_PSN[d] only while no PDU to d is
 *       in flight (connection setup).</li>
 * </ul>
 *
 * <h2>Storage</h2>
 * PSN table: {@code numXpus x 16} RAM with asynchronous read (LUT RAM) plus one "written" flip-flop
 * per destination (the RAM has no reset; an unwritten entry reads 0). ACK table:
 * {@code numXpus x 17} asynchronous-read RAM written only by {@code ack_req}, plus one pending
 * flip-flop per destination (set by a request, cleared by the PDU that carries it; set wins).
 *
 * <h2>Where retransmission plugs in</h2>
 * PSN assignment is the one place marked "PSN ASSIGNMENT" below: {@code psn_now} (table read,
 * bypassed by a waiting config write) and the table write {@code psn_now + 1}. The replay logic
 * will add a descriptor flag for retransmitted PDUs that carry their original PSN: for those,
 * {@code m.psn} takes the descriptor's PSN and the table write is suppressed; the oldest
 * unacknowledged PSN table it needs for its window lives beside this one, indexed the same way.
 */
public final class TxSequencer extends Component {
    /** Field of {@code NEXT_PSN[d]} in the per-destination config window {@code 0x4000 | d<<4 | f}. */
    public static final int T_NEXT_PSN = 0x3;

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());

    public final Stream<PduDesc> s;
    public final Flow<AckReq> ackReq;
    public final Stream<RhDesc> m;

    public TxSequencer(int numXpus) {
        param("numXpus", numXpus);
        require(numXpus >= 1 && numXpus <= 1024, "numXpus must be 1..1024, got " + numXpus);
        s = slave(Stream.of(PduDesc::new));
        ackReq = slave(Flow.of(AckReq::new));
        m = master(Stream.of(RhDesc::new));

        int depth = Math.max(2, numXpus);
        int aw = log2Up(depth);
        Mem<Bits> psnMem = Mem.of(depth, 16).named("psn_mem");
        Mem<Bits> ackMem = Mem.of(depth, 17).named("ack_mem");
        Bits psnWritten = reg("psn_written", bits(depth)).init(0);
        Bits ackPending = reg("ack_pending", bits(depth)).init(0);

        // ---- config: NEXT_PSN writes wait in a one-entry buffer for the table's write port
        Bool pend = reg("cfg_pend", bool()).init(false);
        UInt pendIdx = reg("cfg_pend_idx", uint(aw));
        UInt pendVal = reg("cfg_pend_val", uint(16));
        cfgReady.set(pend.not());
        UInt cfgDest = cfgAddr.slice(13, 4).named("cfg_dest");
        Bool cfgHit = cfgValid.and(pend.not()).and(cfgAddr.slice(15, 14).eq(1)).and(cfgAddr.slice(3, 0).eq(T_NEXT_PSN))
                .and(inRange(cfgDest, numXpus));

        // ---- descriptor path (combinational)
        PduDesc d = s.payload;
        UInt idx = d.dest.resize(aw).named("pdu_idx");
        Bool pduOk = inRange(d.dest, numXpus);
        Bool fire = s.fire().and(pduOk).named("pdu_fire");
        Bool hasOps = d.length.ne(0);
        // PSN ASSIGNMENT: next PSN of the destination (a waiting config write first)
        UInt psnRam = mux(psnWritten.bit(idx), psnMem.readAsync(idx).asUInt(), U(0, 16));
        Bool pendSame = pend.and(pendIdx.eq(idx)).named("pend_same");
        // (a config write to a destination with a waiting descriptor is not allowed: see above)
        UInt psnNow = mux(pduOk, mux(pendSame, pendVal, psnRam), U(0, 16)).named("psn_now");
        Bool consume = fire.and(hasOps).named("psn_consume");

        Bits ackWord = ackMem.readAsync(idx);
        Bool ackHas = ackPending.bit(idx).and(pduOk).named("ack_has");

        // The stream rules want m's payload stable while stalled, but the tables may change under a
        // waiting descriptor (an ack_req): the payload presented in the first stalled cycle is held.
        Bool stalledQ = reg("m_stalled_q", bool()).init(false);
        stalledQ.set(m.isStall());
        RhDesc live = wire("live", new RhDesc());
        live.dest.set(d.dest);
        live.vc.set(d.vc);
        live.length.set(d.length);
        live.psn.set(psnNow);
        live.op.set(mux(ackHas, ackWord.slice(16, 16).asUInt().resize(2), U(RhDesc.OP_NONE, 2)));
        live.rpsn.set(mux(ackHas, ackWord.slice(15, 0).asUInt(), U(0, 16)));
        RhDesc held = reg("held", new RhDesc());
        m.valid.set(s.valid);
        s.ready.set(m.ready);
        RhDesc o = m.payload;
        assignLeaves(o, live);
        when(stalledQ, () -> assignLeaves(o, held));
        assignLeaves(held, o);
        // an ack_req for the waiting descriptor's destination that arrived while it waited stays
        // pending (the descriptor carries what was pending when it was first presented)
        Bool ackOk = ackReq.valid.and(inRange(ackReq.payload.dest, numXpus)).named("ack_req_ok");
        UInt ackIdx = ackReq.payload.dest.resize(aw);
        Bool ackNewQ = reg("ack_new_q", bool()).init(false);
        Bool ackNewNow = ackNewQ.and(stalledQ).or(ackOk.and(ackIdx.eq(idx))).named("ack_new_now");
        ackNewQ.set(m.isStall().and(ackNewNow));
        Bool clearAck = fire.andNot(stalledQ.and(ackNewQ)).named("clear_ack");

        // ---- the PSN table's single write port: a consuming PDU first, else the waiting config write
        UInt wIdx = mux(consume, idx, pendIdx).named("psn_w_idx");
        UInt wVal = mux(consume, o.psn.add(1), pendVal).named("psn_w_val");
        Bool wEn = consume.or(pend).named("psn_w_en");
        psnMem.write(wIdx, wVal.asBits(), wEn);
        Bits wMask = B(1, depth).shl(wIdx);
        when(wEn, () -> psnWritten.set(psnWritten.or(wMask)));
        // a PDU that took the waiting value over (same destination) or a free port retires the write
        when(pend.and(consume.not().or(pendSame)), () -> pend.set(false));
        when(cfgHit, () -> {
            pend.set(true);
            pendIdx.set(cfgDest.resize(aw));
            pendVal.set(cfgData.slice(15, 0).asUInt());
        });

        // ---- ACK information
        ackMem.write(ackIdx, cat(ackReq.payload.op, ackReq.payload.rpsn), ackOk);
        Bits setMask = mux(ackOk, B(1, depth).shl(ackIdx), B(0, depth));
        Bits clearMask = mux(clearAck, B(1, depth).shl(idx), B(0, depth));
        ackPending.set(ackPending.and(clearMask.not()).or(setMask));
        latency(0);
    }

    private static Bool inRange(UInt dest, int numXpus) {
        return numXpus >= 1024 ? TRUE : dest.lt(numXpus);
    }
}
