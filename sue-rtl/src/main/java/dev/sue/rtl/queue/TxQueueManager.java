// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.stream.StreamForwardRegister;
import dev.sue.hdl.lib.util.ByteMask;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.pdu.CellFree;
import dev.sue.rtl.pdu.ReplayReq;
import dev.sue.rtl.pdu.TxPdu;
import dev.sue.rtl.xpu.CreditRelease;
import dev.sue.rtl.xpu.XpuTxBus;
import dev.sue.rtl.xpu.XpuTxOp;
import java.util.ArrayList;
import java.util.List;

/**
 * SUE transmit queue manager: packs committed ops from {@link dev.sue.rtl.xpu.XpuTxInterface}
 * into per-{destination, VC} queues in a shared cell buffer (packing at enqueue, DESIGN-TX.md),
 * schedules the queues (round robin over unpaused VCs, round robin over eligible queues within a
 * VC, no head-of-line blocking across destinations) and streams whole PDUs back to back.
 *
 * <h2>Parameters</h2>
 * <ul>
 * <li>{@code dataWidth} W: 256, 512 or 1024 (B = W/8 bytes per beat and per cell).
 * <li>{@code xpus}: 2..1024 destinations; an op to a destination {@code >= xpus} is refused
 *     (counted in {@code cnt_bad_dest}, its credits released).
 * <li>{@code vcs}: 1, 2 or 4. Queue id = {@code dest * vcs + vc}.
 * <li>{@code cells}: cells of W bits in the shared buffer, {@code 2*K+4 .. 65536} with
 *     K = ceil(274/B)+1 (the most cells one op can take). A PDU never holds more than
 *     {@code cells/2 - 1} cells: the effective pack limit is
 *     {@code min(PACK_LIMIT, (cells/2-1)*B)}, so a small buffer cannot deadlock on one open PDU.
 * </ul>
 *
 * <h2>Ports</h2>
 * <ul>
 * <li>{@code s} (Stream of {@link XpuTxOp}, input): the op beats (see there); committed at
 *     {@code last} unless {@code abort}. Ready is high except while the packer needs an extra
 *     cycle (op tail beyond the data beats, state hazard, no free cell).
 * <li>{@code desc} (Stream of {@link PduDesc}) and {@code data} (Stream of {@link PacketBeat}):
 *     the PDU stream of DESIGN-TX.md's contract: PDU bytes from byte 0 of the first beat,
 *     ceil(length/B) beats, keep contiguous on the last beat, bytes beyond length zero; a desc is
 *     valid one cycle before (or together with) its first data beat; {@code desc} and
 *     {@code data} are the outputs of the reader's desc and data FIFOs (register storage), so
 *     their valid and payload come from flip-flops through the FIFOs' head multiplexer (never
 *     from the cell RAM's read data or the packer's logic of the same cycle; no path from
 *     {@code ready} to {@code valid}).
 * <li>{@code release} (Flow of {@link CreditRelease}, count 12 bits): credits back to the
 *     interface. Policy: released when the PDU holding the op <em>leaves the buffer</em> (its
 *     last cell is read), one command credit per op and one data credit per {@code tx_data}
 *     beat of the op (ceil(dataLen/B)); so the credits bound the buffer occupancy. Ops refused
 *     here ({@code cnt_bad_dest}, {@code cnt_dest_limit}) are released at once; aborted ops never
 *     (the interface refunds those). Accumulated per {VC, kind}; one message per cycle, round
 *     robin over the non-empty accumulators.
 * <li>{@code cfg_valid}, {@code cfg_addr[15:0]}, {@code cfg_data[31:0]}: 0x0200 PACK_LIMIT
 *     (bytes, {@value #PACK_LIMIT_MIN}..4096, default 2048; other values ignored and counted in
 *     {@code cnt_bad_cfg}; the minimum is the largest op, 18 control + 256 data bytes, so no PDU
 *     ever exceeds the limit);
 *     0x0201 DEST_LIMIT (cells one destination may hold, 1..cells, default cells = no limit; 0 or
 *     more than cells ignored and counted). Below cells, an op whose destination already holds
 *     more than DEST_LIMIT - {@code kMax} cells (queued, and in replay-store mode unacknowledged)
 *     is refused: dropped and counted in {@code cnt_dest_limit}, its credits returned (its first
 *     chunk is packed before the verdict is ready and rolled back like an aborted op's).
 * <li>{@code win} (Flow {dest, open}): connection window of a destination; all open after reset.
 *     A queue granted while its window is closed is parked; opening wakes every VC of it.
 * <li>{@code vc_pause} (Bits(vcs), level): a paused VC is not scheduled.
 * <li>Counters (32-bit saturating): {@code cnt_pdus} (descs emitted), {@code cnt_ops} (ops in
 *     emitted PDUs), {@code cnt_aborts} (aborted ops rolled back), {@code cnt_bad_dest},
 *     {@code cnt_dest_limit} (ops refused because their destination holds DEST_LIMIT cells),
 *     {@code cnt_bad_cfg}.
 * </ul>
 *
 * <h2>Structure</h2>
 * {@link OpFormatter} (prepends the control bytes: op chunk k = op bytes kB..kB+B-1) -> register R (the
 * per-queue state RAM is read in the same cycle) -> packer P (decides the chunk's fill offset,
 * cells and the PDU's fate; per-queue state {open PDU first cell, tail cell, length, ops, beats,
 * waiting} in one sync RAM with one-deep forwarding) -> {@link CellBuffer} (one cycle later:
 * rotates the chunk to the fill offset and writes it in one cycle even across a cell boundary,
 * byte lanes with their own write address) -> close events -> {@link QueueLists} at PDU granularity (a PDU is named
 * by its first cell; its {len, ops, beats} in a RAM at that address) -> {@link ActiveScheduler}
 * (events registered) -> reader (pop, PDU info prefetch into an 8-entry FIFO, room for a pop
 * decided a cycle ahead, then one cell per cycle following the
 * cell next-pointer RAM, no bubble between PDUs). Cells come from {@link CellAllocator}; cells
 * of an aborted op are kept in a small spare list and reused by the next allocations (rollback
 * without frees). Cells are freed as they are read ({@code free-after-read}; the free reaches
 * the allocator one cycle after the read is issued) or, in replay-store mode, by
 * {@link ReplayFreeWalker} on the reliability block's requests; {@link CreditReturn} hands the
 * credits back.
 *
 * <p><b>Idle bypass.</b> A PDU closed at an op's end (its queue had no closed PDU waiting) is
 * handed straight to the reader in the cycle after its close (from registers: the close logic
 * and the reader are separate register-to-register paths), without append / grant / pop, when the
 * reader is idle (no PDU being read, prefetch FIFO empty, no pop in flight), no PDU is in the
 * lists or the close FIFO, the destination's window is open and its VC is not paused. The
 * queue's state is then written empty and not waiting (no flush follows). The reader's cell
 * reads forward the cell writer's write of the same cycle, its next-pointer reads the packer's
 * link of the same cycle (an early-closed op's extra chunk and its link). Everything else takes
 * the list path.
 *
 * <p><b>Packing / work conservation.</b> At an op's end the queue's open PDU is closed when the
 * queue has no closed PDU waiting ({@code waiting} = 0). When the reader starts reading the last
 * waiting PDU of a queue it sends a flush for that queue to the packer, which closes the open PDU
 * (or clears {@code waiting}); flushing at the start rather than at the pop lets the open PDU
 * keep packing while its predecessor waits in the prefetch FIFO (at the pop when the reader has
 * less than {@value #FLUSH_AHEAD_BEATS} beats ahead). Flushes are taken between ops or between
 * beats of an op of another queue. An op that would push the open PDU past the limit closes it first.
 * An op whose control bytes push its tail into one more cell than its data beats closes its PDU
 * at its last data beat, before that extra chunk is written (early close: the length is known
 * then; the reader waits for the extra cell if it gets there first), so every op size has the
 * same latency. Only with {@value #EARLY_CLOSE_FREE_CELLS} or more free cells: otherwise the op
 * closes at its extra chunk, one cycle later (a reader waiting on a cell that only an ACK can
 * free would stall the frames that carry this side's ACKs).
 *
 * <p><b>Timing.</b> Idle system: an op whose last beat is at {@code s} in cycle t has its desc
 * valid at t+{@value #IDLE_LATENCY_DESC} and its first data beat at t+{@value #IDLE_LATENCY}
 * (idle bypass, any op size; measured by the testbench). Through the lists (reader or lists busy): desc
 * t+11, data t+12 at the earliest (the scheduler's events are registered too). Back to back: one data beat per cycle across PDUs while PDUs
 * are waiting.
 */
public final class TxQueueManager extends Component {
    /** Free cells an early close needs (it hands the reader a PDU whose last cell is yet to come). */
    public static final int EARLY_CLOSE_FREE_CELLS = 4;
    public static final int IDLE_LATENCY_DESC = 3;
    public static final int IDLE_LATENCY = 4;
    public static final int ADDR_PACK_LIMIT = 0x0200;
    /** Smallest legal PACK_LIMIT: the largest op (18 control + 256 data bytes). */
    public static final int PACK_LIMIT_MIN = XpuTxBus.MAX_OP_BYTES;
    public static final int ADDR_DEST_LIMIT = 0x0201;
    /** Work ahead of the reader below which a queue's flush is sent at the pop (see reader). */
    public static final int FLUSH_AHEAD_BEATS = 32;
    static final int REL_W = 12;

    /** One entry of the window flow. */
    public static final class Window extends Bundle {
        public final UInt dest = uint(10);
        public final Bool open = bool();

        @Override
        public Window copyType() {
            return new Window();
        }
    }

    /**
     * The packer's per-queue state word ({@code q_state}): the open PDU (first and tail cell, bytes,
     * ops, data beats; {@code len} = 0: none) and whether a closed PDU of the queue waits in the
     * lists or the reader ({@code waiting}: the next op end does not close the open PDU).
     */
    static final class QueueState extends Bundle {
        final Bool waiting = bool();
        final UInt first;
        final UInt tail;
        final UInt len = uint(13);
        final UInt ops = uint(12);
        final UInt beats = uint(12);
        private final int cellBits;

        QueueState(int cellBits) {
            this.cellBits = cellBits;
            first = uint(cellBits);
            tail = uint(cellBits);
        }

        @Override
        public QueueState copyType() {
            return new QueueState(cellBits);
        }

        /** The open PDU is non-empty and longer than {@code room}. */
        Bool overRoom(UInt room) {
            return len.ne(0).and(len.gt(room));
        }

        /** The open PDU ends on a cell boundary (or there is none): the next byte starts a cell. */
        Bool fillZero(int bytes) {
            return len.resize(log2Up(bytes)).eq(0);
        }

        /** A chunk of {@code n} bytes appended to the open PDU crosses into a new cell of {@code bytes}. */
        Bool crosses(UInt n, int bytes) {
            UInt fill = len.resize(log2Up(bytes));
            return fill.ne(0).and(fill.resize(fill.width() + 1).add(n).gt(bytes));
        }

        void set(Bool isWaiting, UInt firstCell, UInt tailCell, UInt bytes, UInt opCount, UInt beatCount) {
            waiting.set(isWaiting);
            first.set(firstCell);
            tail.set(tailCell);
            len.set(bytes);
            ops.set(opCount);
            beats.set(beatCount);
        }

        /** No open PDU; {@code isWaiting}: a closed one waits. */
        void setNoPdu(boolean isWaiting) {
            waiting.set(isWaiting);
            first.set(0);
            tail.set(0);
            len.set(0);
            ops.set(0);
            beats.set(0);
        }
    }

    /** What the reader needs of a closed PDU, stored at its first cell ({@code pdu_info}). */
    static final class PduInfo extends Bundle {
        final UInt len = uint(13);
        final UInt ops = uint(12);
        /** The ops' {@code tx_data} beats (their data credits). */
        final UInt beats = uint(12);

        @Override
        public PduInfo copyType() {
            return new PduInfo();
        }
    }

    /** A popped PDU waiting for the reader (prefetch FIFO word). */
    static final class PrefetchEntry extends Bundle {
        /** The queue had no other closed PDU: its open PDU is flushed when this one starts. */
        final Bool lastOfQueue = bool();
        final UInt queue;
        final UInt cell;
        final PduInfo info = new PduInfo();
        private final int queueBits;
        private final int cellBits;

        PrefetchEntry(int queueBits, int cellBits) {
            this.queueBits = queueBits;
            this.cellBits = cellBits;
            queue = uint(queueBits);
            cell = uint(cellBits);
        }

        @Override
        public PrefetchEntry copyType() {
            return new PrefetchEntry(queueBits, cellBits);
        }
    }

    public final Stream<XpuTxOp> s;
    public final Stream<TxPdu> desc;
    public final Stream<ReplayReq> replay;
    public final Stream<CellFree> free;
    public final Stream<PacketBeat> data;
    public final Flow<CreditRelease> release;
    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Flow<Window> win;
    public final Bits vcPause;
    public final UInt cntPdus = out(uint(32));
    public final UInt cntOps = out(uint(32));
    public final UInt cntAborts = out(uint(32));
    public final UInt cntBadDest = out(uint(32));
    public final UInt cntDestLimit = out(uint(32));
    public final UInt cntBadCfg = out(uint(32));
    /** Free cells in the buffer (the allocator's count), for status and tests. */
    public final UInt freeCells;

    public TxQueueManager(int dataWidth, int xpus, int vcs, int cells) {
        this(dataWidth, xpus, vcs, cells, false);
    }

    /**
     * @param replayStore false: cells are freed as they are read (free-after-read); {@code replay}
     *     and {@code free} are unused. true: the cell buffer is the replay store of transmit
     *     reliability: cells stay allocated after the read until a {@code free} request returns
     *     them, and {@code replay} requests re-read kept PDUs.
     */
    public TxQueueManager(int dataWidth, int xpus, int vcs, int cells, boolean replayStore) {
        param("dataWidth", dataWidth);
        param("replayStore", replayStore);
        param("xpus", xpus);
        param("vcs", vcs);
        param("cells", cells);
        require(dataWidth == 256 || dataWidth == 512 || dataWidth == 1024,
                "dataWidth must be 256, 512 or 1024, got " + dataWidth);
        require(xpus >= 2 && xpus <= 1024, "xpus must be 2..1024, got " + xpus);
        require(vcs == 1 || vcs == 2 || vcs == 4, "vcs must be 1, 2 or 4, got " + vcs);
        final int bpb = dataWidth / 8;
        final int kMax = (XpuTxBus.MAX_OP_BYTES + bpb - 1) / bpb + 1;
        require(cells >= 2 * kMax + 4 && cells <= 65536,
                "cells must be " + (2 * kMax + 4) + "..65536 for dataWidth " + dataWidth + ", got " + cells);
        final int lb = log2Up(bpb);
        final int cw = log2Up(cells);
        final int xw = log2Up(xpus);
        final int vw = Integer.numberOfTrailingZeros(vcs);
        final int queues = xpus * vcs;
        final int qw = log2Up(queues);
        final int dw = bitsFor(cells);
        final long capBytes = Math.min(4096L, (long) (cells / 2 - 1) * bpb);
        // cells >= 2K+4 gives (cells/2-1)*B >= (K+1)*B > 274: every op fits the effective limit
        require(capBytes >= PACK_LIMIT_MIN, "internal: buffer cap below the largest op");
        final int w = dataWidth;

        s = slave(Stream.of(() -> new XpuTxOp(dataWidth)));
        desc = master(Stream.of(TxPdu::new));
        replay = slave(Stream.of(ReplayReq::new));
        free = slave(Stream.of(CellFree::new));
        data = master(Stream.of(() -> new PacketBeat(dataWidth)));
        release = master(Flow.of(() -> new CreditRelease(REL_W)));
        win = slave(Flow.of(Window::new));
        freeCells = out(uint(bitsFor(cells)));
        vcPause = in(bits(vcs));
        latency(IDLE_LATENCY);

        // ---- configuration -------------------------------------------------------------------
        UInt packLimit = reg("pack_limit", uint(13)).init(2048);
        UInt destLimit = reg("dest_limit", uint(dw)).init(cells);
        UInt cfgVal = cfgData.asUInt();
        Bool wrPack = cfgValid.and(cfgAddr.eq(ADDR_PACK_LIMIT)).named("wr_pack_limit");
        Bool wrDest = cfgValid.and(cfgAddr.eq(ADDR_DEST_LIMIT)).named("wr_dest_limit");
        Bool packOk = cfgVal.ge(PACK_LIMIT_MIN).and(cfgVal.le(4096)).named("pack_ok");
        Bool destOk = cfgVal.ge(1).and(cfgVal.le(cells)).named("dest_ok");
        when(wrPack.and(packOk), () -> packLimit.set(cfgVal.resize(13)));
        when(wrDest.and(destOk), () -> destLimit.set(cfgVal.resize(dw)));
        UInt effLimit = mux(packLimit.gt(capBytes), U(capBytes, 13), packLimit).named("eff_limit");

        // ---- shared structures ---------------------------------------------------------------
        Mem<Bits> cellNext = Mem.of(cells, cw).named("cell_next");
        Mem<PduInfo> pduInfo = Mem.of(cells, new PduInfo()).named("pdu_info");
        CellAllocator alloc = instance("alloc", () -> new CellAllocator(cells));
        QueueLists lists = instance("lists", () -> new QueueLists(xpus, vcs, cells));
        ActiveScheduler sched = instance("sched", () -> new ActiveScheduler(xpus, vcs));
        lists.destLimit.set(U(cells, dw));
        freeCells.set(alloc.freeCount);
        sched.pause.set(vcPause);
        Bool initDone = lists.initDone.and(sched.initDone).named("init_done");

        // flush requests from the reader to the packer
        StreamFifo<UInt> flushFifo = instance("flush_fifo",
                () -> new StreamFifo<>(() -> uint(qw), 10, FifoStorage.REGISTERS, 10));

        // ---- formatter (combinational on s) ----------------------------------------------------
        XpuTxOp in = s.payload;
        OpFormatter fmt = new OpFormatter(in, s.valid, bpb);
        Bool fExtra = fmt.extra;
        Bool fInOp = fmt.inOp;
        Bool fFirst = fmt.first;
        Bool fValid = fmt.valid;
        UInt inDest = in.dest;
        Bool inBad = xpus == 1024 ? FALSE : inDest.ge(xpus);
        UInt inQ = queueOf(inDest.resize(xw), in.vc, vw, qw);
        UInt dataBeats = in.dataLen.add(bpb - 1).shr(lb).resize(4).named("data_beats");

        // ---- R register (chunk or flush) -----------------------------------------------------
        Bool rValid = reg("r_valid", bool()).init(false);
        Bool rFlush = reg("r_flush", bool()).init(false);
        UInt rQ = reg("r_q", uint(qw)).init(0);
        UInt rDest = reg("r_dest", uint(xw)).init(0);
        UInt rVc = reg("r_vc", uint(2)).init(0);
        Bool rBad = reg("r_bad", bool()).init(false);
        Bits rData = reg("r_data", bits(w));
        UInt rN = reg("r_n", uint(lb + 1)).init(0);
        Bool rFirst = reg("r_first", bool()).init(false);
        Bool rLast = reg("r_last", bool()).init(false);
        Bool rAbort = reg("r_abort", bool()).init(false);
        // the op's last data beat, with one extra chunk (control bytes pushed the tail out) to follow
        Bool rEarly = reg("r_early", bool()).init(false);
        UInt rTotal = reg("r_total", uint(9)).init(0);
        // the open PDU's length above which this op does not fit: effective limit - op length
        UInt rRoom = reg("r_room", uint(13)).init(0);
        UInt rBeats = reg("r_beats", uint(4)).init(0);
        Bool pTake = wire("p_take", bool());
        Bool rFree = rValid.not().or(pTake).named("r_free");
        // A flush is taken between ops, or between two beats of an op of another queue (the op in
        // progress keeps its state in the packer's op registers; its beats carry dest/vc again),
        // never before an extra chunk (it reuses R's op fields). A flush of the op's own queue
        // moves aside into `flush_held` (one entry: only one op is in progress; two flushes of
        // one queue merge, the merged one still closes the open PDU and the PDU it closes brings
        // the next flush) and is taken first at the op's end. So an XPU pausing in the middle of
        // an op delays only its own queue.
        UInt fOpQ = reg("f_op_q", uint(qw)).init(0);
        Bool heldValid = reg("flush_held", bool()).init(false);
        UInt heldQ = reg("flush_held_q", uint(qw)).init(0);
        Bool atBoundary = fInOp.not().andNot(fExtra).named("at_boundary");
        Bool midOp = fInOp.andNot(fExtra).named("mid_op");
        Bool headOwn = flushFifo.m.payload.eq(fOpQ).named("flush_head_own");
        Bool takeHeld = heldValid.and(atBoundary).named("flush_take_held");
        Bool setAside = flushFifo.m.valid.and(midOp).and(headOwn).named("flush_set_aside");
        assertThat(heldValid.not().or(heldQ.eq(fOpQ)).or(atBoundary), "held flush of another queue");
        Bool fifoFlushOk = atBoundary.andNot(heldValid).or(midOp.andNot(headOwn)).named("flush_ok");
        Bool loadFifoFlush = rFree.and(fifoFlushOk).and(flushFifo.m.valid).named("load_fifo_flush");
        Bool loadFlush = rFree.and(takeHeld).or(loadFifoFlush).named("load_flush");
        UInt flushQ = mux(takeHeld, heldQ, flushFifo.m.payload).named("flush_q");
        Bool loadChunk = rFree.and(fValid).andNot(loadFlush).named("load_chunk");
        flushFifo.m.ready.set(loadFifoFlush.or(setAside));
        when(setAside, () -> {
            heldValid.set(true);
            heldQ.set(flushFifo.m.payload);
        }).elseWhen(rFree.and(takeHeld), () -> heldValid.set(false));
        s.ready.set(rFree.andNot(loadFlush).andNot(fExtra));
        Bool sFire = s.fire().named("s_fire");
        fmt.advance(loadChunk);
        when(loadChunk.and(fFirst), () -> fOpQ.set(inQ));
        when(rFree, () -> rValid.set(loadChunk.or(loadFlush)));
        when(loadFlush, () -> {
            rFlush.set(true);
            rQ.set(flushQ);
            rBad.set(false);
            rFirst.set(false);
            rLast.set(false);
            rAbort.set(false);
            rEarly.set(false);
        });
        when(loadChunk, () -> {
            rFlush.set(false);
            when(fExtra.not(), () -> {
                rQ.set(inQ);
                rDest.set(inDest.resize(xw));
                rVc.set(in.vc);
                rBad.set(inBad);
                rTotal.set(in.totalLen);
                rRoom.set(effLimit.sub(in.totalLen.resize(13)));
                rBeats.set(dataBeats);
            });
            rData.set(fmt.chunk);
            rN.set(fmt.n);
            rFirst.set(fFirst);
            rLast.set(fmt.last);
            rAbort.set(fmt.abort);
            rEarly.set(fmt.early);
        });

        // ---- per-queue packer state RAM ------------------------------------------------------
        Mem<QueueState> stateRam = Mem.of(queues, new QueueState(cw)).named("q_state");
        UInt readQ = mux(loadFlush, flushQ, mux(loadChunk.andNot(fExtra), inQ, rQ)).named("state_rd_q");
        QueueState stateRd = stateRam.readSync(readQ).named("state_rd");
        Bool wrValid = reg("wr_valid", bool()).init(false);
        QueueState wrWord = reg("wr_word", new QueueState(cw));
        // clear sweep of the state RAM after reset
        UInt clr = reg("state_clear", uint(bitsFor(queues))).init(0);
        Bool clearing = clr.ne(queues).named("state_clearing");
        when(clearing, () -> clr.set(clr.add(1)));
        // r_q is always the queue read in the cycle before, and the queue written in that cycle is
        // known from registers (r_q / the sweep): compare them a cycle ahead
        UInt stQ = rQ;
        UInt wrQNext = mux(clearing, clr.resize(qw), stQ).named("state_wr_q_next");
        Bool wrSameQ = reg("wr_same_q", bool()).init(false);
        wrSameQ.set(wrQNext.eq(readQ));
        Bool stateFwd = wrValid.and(wrSameQ).named("state_fwd");
        QueueState stateIn = wire("state_in", new QueueState(cw));
        assignLeaves(stateIn, stateRd);
        when(stateFwd, () -> assignLeaves(stateIn, wrWord));
        Bool sWaiting = stateIn.waiting;
        UInt sFirstC = stateIn.first;
        UInt sTail = stateIn.tail;
        UInt sLen = stateIn.len;
        UInt sOps = stateIn.ops;
        UInt sBeats = stateIn.beats;

        // ---- op registers -----------------------------------------------------------------------
        UInt bLen = reg("b_len", uint(13)).init(0);
        UInt bOps = reg("b_ops", uint(12)).init(0);
        UInt bBeats = reg("b_beats", uint(12)).init(0);
        UInt bFirst = reg("b_first", uint(cw)).init(0);
        Bool bWaiting = reg("b_waiting", bool()).init(false);
        UInt oTail = reg("o_tail", uint(cw)).init(0);
        UInt oFill = reg("o_fill", uint(lb)).init(0);
        Bool oHas = reg("o_has", bool()).init(false);
        Bool oRefused = reg("o_refused", bool()).init(false);

        // spare cells (rollback of aborted ops without frees)
        int kw = bitsFor(kMax);
        List<UInt> spareRegs = new ArrayList<>();
        List<UInt> spareAll = new ArrayList<>();
        for (int i = 0; i < (1 << kw); i++) {
            UInt r = i < kMax ? reg("spare_" + i, uint(cw)) : U(0, cw);
            if (i < kMax) {
                spareRegs.add(r);
            }
            spareAll.add(r);
        }
        Vec<UInt> spare = Vec.of(spareAll);
        UInt spareCnt = reg("spare_cnt", uint(kw)).init(0);
        UInt used = reg("used", uint(kw)).init(0);

        Bool chunkIn = rValid.andNot(rFlush).named("chunk_in");
        Bool isFirst = rFirst;
        // per-destination occupancy (cells) = allocated - freed; both counters modulo 2^(dw+1)
        int ow = dw + 1;
        Mem<Bits> destAlloc = Mem.of(xpus, ow).named("dest_alloc");
        Mem<Bits> destFreedCopy = Mem.of(xpus, ow).named("dest_freed_copy");
        UInt readDest = mux(loadChunk.andNot(fExtra), inDest.resize(xw), rDest).named("dest_rd_d");
        UInt allocRd = destAlloc.readSync(readDest).asUInt().named("dest_alloc_rd");
        UInt freedRd = destFreedCopy.readSync(readDest).asUInt().named("dest_freed_rd");
        Bool daWrValid = reg("da_wr_valid", bool()).init(false);
        UInt daWrVal = reg("da_wr_val", uint(ow)).init(0);
        UInt kDest = rDest;
        UInt clrDest = clr.resize(xw);
        // A commit's count is written a cycle after the commit (from registers: the sums with and
        // without the commit's last cell, chosen by that cell's registered take), so a read sees
        // the pending write (committed in the cycle of the read), the last write (of the cycle of
        // the read: not yet in the RAM), or the RAM.
        Bool pendValid = reg("da_pend_valid", bool()).init(false);
        UInt pendDest = reg("da_pend_dest", uint(xw)).init(0);
        UInt pendSum0 = reg("da_pend_sum0", uint(ow)).init(0);
        UInt pendSum1 = reg("da_pend_sum1", uint(ow)).init(0);
        Bool pendTake = reg("da_pend_take", bool()).init(false);
        UInt pendVal = mux(pendTake, pendSum1, pendSum0).named("da_pend_val");
        Bool pendSameDest = reg("da_pend_same_dest", bool()).init(false);
        pendSameDest.set(kDest.eq(readDest));
        Bool daSameDest = reg("da_same_dest", bool()).init(false);
        daSameDest.set(mux(clearing, clrDest, pendDest).eq(readDest));
        Bool pendFwd = pendValid.and(pendSameDest).named("dest_alloc_fwd_pend");
        Bool daFwd = daWrValid.and(daSameDest).named("dest_alloc_fwd");
        UInt allocNow = mux(pendFwd, pendVal, mux(daFwd, daWrVal, allocRd)).named("dest_alloc_now");
        // DEST_LIMIT = cells (the default) is no limit: in replay-store mode a destination's
        // unacknowledged PDUs count too, so one busy destination may approach the whole buffer,
        // and refusing then would drop ops the XPU was given credits for on a healthy link.
        // occupancy + K > DEST_LIMIT, with the constant side registered
        Bool limitOn = reg("dest_limit_on", bool()).init(false);
        Bool limitAll = reg("dest_limit_all", bool()).init(false);
        UInt limitThr = reg("dest_limit_thr", uint(ow)).init(0);
        limitOn.set(destLimit.lt(cells));
        limitAll.set(destLimit.lt(kMax));
        limitThr.set(destLimit.resize(ow).sub(kMax));
        // the occupancy compare on both candidate counts (RAM, forwarded write) in parallel
        Bool overRd = allocRd.sub(freedRd).gt(limitThr).named("over_limit_rd");
        Bool overWr = daWrVal.sub(freedRd).gt(limitThr).named("over_limit_fwd");
        Bool overPend = pendVal.sub(freedRd).gt(limitThr).named("over_limit_pend");
        Bool overLimit = limitOn.and(limitAll.or(mux(pendFwd, overPend, mux(daFwd, overWr, overRd))))
                .named("over_limit");
        // An op refused for its destination (out of range or over its limit) commits nothing.
        // An out-of-range destination is known at the load (r_bad) and the op writes nothing;
        // the limit compare is ready only late in the first chunk's cycle, so that chunk is
        // packed as usual and the op is rolled back at its end like an aborted one (its cells
        // stay in the spare list): the compare stays off the fill -> new cell -> write path.
        Bool refusedEarly = mux(isFirst, rBad, oRefused).named("refused_early");
        Bool refused = refusedEarly.or(isFirst.and(overLimit)).named("refused");

        // the first chunk's compares on both candidate state words (the RAM's and the forwarded
        // write) in parallel, the forwarding choice after them: off the compares' path
        Bool overRoom = mux(stateFwd, wrWord.overRoom(rRoom), stateRd.overRoom(rRoom)).named("over_room");
        Bool limitClose = chunkIn.and(isFirst).andNot(refusedEarly).and(overRoom).named("limit_close");
        UInt baseLen = mux(isFirst, mux(limitClose, U(0, 13), sLen), bLen).named("base_len");
        UInt baseOps = mux(isFirst, mux(limitClose, U(0, 12), sOps), bOps).named("base_ops");
        UInt baseBeats = mux(isFirst, mux(limitClose, U(0, 12), sBeats), bBeats).named("base_beats");
        UInt baseFirst = mux(isFirst, sFirstC, bFirst).named("base_first");
        Bool baseWaiting = mux(isFirst, sWaiting.or(limitClose), bWaiting).named("base_waiting");
        UInt f = mux(isFirst, baseLen.resize(lb), oFill).named("fill");
        Bool has = mux(isFirst, baseLen.ne(0), oHas).named("has_cell");
        UInt tail = mux(isFirst, sTail, oTail).named("tail");
        UInt fPlusN = f.resize(lb + 1).add(rN).named("fill_plus_n");
        // overflow = f != 0 and f + n > B, from the state word and from the op registers in parallel
        Bool ovState = mux(stateFwd, wrWord.crosses(rN, bpb), stateRd.crosses(rN, bpb)).named("overflow_state");
        Bool ovOpen = oFill.ne(0).and(oFill.resize(lb + 1).add(rN).gt(bpb)).named("overflow_open");
        Bool overflow = mux(isFirst, limitClose.not().and(ovState), ovOpen).named("overflow");
        Bool active = chunkIn.andNot(refusedEarly).andNot(rAbort).named("chunk_active");
        // a new cell at fill 0 or when the chunk crosses one; for a first chunk from the state
        // words' compares directly (a limit close starts at fill 0), not through the fill mux
        Bool stateFillZero = mux(stateFwd, wrWord.fillZero(bpb), stateRd.fillZero(bpb)).named("state_fill_zero");
        Bool needNew = active.and(mux(isFirst, limitClose.or(stateFillZero).or(ovState), oFill.eq(0).or(ovOpen)))
                .named("need_new");
        Bool fromSpare = used.lt(spareCnt).named("from_spare");
        UInt newCell = mux(fromSpare, spare.get(used), alloc.alloc.payload).named("new_cell");
        Bool newOk = fromSpare.or(alloc.alloc.valid);
        alloc.alloc.ready.set(needNew.andNot(fromSpare).and(pTake));

        // close FIFO (appends to the PDU lists)
        StreamFifo<UInt> closeFifo = instance("close_fifo",
                () -> new StreamFifo<>(() -> uint(qw + cw), 4, FifoStorage.REGISTERS, 4));
        Bool closeRoom = closeFifo.s.ready;
        // A chunk waits while no new cell is at hand even if it needs none: the stall then
        // depends on registers only, not on the fill arithmetic (timing). Flushes never wait
        // (they close PDUs, which is how cells come back).
        pTake.set(rValid.and(closeRoom).andNot(clearing).and(rFlush.or(newOk)));

        // placement of the chunk: the cell buffer writes it a cycle later, from registers
        UInt chunkAddr = mux(f.eq(0), newCell, tail).named("chunk_addr");
        Bool chunkWrite = active.and(pTake).named("chunk_write");
        CellBuffer cellBuf = new CellBuffer(cells, bpb, chunkWrite, chunkAddr, newCell, f, rN, rData);
        Bool nextWrEn = needNew.and(has).and(pTake).named("next_wr_en");
        cellNext.write(tail, newCell.asBits(), nextWrEn);
        Bool nwValid = reg("nw_valid", bool()).init(false);
        UInt nwAddr = reg("nw_addr", uint(cw)).init(0);
        UInt nwData = reg("nw_data", uint(cw)).init(0);
        nwValid.set(nextWrEn);
        nwAddr.set(tail);
        nwData.set(newCell);

        UInt newFirst = mux(has.not().and(needNew), newCell, baseFirst).named("new_first");
        UInt newTail = mux(needNew, newCell, tail).named("new_tail");
        UInt newFill = fPlusN.resize(lb).named("new_fill");
        Bool lastChunk = chunkIn.and(pTake).and(rLast).named("last_chunk");
        Bool commitOp = lastChunk.andNot(rAbort).andNot(refused).named("commit_op");
        Bool abortOp = lastChunk.and(rAbort).andNot(refused).named("abort_op");
        Bool refuseDone = lastChunk.and(refused).andNot(rAbort).named("refuse_done");
        // an op that does not commit hands the cells it took back to the spare list
        Bool rollback = lastChunk.and(rAbort.or(refused)).named("rollback");

        UInt opLen = baseLen.add(rTotal.resize(13)).named("op_len");
        UInt opOps = baseOps.add(1).named("op_ops");
        UInt opBeats = baseBeats.add(rBeats.resize(12)).named("op_beats");
        when(chunkIn.and(pTake), () -> {
            bLen.set(baseLen);
            bOps.set(baseOps);
            bBeats.set(baseBeats);
            bFirst.set(newFirst);
            bWaiting.set(baseWaiting);
            oTail.set(newTail);
            oFill.set(newFill);
            oHas.set(has.or(needNew));
            oRefused.set(refused);
        });
        Bool commit = commitOp.named("commit");
        UInt kQ = rQ;
        UInt kLen = opLen;
        UInt kOps = opOps;
        UInt kBeats = opBeats;
        UInt kFirst = newFirst;
        UInt kTail = newTail;
        Bool kWaiting = baseWaiting;
        // Early close: an op whose control bytes push its tail one chunk past its data beats
        // closes its PDU (when nothing waits in its queue) at its last data beat, one cycle
        // before that extra chunk is written, so it leaves as early as any other op. Its length
        // is known (the op's total length), the PDU started at fill 0 (a queue with nothing
        // waiting has no open PDU), so the extra chunk fills a cell of its own, written and
        // linked in the next chunk cycle (written by the cell writer one cycle later); the reader
        // does not read that last cell before then (see reader_hold). The commit (state, cell accounting) stays at the extra chunk.
        // The reader may then wait for that extra cell, so an early close needs the cell to be
        // certain: with the buffer full (cells held for replay until the peer's ACK) the reader
        // would stop in the middle of a frame, the framer with it, and with it every ACK this
        // side owes its peer, whose own buffer may wait on those ACKs: a possible deadlock (not
        // seen in simulation; the guard costs a cycle only with under four free cells). Four free
        // cells leave two allocatable this cycle and the next (at most one free per cycle is
        // still in the allocator's two-cycle reuse delay; only the packer allocates).
        Bool extraCellSure = alloc.freeCount.ge(EARLY_CLOSE_FREE_CELLS).named("extra_cell_sure");
        Bool earlyClose = chunkIn.and(pTake).and(rEarly).andNot(refused).andNot(rAbort).andNot(baseWaiting)
                .and(extraCellSure).named("early_close");
        Bool oEarly = reg("o_early", bool()).init(false);
        Bool oEarlyBypass = reg("o_early_bypass", bool()).init(false);
        UInt oEarlyFirst = reg("o_early_first", uint(cw)).init(0);
        Bool closingCommit = commit.andNot(kWaiting).named("closing_commit");
        Bool kClose = closingCommit.andNot(oEarly).or(earlyClose).named("commit_close");
        assertThat(oEarly.not().or(chunkIn.and(pTake).not()).or(rLast.and(needNew).andNot(overflow)),
                "early-closed op: the next chunk is not its one-cell tail");
        // idle bypass: the closed PDU goes straight to the reader (set in the reader section)
        Bool bypass = wire("bypass", bool());
        // the reader could take a PDU closed now (from registers only: off the close logic's path)
        Bool bypassOk = wire("bypass_ok", bool());
        Bool bpValid = reg("bypass_valid", bool()).init(false);
        UInt bpQ = reg("bypass_q", uint(qw)).init(0);
        UInt bpFirst = reg("bypass_first", uint(cw)).init(0);
        UInt bpLen = reg("bypass_len", uint(13)).init(0);
        UInt bpOps = reg("bypass_ops", uint(12)).init(0);
        UInt bpBeats = reg("bypass_beats", uint(12)).init(0);
        when(earlyClose, () -> {
            oEarly.set(true);
            oEarlyBypass.set(bypass);
            oEarlyFirst.set(newFirst);
        }).elseWhen(commit, () -> oEarly.set(false));
        // (used only by a closing commit, where bypass = bypass_ok unless the PDU closed early)
        Bool closedBypass = mux(oEarly, oEarlyBypass, bypassOk).named("closed_bypass");

        // flush command
        Bool flushCmd = rValid.and(rFlush).and(pTake).named("flush_cmd");
        Bool flushClose = flushCmd.and(sLen.ne(0)).named("flush_close");

        // state write
        Bool stWrite = commit.or(flushCmd).or(chunkIn.and(pTake).and(limitClose).andNot(commit))
                .named("state_write");
        // (a flush of a queue without an open PDU only clears waiting)
        QueueState stWord = wire("state_word", new QueueState(cw));
        when(clearing.or(commit.and(closingCommit).and(closedBypass)), () -> stWord.setNoPdu(false))
                .elseWhen(commit.andNot(closingCommit), () -> stWord.set(TRUE, kFirst, kTail, kLen, kOps, kBeats))
                .elseWhen(commit.or(flushClose).or(limitClose), () -> stWord.setNoPdu(true))
                .otherwise(() -> stWord.set(FALSE, sFirstC, sTail, sLen, sOps, sBeats));
        stateRam.write(mux(clearing, clr.resize(qw), stQ), stWord, clearing.or(stWrite));
        wrValid.set(stWrite.or(clearing));
        assignLeaves(wrWord, stWord);

        // close event (at most one per cycle): commit close, limit close, flush close
        Bool closeEv = kClose.or(limitClose.and(pTake)).or(flushClose).named("close_ev");
        UInt evFirst = mux(kClose, kFirst, sFirstC).named("close_first");
        UInt evLen = mux(kClose, kLen, sLen);
        UInt evOps = mux(kClose, kOps, sOps);
        UInt evBeats = mux(kClose, kBeats, sBeats);
        UInt evQ = mux(kClose, kQ, rQ);
        PduInfo evInfo = wire("close_info", new PduInfo());
        evInfo.len.set(evLen);
        evInfo.ops.set(evOps);
        evInfo.beats.set(evBeats);
        pduInfo.write(evFirst, evInfo, closeEv);
        closeFifo.s.valid.set(closeEv.andNot(bypass));
        closeFifo.s.payload.set(cat(evQ, evFirst).asUInt());
        assertThat(closeEv.not().or(closeRoom), "close FIFO overflow");
        assertThat(kClose.and(limitClose.and(pTake).or(flushClose)).not(), "two PDU closes in one cycle");
        assertThat(closeEv.not().or(evLen.ne(0)), "closing an empty PDU");
        assertThat(closeEv.not().or(evLen.le(4096)), "PDU longer than 4096 bytes");

        // spare list update. Whether this cycle takes a cell (`take`) comes late in the cycle (fill
        // arithmetic), so every update is computed for both outcomes from registers and `take`
        // only picks one at the end.
        Bool take = needNew.and(pTake).named("cell_take");
        UInt usedPlus1 = used.add(1).named("used_plus_1");
        UInt usedNow = mux(take, usedPlus1, used).named("used_now");
        for (int i = 0; i < kMax; i++) {
            final int ii = i;
            when(take.andNot(fromSpare).and(used.eq(ii)), () -> spareRegs.get(ii).set(alloc.alloc.payload));
        }
        when(commit.or(rollback), () -> used.set(U(0, kw)))
                .elseWhen(take, () -> used.set(usedPlus1));
        // at a commit the cells the op used leave the front of the list: shift it by used(+1)
        UInt cntLeft0 = mux(spareCnt.gt(used), spareCnt.sub(used), U(0, kw)).named("spare_left_0");
        UInt cntLeft1 = mux(spareCnt.gt(usedPlus1), spareCnt.sub(usedPlus1), U(0, kw)).named("spare_left_1");
        List<UInt> shift0 = new ArrayList<>();
        List<UInt> shift1 = new ArrayList<>();
        for (int i = 0; i < kMax; i++) {
            UInt keep = spareRegs.get(i);
            shift0.add(mux(used.resize(kw + 2).add(i).lt(kMax), spare.get(used.add(i).resize(kw)), keep));
            shift1.add(mux(usedPlus1.resize(kw + 2).add(i).lt(kMax), spare.get(usedPlus1.add(i).resize(kw)), keep));
        }
        when(commit, () -> {
            spareCnt.set(mux(take, cntLeft1, cntLeft0));
            for (int i = 0; i < kMax; i++) {
                spareRegs.get(i).set(mux(take, shift1.get(i), shift0.get(i)));
            }
        }).elseWhen(rollback, () -> spareCnt.set(mux(take, mux(spareCnt.gt(usedPlus1), spareCnt, usedPlus1),
                mux(spareCnt.gt(used), spareCnt, used))));
        assertThat(usedNow.le(kMax), "an op took more cells than the spare list holds");

        // destination allocation counter: + cells taken by a committed op
        UInt dAllocBase = reg("dest_alloc_base", uint(ow)).init(0);
        when(chunkIn.and(pTake).and(isFirst), () -> dAllocBase.set(allocNow));
        UInt daBase = mux(isFirst, allocNow, dAllocBase).named("da_base");
        pendValid.set(commit);
        pendDest.set(kDest);
        pendSum0.set(daBase.add(used.resize(ow)));
        pendSum1.set(daBase.add(usedPlus1.resize(ow)));
        pendTake.set(take);
        Bool clrDestEn = clearing.and(clr.lt(xpus));
        destAlloc.write(mux(clearing, clrDest, pendDest), mux(clearing, B(0, ow), pendVal.asBits()),
                pendValid.or(clrDestEn));
        daWrValid.set(pendValid.or(clearing));
        daWrVal.set(mux(clearing, U(0, ow), pendVal));

        // ---- PDU lists: appends (closes) and pops (reader) share the command port ------------
        Bool grantTurn = reg("grant_turn", bool()).init(false);
        Bool popReq = wire("pop_req", bool());
        Bool appendReq = closeFifo.m.valid.and(initDone);
        Bool doPop = popReq.and(appendReq.not().or(grantTurn)).named("do_pop");
        Bool doAppend = appendReq.andNot(doPop).and(lists.cmd.ready).named("do_append");
        when(doPop.or(doAppend), () -> grantTurn.set(doAppend));
        UInt listPdus = reg("list_pdus", uint(cw + 1)).init(0);
        when(doAppend.andNot(doPop), () -> listPdus.set(listPdus.add(1)))
                .elseWhen(doPop.andNot(doAppend), () -> listPdus.set(listPdus.sub(1)));
        closeFifo.m.ready.set(doAppend.and(lists.cmd.ready));
        UInt grantQ = sched.grant.payload;
        lists.cmd.valid.set(doPop.or(doAppend));
        lists.cmd.payload.op.set(mux(doPop, U(QueueCmd.OP_POP, 2), U(QueueCmd.OP_APPEND, 2)));
        lists.cmd.payload.queue.set(mux(doPop, grantQ, closeFifo.m.payload.asBits().slice(qw + cw - 1, cw).asUInt()));
        lists.cmd.payload.cell.set(closeFifo.m.payload.asBits().slice(cw - 1, 0).asUInt());

        // ---- windows --------------------------------------------------------------------------
        Bits winOpen = reg("win_state", bits(xpus))
                .init(java.math.BigInteger.ONE.shiftLeft(xpus).subtract(java.math.BigInteger.ONE));
        Bool winInRange = xpus == 1024 ? TRUE : win.payload.dest.lt(xpus);
        UInt winDest = win.payload.dest.resize(xw);
        Bool wasOpen = winOpen.bit(winDest);
        Bits winSel = OneHot.decode(winDest, xpus);
        when(win.valid.and(winInRange), () -> winOpen.set(mux(win.payload.open, winOpen.or(winSel),
                winOpen.and(winSel.not()))));
        StreamFifo<UInt> wakeFifo = instance("wake_fifo",
                () -> new StreamFifo<>(() -> uint(xw), 8, FifoStorage.REGISTERS, 8));
        wakeFifo.s.valid.set(win.valid.and(winInRange).and(win.payload.open).andNot(wasOpen));
        wakeFifo.s.payload.set(winDest);
        assertThat(wakeFifo.s.valid.not().or(wakeFifo.s.ready), "window wake-up FIFO overflow");

        // ---- scheduler events: list events > DONE FIFO > wake-ups ----------------------------
        // The merged event is registered before the scheduler (its state read -> enqueue -> list
        // update is a path of its own): a grant comes one cycle later than the scheduler alone
        // would give it, hidden behind the prefetched work except on an idle system, where the
        // idle bypass serves the PDU without the scheduler.
        StreamForwardRegister<SchedEvent> evStage = instance("sched_ev_stage",
                () -> new StreamForwardRegister<>(() -> new SchedEvent(qw)));
        sched.ev.connectFrom(evStage.m);
        Stream<SchedEvent> schedEv = evStage.s;
        StreamFifo<Bits> doneFifo = instance("done_fifo",
                () -> new StreamFifo<>(() -> bits(qw + 1), 10, FifoStorage.REGISTERS, 10));
        QueueRsp rsp = lists.rsp.payload;
        Bool listEv = lists.rsp.valid.and(rsp.becameNonEmpty.or(rsp.becameEmpty)).named("list_ev");
        UInt wakeVc = vcs == 1 ? U(0, 1) : reg("wake_vc", uint(vw)).init(0);
        Bool useDone = listEv.not().and(doneFifo.m.valid);
        Bool useWake = listEv.not().andNot(doneFifo.m.valid).and(wakeFifo.m.valid);
        schedEv.valid.set(listEv.or(doneFifo.m.valid).or(wakeFifo.m.valid));
        schedEv.payload.kind.set(mux(listEv, mux(rsp.becameNonEmpty, U(SchedEvent.KIND_NON_EMPTY, 2),
                U(SchedEvent.KIND_EMPTY, 2)), mux(useDone, U(SchedEvent.KIND_DONE, 2), U(SchedEvent.KIND_WAKE, 2))));
        UInt wakeQ = queueOf(wakeFifo.m.payload, wakeVc.resize(2), vw, qw);
        schedEv.payload.queue.set(mux(listEv, rsp.queue,
                mux(useDone, doneFifo.m.payload.slice(qw - 1, 0).asUInt(), wakeQ)));
        schedEv.payload.eligible.set(doneFifo.m.payload.bit(qw));
        doneFifo.m.ready.set(useDone.and(schedEv.ready));
        Bool wakeStep = useWake.and(schedEv.ready);
        Bool wakeEnd = vcs == 1 ? TRUE : wakeVc.eq(vcs - 1);
        wakeFifo.m.ready.set(wakeStep.and(wakeEnd));
        if (vcs > 1) {
            when(wakeStep, () -> wakeVc.set(mux(wakeEnd, U(0, vw), wakeVc.add(1))));
        }
        assertThat(listEv.not().or(schedEv.ready), "scheduler not ready for a list event");

        // ---- reader: grant -> pop -> PDU info -> prefetch FIFO --------------------------------
        StreamFifo<PrefetchEntry> pf = instance("prefetch",
                () -> new StreamFifo<>(() -> new PrefetchEntry(qw, cw), 8, FifoStorage.REGISTERS, 8));
        UInt inflight = reg("pops_in_flight", uint(3)).init(0);
        UInt grantDest = grantQ.shr(vw).resize(xw).named("grant_dest");
        Bool grantWin = winOpen.bit(grantDest).named("grant_win");
        // Room for one more pop, decided a cycle ahead (registered: off the grant -> pop path) from
        // the levels of the cycle before, which grow by at most 1 (prefetch + pops in flight) or
        // 2 (done FIFO + pops in flight; flush FIFO + prefetch + pops in flight: every prefetched
        // PDU may still send one flush) per cycle: prefetch depth 8, done and flush FIFOs 10.
        Bool room = reg("pop_room", bool()).init(false);
        room.set(pf.occupancy.resize(5).add(inflight.resize(5)).le(5)
                .and(doneFifo.occupancy.resize(5).add(inflight.resize(5)).le(6))
                .and(flushFifo.occupancy.resize(5).add(pf.occupancy.resize(5)).add(inflight.resize(5)).le(6)));
        popReq.set(sched.grant.valid.and(grantWin).and(room).and(initDone).and(lists.cmd.ready));
        Bool rspPop = lists.rsp.valid.and(rsp.op.eq(QueueCmd.OP_POP)).named("rsp_pop");
        Bool parkNow = sched.grant.valid.andNot(grantWin).and(room).andNot(rspPop).named("park_now");
        sched.grant.ready.set(doPop.or(parkNow));
        assertThat(rspPop.not().or(rsp.ok), "pop of an empty PDU list");
        assertThat(lists.rsp.valid.and(rsp.op.eq(QueueCmd.OP_APPEND)).not().or(rsp.ok), "append refused");
        UInt rspDest = rsp.queue.shr(vw).resize(xw);
        doneFifo.s.valid.set(parkNow.or(rspPop));
        doneFifo.s.payload.set(mux(parkNow, cat(FALSE, grantQ), cat(winOpen.bit(rspDest), rsp.queue)));
        assertThat(parkNow.and(rspPop).not(), "two DONE events in one cycle");
        PduInfo infoRd = pduInfo.readSync(rsp.cell).named("info_rd");
        Bool infoValid = reg("info_valid", bool()).init(false);
        UInt infoCell = reg("info_cell", uint(cw)).init(0);
        UInt infoQ = reg("info_q", uint(qw)).init(0);
        Bool infoLastOfQueue = reg("info_last_of_queue", bool()).init(false);
        infoValid.set(rspPop);
        infoCell.set(rsp.cell);
        infoQ.set(rsp.queue);
        infoLastOfQueue.set(rsp.becameEmpty);
        pf.s.valid.set(infoValid);
        Bool flushAtPop = wire("flush_at_pop", bool());
        pf.s.payload.lastOfQueue.set(infoLastOfQueue.andNot(flushAtPop));
        pf.s.payload.queue.set(infoQ);
        pf.s.payload.cell.set(infoCell);
        assignLeaves(pf.s.payload.info, infoRd);
        when(doPop.and(infoValid.not()), () -> inflight.set(inflight.add(1)))
                .elseWhen(infoValid.andNot(doPop), () -> inflight.set(inflight.sub(1)));

        // ---- reader engine ----------------------------------------------------------------
        StreamFifo<PacketBeat> dataFifo = instance("data_fifo",
                () -> new StreamFifo<>(() -> new PacketBeat(dataWidth), 4, FifoStorage.REGISTERS, 4));
        StreamFifo<TxPdu> descFifo = instance("desc_fifo",
                () -> new StreamFifo<>(TxPdu::new, 4, FifoStorage.REGISTERS, 4));
        PrefetchEntry pfHead = pf.m.payload;
        UInt pfBeatsCnt = pfHead.info.beats;
        UInt pfOps = pfHead.info.ops;
        UInt pfLen = pfHead.info.len;
        UInt pfCell = pfHead.cell;
        UInt pfQ = pfHead.queue;
        Bool pfLastOfQueue = pfHead.lastOfQueue;
        UInt eLeft = reg("e_left", uint(13 - lb + 1)).init(0);
        UInt eLast = reg("e_last_bytes", uint(lb)).init(0);
        UInt eVc = reg("e_vc", uint(2)).init(0);
        UInt eOps = reg("e_ops", uint(12)).init(0);
        UInt eBeats = reg("e_beats", uint(12)).init(0);
        Bool rdValid = reg("rd_valid", bool()).init(false);
        Bool rdLast = reg("rd_last", bool()).init(false);
        UInt rdBytes = reg("rd_last_bytes", uint(lb)).init(0);
        Bool canRead = dataFifo.occupancy.resize(4).add(rdValid.asUInt().resize(4)).le(3).named("can_read");
        // An early-closed PDU's last cell is read no earlier than the cycle after its extra chunk
        // left the packer: the cell writer writes it in that cycle (forwarded to the read below),
        // its link was written in the packer's cycle.
        UInt eFirst = reg("e_first", uint(cw)).init(0);
        Bool readerHold = oEarly.and(eLeft.eq(1)).and(eFirst.eq(oEarlyFirst)).named("reader_hold");
        Bool contIssue = canRead.and(eLeft.ne(0)).andNot(readerHold).named("cont_issue");
        // replay requests (replay store only) go before new PDUs
        Bool rpValid = replayStore ? replay.valid : FALSE;
        ReplayReq rp = replay.payload;
        Bool startRp = canRead.and(eLeft.eq(0)).and(rpValid).and(descFifo.s.ready).andNot(bpValid)
                .named("start_replay");
        replay.ready.set(startRp);
        Bool startPf = canRead.and(eLeft.eq(0)).and(pf.m.valid).and(descFifo.s.ready).andNot(rpValid).andNot(bpValid)
                .named("start_pf");
        // Idle bypass: a PDU closed at an op's end (its queue had nothing waiting) while the reader
        // and the lists are empty starts here in the close cycle, without append / grant / pop.
        // The queue's state is left empty and not waiting (no flush will come for it).
        UInt kDestQ = kQ.shr(vw).resize(xw).named("bypass_dest");
        Bool kVcFree = vw == 0 ? vcPause.bit(0).not() : vcPause.bit(kQ.resize(vw)).not();
        Bool readerIdle = eLeft.eq(0).and(pf.occupancy.eq(0)).and(inflight.eq(0)).andNot(infoValid)
                .and(closeFifo.occupancy.eq(0)).and(listPdus.eq(0)).and(canRead).and(descFifo.s.ready)
                .and(initDone).andNot(rpValid).andNot(bpValid).named("reader_idle");
        bypassOk.set(readerIdle.and(winOpen.bit(kDestQ)).and(kVcFree));
        bypass.set(kClose.and(bypassOk));
        // The bypassed PDU starts in the cycle after its close, from registers: the close logic
        // (state forwarding -> fill -> commit) and the reader (-> desc -> transmit reliability)
        // are then two register-to-register paths instead of one. Nothing else can start in
        // between: reader_idle held in the close cycle and excludes a pending bypass.
        when(bypass, () -> {
            bpQ.set(kQ);
            bpFirst.set(kFirst);
            bpLen.set(kLen);
            bpOps.set(kOps);
            bpBeats.set(kBeats);
        });
        bpValid.set(bypass);
        Bool startIssue = startPf.or(bpValid).or(startRp).named("start_issue");
        UInt rpQ = queueOf(rp.dest.resize(xw), rp.vc, vw, qw);
        UInt xCell = mux(bpValid, bpFirst, mux(startRp, rp.cell.resize(cw), pfCell)).named("x_cell");
        UInt xLen = mux(bpValid, bpLen, mux(startRp, rp.length, pfLen)).named("x_len");
        UInt xOps = mux(bpValid, bpOps, mux(startRp, U(0, 12), pfOps)).named("x_ops");
        UInt xBeats = mux(bpValid, bpBeats, mux(startRp, U(0, 12), pfBeatsCnt)).named("x_beats");
        UInt xQ = mux(bpValid, bpQ, mux(startRp, rpQ, pfQ)).named("x_q");
        Bool issue = contIssue.or(startIssue).named("issue");
        UInt nextRd = wire("next_rd", uint(cw));
        UInt rdAddr = mux(contIssue, nextRd, xCell).named("rd_addr");
        UInt nextRdRam = cellNext.readSync(rdAddr, issue).asUInt().named("next_rd_ram");
        UInt rdAddrQ = reg("rd_addr_q", uint(cw)).init(0);
        when(issue, () -> rdAddrQ.set(rdAddr));
        Bits cellRd = cellBuf.read(rdAddr, issue, rdAddrQ);
        // the RAM's read register holds the stale pointer while the reader waits: hold the hit too
        Bool nwHit = rdValid.and(nwValid).and(nwAddr.eq(rdAddrQ)).named("nw_hit");
        // the link of an early-closed PDU's last cell, written in this cycle
        // (an early-closed op's extra chunk always takes a new cell linked from o_tail)
        Bool nwNow = oEarly.and(chunkIn).and(pTake).and(oTail.eq(rdAddrQ)).named("nw_now");
        Bool nwHeld = reg("nw_held", bool()).init(false);
        UInt nwHeldVal = reg("nw_held_val", uint(cw)).init(0);
        when(rdValid, () -> {
            nwHeld.set(nwHit.or(nwNow));
            nwHeldVal.set(mux(nwNow, newCell, nwData));
        }).elseWhen(nwNow, () -> {
            nwHeld.set(true);
            nwHeldVal.set(newCell);
        });
        nextRd.set(mux(nwNow, newCell, mux(nwHit, nwData, mux(rdValid.not().and(nwHeld), nwHeldVal, nextRdRam))));
        // beats after the first, and whether there are none, per source before the source mux
        // (the choice of the source comes late: reader state, FIFO levels)
        int lw = 13 - lb + 1;
        UInt xMoreBeats = mux(bpValid, moreBeats(bpLen, bpb, lw), mux(startRp, moreBeats(rp.length, bpb, lw),
                moreBeats(pfLen, bpb, lw))).named("x_more_beats");
        Bool xOneBeat = mux(bpValid, bpLen.le(bpb), mux(startRp, rp.length.le(bpb), pfLen.le(bpb))).named("x_one_beat");
        pf.m.ready.set(startPf);
        // The queue's open PDU is flushed (closed) when the last waiting PDU of that queue starts
        // to be read, not when it is popped: it keeps packing ops while its predecessor waits in
        // the prefetch FIFO (wire efficiency under load). When the reader has less than
        // FLUSH_AHEAD_BEATS beats ahead of that PDU, the flush goes at the pop instead: the
        // flush -> close -> append -> grant -> pop loop would otherwise outlast the work ahead.
        int bw = 13 - lb + 1 + 3;
        UInt pfBeats = reg("pf_beats", uint(bw)).init(0);
        UInt infoBeats = infoRd.len.add(bpb - 1).shr(lb).resize(bw).named("info_beats");
        UInt pfHeadBeats = pfLen.add(bpb - 1).shr(lb).resize(bw).named("pf_head_beats");
        pfBeats.set(pfBeats.add(mux(infoValid, infoBeats, U(0, bw))).sub(mux(startPf, pfHeadBeats, U(0, bw))));
        Bool flushAtStart = startPf.and(pfLastOfQueue).named("flush_at_start");
        flushAtPop.set(infoValid.and(infoLastOfQueue).andNot(flushAtStart)
                .and(eLeft.resize(bw).add(pfBeats).lt(FLUSH_AHEAD_BEATS)));
        flushFifo.s.valid.set(flushAtStart.or(flushAtPop));
        flushFifo.s.payload.set(mux(flushAtStart, pfQ, infoQ));
        assertThat(flushFifo.s.valid.not().or(flushFifo.s.ready), "flush FIFO overflow");
        TxPdu live = wire("desc_live", new TxPdu());
        live.dest.set(xQ.shr(vw).resize(10));
        live.vc.set(vw == 0 ? U(0, 2) : xQ.resize(vw).resize(2));
        live.length.set(xLen);
        live.cell.set(xCell.resize(16));
        live.ops.set(xOps);
        live.replay.set(startRp);
        live.psn.set(mux(startRp, rp.psn, U(0, 16)));
        assignLeaves(descFifo.s.payload, live);
        Bool issueLast = mux(startIssue, xOneBeat, eLeft.eq(1)).named("issue_last");
        when(startIssue, () -> {
            eFirst.set(xCell);
            eLeft.set(xMoreBeats);
            eLast.set(xLen.resize(lb));
            eVc.set(vw == 0 ? U(0, 2) : xQ.resize(vw).resize(2));
            eOps.set(xOps);
            eBeats.set(xBeats);
        }).elseWhen(contIssue, () -> eLeft.set(eLeft.sub(1)));
        rdValid.set(issue);
        rdLast.set(issueLast);
        rdBytes.set(mux(startIssue, xLen.resize(lb), eLast));
        Bits lastKeep = ByteMask.lastBeat(rdBytes, bpb).named("last_keep");
        Bits keepNow = mux(rdLast, lastKeep, B(0, bpb).not()).named("keep_now");
        // The data and desc outputs come from the FIFOs' registers (never from the RAM read data
        // and the forwarding of the same cycle): a beat read in cycle x is offered at x+1.
        Bits rdData = cellRd.and(ByteMask.expand(keepNow)).named("rd_data");
        dataFifo.s.valid.set(rdValid);
        dataFifo.s.payload.data.set(rdData);
        dataFifo.s.payload.keep.set(keepNow);
        dataFifo.s.payload.last.set(rdLast);
        assertThat(dataFifo.s.valid.not().or(dataFifo.s.ready), "data FIFO overflow");
        data.connectFrom(dataFifo.m);
        descFifo.s.valid.set(startIssue);
        desc.connectFrom(descFifo.m);
        // free after read (the replay store will replace this by free-on-ACK)
        // (registered: a bypassed one-cell PDU is read in the cycle its cell is allocated, and
        // the allocator takes no free of a cell in the cycle it hands it out)
        Bool frValid = reg("rd_free_valid", bool()).init(false);
        UInt frCell = reg("rd_free_cell", uint(cw)).init(0);
        frValid.set(issue);
        frCell.set(rdAddr);
        // replay store: cells are freed by free requests, one cell per cycle along the chain
        ReplayFreeWalker walker = replayStore ? new ReplayFreeWalker(free, cellNext, cells, xpus, bpb) : null;
        if (!replayStore) {
            free.ready.set(FALSE);
        }
        Bool wActive = replayStore ? walker.active : FALSE;
        alloc.free.valid.set(replayStore ? walker.active : frValid);
        alloc.free.payload.set(replayStore ? walker.cell : frCell);
        // per-destination freed counters (two copies: one read by the packer)
        Mem<Bits> destFreed = Mem.of(xpus, ow).named("dest_freed");
        UInt eDest = reg("e_dest2", uint(xw)).init(0);
        when(startIssue, () -> eDest.set(xQ.shr(vw).resize(xw)));
        UInt freeDest = (replayStore ? walker.dest : mux(startIssue, xQ.shr(vw).resize(xw), eDest)).named("fd_dest");
        Bool freeEv = (replayStore ? wActive : issue).named("free_ev");
        Bool dfValid = reg("df_valid", bool()).init(false);
        UInt dfDest = reg("df_dest", uint(xw)).init(0);
        UInt dfRd = destFreed.readSync(freeDest, freeEv).asUInt();
        Bool dfwValid = reg("dfw_valid", bool()).init(false);
        UInt dfwDest = reg("dfw_dest", uint(xw)).init(0);
        UInt dfwVal = reg("dfw_val", uint(ow)).init(0);
        dfValid.set(freeEv);
        dfDest.set(freeDest);
        UInt dfNew = mux(dfwValid.and(dfwDest.eq(dfDest)), dfwVal, dfRd).add(1).named("df_new");
        destFreed.write(mux(clearing, clrDest, dfDest), mux(clearing, B(0, ow), dfNew.asBits()), dfValid.or(clrDestEn));
        destFreedCopy.write(mux(clearing, clrDest, dfDest), mux(clearing, B(0, ow), dfNew.asBits()),
                dfValid.or(clrDestEn));
        dfwValid.set(dfValid);
        dfwDest.set(dfDest);
        dfwVal.set(dfNew);

        // ---- credit return --------------------------------------------------------------------
        UInt xVc = vw == 0 ? U(0, 2) : xQ.resize(vw).resize(2);
        new CreditReturn(vcs, release, issue.and(issueLast), mux(startIssue, xVc, eVc), mux(startIssue, xOps, eOps),
                mux(startIssue, xBeats, eBeats), refuseDone, rVc, rBeats);

        // ---- counters and checks -------------------------------------------------------------
        cntPdus.set(Counter.saturating("cnt_pdus_q", StatusWord.BITS, desc.fire()));
        Bool opsAddValid = reg("cnt_ops_add_valid", bool()).init(false);
        UInt opsAdd = reg("cnt_ops_add", uint(12)).init(0);
        opsAddValid.set(startIssue);
        opsAdd.set(xOps);
        UInt opsCnt = Counter.add("cnt_ops_q", StatusWord.BITS, opsAddValid, opsAdd, Counter.Overflow.SATURATE);
        cntOps.set(opsCnt);
        cntAborts.set(Counter.saturating("cnt_aborts_q", StatusWord.BITS, abortOp));
        cntBadDest.set(Counter.saturating("cnt_bad_dest_q", StatusWord.BITS, refuseDone.and(rBad)));
        cntDestLimit.set(Counter.saturating("cnt_dest_limit_q", StatusWord.BITS, refuseDone.andNot(rBad)));
        cntBadCfg.set(Counter.saturating("cnt_bad_cfg_q", StatusWord.BITS,
                wrPack.andNot(packOk).or(wrDest.andNot(destOk))));
        desc.assertProtocol("desc", true);
        data.assertProtocol("data", true);
        assertThat(startIssue.not().or(xLen.ne(0)), "PDU of length 0 at the reader");
        assertThat(bypass.not().or(closeEv), "bypass without a close");
    }

    /** Emitted as {@code sue_tx_queue}. */
    @Override
    public String moduleBaseName() {
        return "sue_tx_queue";
    }

    /** ceil(len / bytes) - 1 (len >= 1), {@code width} bits. */
    private static UInt moreBeats(UInt len, int bytes, int width) {
        return len.sub(1).shr(log2Up(bytes)).resize(width);
    }

    private static UInt queueOf(UInt dest, UInt vc, int vw, int qw) {
        return (vw == 0 ? dest : cat(dest, vc.resize(vw)).asUInt()).resize(qw);
    }
}
