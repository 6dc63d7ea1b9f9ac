// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import java.util.ArrayList;
import java.util.List;

/**
 * Appends a CRC to every packet of a stream: the output packet is the input packet followed by
 * the CRC of the bytes from a fixed byte {@code offset} to the end, as {@link CrcSpec#appendBytes}
 * (least significant byte first for CRC-32, like an Ethernet FCS). With {@code offset} 0 it is
 * an FCS appender; with the length of a fixed-size header it protects only what follows the
 * header (the SUE R-CRC).
 *
 * <h2>Parameters</h2>
 * <ul>
 *   <li>{@code spec}: the CRC; its width must be a whole number of bytes ({@code cb = width/8}
 *       appended bytes).</li>
 *   <li>{@code dataWidth}: bus width in bits, a multiple of 8 with at least {@code cb} byte lanes
 *       ({@code N = dataWidth/8 >= cb}) and at most 2048, so the appended bytes spill into at
 *       most one extra beat.</li>
 *   <li>{@code offset}: 0..65535, the first byte covered by the CRC. Every packet must have at
 *       least {@code offset + 1} bytes (an SVA assertion checks it); the bytes before it pass
 *       unchanged but are not covered.</li>
 *   <li>{@code fallThrough}: true lets a beat that is not a packet's last pass combinationally
 *       from {@code s} to {@code m} while the internal queue is empty (latency 0; {@code m_valid}
 *       and {@code m_data} then depend combinationally on {@code s}); false always goes through
 *       the queue's registers (latency 1, no combinational path from {@code s} to {@code m}).
 *       {@code s_ready} comes from registers in both cases.</li>
 *   <li>{@code fastPath}: true adds the inputs below, for one-beat packets whose CRC the user
 *       computes itself faster than the engine can (e.g. with a {@link CrcWindow}).</li>
 * </ul>
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code s} (slave {@link Stream} of {@link PacketBeat}): input packets; keep all ones
 *       but on the last beat, where it is contiguous from byte 0.</li>
 *   <li>{@code m} (master): the packets with the CRC appended. The last input beat carries the
 *       CRC bytes right after its valid bytes; when fewer than {@code cb} lanes are left, the
 *       rest go into one extra beat (lanes 0..), which then carries {@code last}. Lanes beyond
 *       {@code keep} are undefined.</li>
 *   <li>{@code enable} (in, level): 1 appends; 0 bypasses the block combinationally
 *       ({@code m = s}, {@code s_ready = m_ready}, nothing appended). Change it only while no
 *       packet is in flight (between packets, with the internal queue drained).</li>
 *   <li>{@code s_fast} (in, with {@code fastPath}, sideband of {@code s}): this beat is a whole
 *       packet ({@code last} must be set, asserted) whose CRC arrives on {@code fast_crc}; the
 *       engine does not see it.</li>
 *   <li>{@code fast_crc_valid}, {@code fast_crc_payload} (in, with {@code fastPath}, a
 *       {@link dev.sue.hdl.lib.stream.Flow}): the CRC values (after reflection and xorOut) of
 *       the fast packets, one per packet in packet order, from the cycle after the packet's
 *       transfer on ({@code fast_crc} in the same cycle as the beat also works). They wait in
 *       their own queue, so engine results and fast results never pass each other's packets.
 *       Ignored while {@code enable} is 0.</li>
 * </ul>
 *
 * <h2>Timing and throughput</h2>
 * A {@link CrcEngine} taps the input transfers; the beats wait in a FIFO of
 * {@link #queueDepth()} = engine latency + 4 entries in LUT RAM ({@link FifoStorage#LUT_RAM}: the
 * timing of registers, a fraction of the flip-flops for a wide beat) and only a packet's last beat waits for its
 * CRC. A beat that is not last leaves {@code fallThrough ? 0 : 1} cycles after it enters when the
 * queue is empty; a last beat leaves at the earliest {@code engineLatency} cycles after its
 * transfer (the CRC comes straight from the engine, a small CRC FIFO holds it when the output is
 * busy). With a backlog the output carries one beat in every cycle it is ready (the spill beats
 * stall the input instead): 100 % output throughput for back-to-back packets of any length.
 * A fast packet's beat leaves as soon as its CRC is there: with {@code fast_crc} one cycle after
 * the transfer, 1 cycle after it enters on an idle block (it never takes the fall-through path: it
 * is a last beat), the latency of the registered variant's non-last beats.
 */
public final class CrcAppender extends Component {
    /** Input packets. */
    public final Stream<PacketBeat> s;
    /** Output packets with the CRC appended. */
    public final Stream<PacketBeat> m;
    /** 1 appends, 0 bypasses (change only while idle). */
    public final Bool enable = in(bool());
    /** With {@code fastPath}: the beat on {@code s} is a one-beat packet whose CRC comes on {@code fastCrc}. */
    public final Bool sFast;
    /** With {@code fastPath}: the CRCs of the fast packets, in order (null otherwise). */
    public final Flow<Bits> fastCrc;

    private final int depth;
    private final int engineLatency;

    /** An appender without the fast path: every CRC comes from the internal engine. */
    public CrcAppender(CrcSpec spec, int dataWidth, int offset, boolean fallThrough) {
        this(spec, dataWidth, offset, fallThrough, false);
    }

    public CrcAppender(CrcSpec spec, int dataWidth, int offset, boolean fallThrough, boolean fastPath) {
        require(spec != null, "spec must be a CrcSpec, e.g. CrcSpec.CRC32");
        param("crc", spec.name());
        param("dataWidth", dataWidth);
        param("offset", offset);
        param("fallThrough", fallThrough);
        param("fastPath", fastPath);
        require(spec.width() % 8 == 0, "the CRC must be whole bytes to be appended; " + spec.name() + " is "
                + spec.width() + " bits");
        int cb = spec.width() / 8;
        require(dataWidth % 8 == 0 && dataWidth >= 8 * cb && dataWidth <= 2048,
                "dataWidth must be a multiple of 8 in " + 8 * cb + ".." + 2048 + " (at least the CRC's " + cb
                        + " bytes), got " + dataWidth);
        require(offset >= 0 && offset <= 65535, "offset must be 0..65535, got " + offset);
        final int n = dataWidth / 8;
        s = slave(Stream.of(() -> new PacketBeat(dataWidth)));
        m = master(Stream.of(() -> new PacketBeat(dataWidth)));
        sFast = fastPath ? in(bool()) : null;
        fastCrc = fastPath ? slave(Flow.of(() -> bits(spec.width()))) : null;
        Bool inFast = fastPath ? sFast : FALSE;
        if (fastPath) {
            assertThat(s.valid.and(sFast).andNot(s.payload.last).not(), "s_fast marks one-beat packets: last must be set");
        }

        // ---- CRC tap: beats wholly before the offset are not fed; the beat holding the offset has
        // its r0 leading bytes zeroed and the engine starts from the register that r0 zero bytes
        // advance to the real init value, so the zeros leave no trace.
        int b0 = offset / n;
        int r0 = offset % n;
        CrcSpec engineSpec = spec;
        if (r0 > 0) {
            long init = CrcMatrices.zeroBytesAdvance(spec, r0).inverse().apply(spec.init());
            engineSpec = new CrcSpec(spec.name() + "-skip" + r0, spec.width(), spec.polynomial(), spec.reflectIn(),
                    spec.reflectOut(), init, spec.xorOut());
        }
        CrcSpec es = engineSpec;
        CrcEngine engine = instance(() -> new CrcEngine(es, dataWidth, CrcEngine.Options.defaults()));
        engineLatency = engine.latencyCycles();
        depth = engineLatency + 4;
        param("queueDepth", depth);
        Bool inFire = s.fire().and(enable).named("in_fire");
        Bool tapValid;
        Bool firstRegionBeat;
        if (b0 == 0) {
            tapValid = inFire.andNot(inFast);
            Bool mid = reg("in_mid", bool()).init(false); // a packet's beat other than its first
            when(inFire, () -> mid.set(s.payload.last.not()));
            firstRegionBeat = mid.not();
        } else {
            // beat index within the packet, saturating at b0 + 1
            int cw = bitsFor(b0 + 1);
            UInt idx = reg("in_beat", uint(cw)).init(0);
            when(inFire, () -> {
                when(s.payload.last, () -> idx.set(0)).elseWhen(idx.ne(b0 + 1), () -> idx.set(idx.add(1)));
            });
            tapValid = inFire.and(idx.ge(b0)).andNot(inFast);
            firstRegionBeat = idx.eq(b0);
            assertThat(inFire.and(s.payload.last).and(idx.lt(b0)).not(),
                    "packet shorter than the CRC offset (" + offset + " bytes): no byte to cover");
        }
        Bits tapData = s.payload.data;
        if (r0 > 0) {
            List<Bits> lanes = new ArrayList<>();
            for (int i = n - 1; i >= 0; i--) {
                lanes.add(i < r0 ? mux(firstRegionBeat, B(0, 8), s.payload.data.byteAt(i)) : s.payload.data.byteAt(i));
            }
            tapData = cat(lanes).named("tap_data");
            assertThat(inFire.and(s.payload.last).and(firstRegionBeat).andNot(s.payload.keep.bit(r0)).not(),
                    "packet shorter than the CRC offset (" + offset + " bytes) + 1");
        }
        engine.s.valid.set(tapValid);
        engine.s.payload.data.set(tapData);
        engine.s.payload.keep.set(s.payload.keep);
        engine.s.payload.last.set(s.payload.last);

        // ---- queues
        StreamFifo<PacketBeat> beats = instance(() -> new StreamFifo<>(() -> new PacketBeat(dataWidth), depth,
                FifoStorage.LUT_RAM, depth));
        StreamFifo<Bits> crcs = instance(() -> new StreamFifo<>(() -> bits(spec.width()), depth,
                FifoStorage.LUT_RAM, depth));

        // ---- output stage
        Bool spill = reg("spill", bool()).init(false);
        Bits spillData = reg("spill_data", bits(8 * cb));
        Bits spillKeep = reg("spill_keep", bits(cb));

        // fast packets: a flag per queued beat (lock-step with the beat queue) and their own CRC queue
        StreamFifo<Bits> fastFlags = fastPath ? instance(() -> new StreamFifo<>(() -> bits(1), depth,
                FifoStorage.LUT_RAM, depth)) : null;
        StreamFifo<Bits> fastCrcs = fastPath ? instance(() -> new StreamFifo<>(() -> bits(spec.width()), depth,
                FifoStorage.LUT_RAM, depth)) : null;

        Bool queued = beats.m.valid;
        Bool direct = fallThrough ? queued.not().and(spill.not()).and(s.valid).and(s.payload.last.not()).named(
                "direct") : FALSE;
        PacketBeat head = beats.m.payload;
        Bool headLast = head.last;
        Bits headKeep = head.keep;
        Bool slowAvail = crcs.m.valid.or(engine.crcValid);
        Bits slowValue = mux(crcs.m.valid, crcs.m.payload, engine.crcValue);
        Bool headFast = fastPath ? fastFlags.m.payload.bit(0).named("head_fast") : FALSE;
        Bool crcAvail;
        Bits crcValue;
        if (fastPath) {
            Bool fastAvail = fastCrcs.m.valid.or(fastCrc.valid);
            Bits fastValue = mux(fastCrcs.m.valid, fastCrcs.m.payload, fastCrc.payload);
            crcAvail = mux(headFast, fastAvail, slowAvail).named("crc_avail");
            crcValue = mux(headFast, fastValue, slowValue).named("crc_now");
        } else {
            crcAvail = slowAvail.named("crc_avail");
            crcValue = slowValue.named("crc_now");
        }
        // appended bytes in wire order
        Bits[] crcByte = new Bits[cb];
        for (int j = 0; j < cb; j++) {
            int byteIdx = spec.reflectOut() ? j : cb - 1 - j;
            crcByte[j] = crcValue.slice(8 * byteIdx + 7, 8 * byteIdx);
        }
        // lane i of the last beat takes appended byte j when the beat has exactly i - j valid bytes
        List<Bits> outLanes = new ArrayList<>();
        List<Bool> outKeep = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            Bits lane = head.data.byteAt(i);
            for (int j = 0; j < cb; j++) {
                int k = i - j; // valid bytes of the beat for this choice
                if (k >= 1) {
                    Bool hit = headKeep.bit(k - 1).andNot(headKeep.bit(k));
                    lane = mux(hit, crcByte[j], lane);
                }
            }
            outLanes.add(lane);
            Bool kb = headKeep.bit(i);
            for (int j = 1; j <= cb && i - j >= 0; j++) {
                kb = kb.or(headKeep.bit(i - j));
            }
            outKeep.add(kb);
        }
        Bits lastData = cat(outLanes).named("last_data");
        Bits lastKeep = cat(outKeep).named("last_keep");
        Bool fits = headKeep.bit(n - cb).not().named("crc_fits"); // k + cb <= N
        // the spill beat: lane l takes appended byte j when k = N - j + l
        List<Bits> spLanes = new ArrayList<>();
        List<Bool> spKeep = new ArrayList<>();
        for (int l = cb - 1; l >= 0; l--) {
            Bits lane = B(0, 8);
            for (int j = l; j < cb; j++) {
                int k = n - j + l;
                Bool hit = k == n ? headKeep.bit(n - 1) : headKeep.bit(k - 1).andNot(headKeep.bit(k));
                lane = mux(hit, crcByte[j], lane);
            }
            spLanes.add(lane);
            spKeep.add(headKeep.bit(n - cb + l));
        }
        Bits spillDataNext = cat(spLanes).named("spill_data_next");
        Bits spillKeepNext = cat(spKeep).named("spill_keep_next");

        Bool outValid = wire("out_valid", bool());
        PacketBeat outBeat = wire("out_beat", new PacketBeat(dataWidth));
        Bool popHead = wire("pop_head", bool());
        Bool popCrc = wire("pop_crc", bool());
        outValid.set(FALSE);
        assignLeaves(outBeat, head);
        popHead.set(FALSE);
        popCrc.set(FALSE);
        when(spill, () -> {
            outValid.set(TRUE);
            outBeat.data.set(spillData.resize(dataWidth));
            outBeat.keep.set(spillKeep.resize(n));
            outBeat.last.set(TRUE);
        }).elseWhen(queued.and(headLast.not()), () -> {
            outValid.set(TRUE);
            popHead.set(m.ready);
        }).elseWhen(queued, () -> {
            outValid.set(crcAvail);
            outBeat.data.set(lastData);
            outBeat.keep.set(lastKeep);
            outBeat.last.set(fits);
            popHead.set(m.ready.and(crcAvail));
            popCrc.set(m.ready.and(crcAvail));
        }).elseWhen(direct, () -> {
            outValid.set(TRUE);
            assignLeaves(outBeat, s.payload);
        });
        when(spill.and(m.ready).and(enable), () -> spill.set(false));
        when(popCrc.and(enable).andNot(fits), () -> {
            spill.set(true);
            spillData.set(spillDataNext);
            spillKeep.set(spillKeepNext);
        });
        Bool directTaken = direct.and(m.ready);

        beats.s.valid.set(s.valid.and(enable).andNot(directTaken));
        assignLeaves(beats.s.payload, s.payload);
        beats.m.ready.set(popHead.and(enable));
        Bool popSlow = popCrc.andNot(headFast);
        crcs.s.valid.set(engine.crcValid.andNot(popSlow.and(crcs.m.valid.not())));
        crcs.s.payload.set(engine.crcValue);
        crcs.m.ready.set(popSlow.and(crcs.m.valid).and(enable));
        if (fastPath) {
            Bool popFast = popCrc.and(headFast);
            fastFlags.s.valid.set(beats.s.valid.and(beats.s.ready));
            fastFlags.s.payload.set(sFast.asBits());
            fastFlags.m.ready.set(beats.m.ready.and(beats.m.valid));
            fastCrcs.s.valid.set(fastCrc.valid.and(enable).andNot(popFast.and(fastCrcs.m.valid.not())));
            fastCrcs.s.payload.set(fastCrc.payload);
            fastCrcs.m.ready.set(popFast.and(fastCrcs.m.valid).and(enable));
            assertThat(fastCrcs.s.valid.not().or(fastCrcs.s.ready), "internal: fast CRC queue overflow");
            assertThat(directTaken.and(sFast).not(), "internal: a fast beat cannot take the direct path");
        }
        assertThat(crcs.s.valid.not().or(crcs.s.ready), "internal: CRC queue overflow");

        // ---- bypass
        m.valid.set(mux(enable, outValid, s.valid));
        PacketBeat mp = m.payload;
        mp.data.set(mux(enable, outBeat.data, s.payload.data));
        mp.keep.set(mux(enable, outBeat.keep, s.payload.keep));
        mp.last.set(mux(enable, outBeat.last, s.payload.last));
        s.ready.set(mux(enable, beats.s.ready, m.ready));
        latency(fallThrough ? 0 : 1);
    }

    /** Entries of the beat queue (engine latency + 4). */
    public int queueDepth() {
        return depth;
    }

    /** Latency of the CRC engine: the least delay of a packet's last beat. */
    public int engineLatency() {
        return engineLatency;
    }
}
