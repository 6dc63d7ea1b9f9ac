// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.LutCompare;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.pdu.CellFree;
import dev.sue.rtl.pdu.ReplayReq;
import dev.sue.rtl.pdu.TxPdu;
import dev.sue.rtl.xpu.CreditRelease;
import dev.sue.rtl.xpu.XpuTxBus;
import dev.sue.rtl.xpu.XpuTxOp;

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
 *     is refused: dropped and counted in {@code cnt_dest_limit}, its credits returned (its
 *     chunks are packed and rolled back like an aborted op's). The verdict is registered: while
 *     fewer cells are in use than DEST_LIMIT - {@code kMax} every op is admitted at once, above
 *     that an op's first chunk waits one cycle for it.
 * <li>{@code win} (Flow {dest, open}): connection window of a destination; all open after reset.
 *     A queue granted while its window is closed is parked; opening wakes every VC of it.
 * <li>{@code vc_pause} (Bits(vcs), level): a paused VC is not scheduled (registered on entry: a
 *     pause reaches the scheduler and the idle bypass in the cycle after it is raised).
 * <li>Counters (32-bit saturating): {@code cnt_pdus} (descs emitted), {@code cnt_ops} (ops in
 *     emitted PDUs), {@code cnt_aborts} (aborted ops rolled back), {@code cnt_bad_dest},
 *     {@code cnt_dest_limit} (ops refused because their destination holds DEST_LIMIT cells),
 *     {@code cnt_bad_cfg} (refused configuration writes, counted a cycle after the write).
 * </ul>
 *
 * <h2>Structure</h2>
 * One named stage class per job, built in data-flow order by this constructor (which keeps only
 * the configuration registers, the shared RAMs and sub-blocks, the frees and the counters):
 * {@link OpFormatter} (one chunk per op beat: chunk 0 = the control bytes + data beat 0) ->
 * {@link PackerInput} (register R: a chunk or a flush; the per-queue state RAM and the
 * destination counts are read in the same cycle) -> {@link Packer} (decides the chunk's fill
 * offset, cells and the PDU's fate; per-queue state {open PDU first cell, tail cell, length, ops,
 * beats, waiting} in one sync RAM with one-deep forwarding; {@link SpareCells} for rollback,
 * {@link DestOccupancy} for DEST_LIMIT) -> {@link CellBuffer} (one cycle later: rotates the chunk
 * to the fill offset and writes it in one cycle even across two cell boundaries, two banks by cell
 * parity of byte lanes with their own write address; links in {@link CellLinks}) -> close FIFO ({@link ClosedPdu}) -> {@link ListEngine} ({@link QueueLists}
 * at PDU granularity, a PDU named by its first cell, its {len, ops, beats} in a RAM at that
 * address; {@link ActiveScheduler} with registered events and the done FIFO ({@link DoneEvent});
 * pop, PDU info prefetch into an 8-entry FIFO, room for a pop decided a cycle ahead) ->
 * {@link Reader} (one cell per cycle following the cell next-pointer RAM, no bubble between
 * PDUs; flushes back to the packer; the idle bypass). Cells come from two {@link CellAllocator}s,
 * one per cell parity (a chain's cells alternate parity, {@link CellSource}); cells
 * of an aborted op are kept in the spare list and reused by the next allocations (rollback
 * without frees). Cells are freed as they are read ({@code free-after-read}; the free reaches
 * the allocator one cycle after the read is issued) or, in replay-store mode, by the free walker
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
 * links of the same cycle. Everything else takes
 * the list path.
 *
 * <p><b>Packing / work conservation.</b> At an op's end the queue's open PDU is closed when the
 * queue has no closed PDU waiting ({@code waiting} = 0). When the reader starts reading the last
 * waiting PDU of a queue it sends a flush for that queue to the packer, which closes the open PDU
 * (or clears {@code waiting}); flushing at the start rather than at the pop lets the open PDU
 * keep packing while its predecessor waits in the prefetch FIFO (at the pop when the reader has
 * less than {@value #FLUSH_AHEAD_BEATS} beats ahead). A flush rides on the first chunk of the next op
 * of its queue when that op comes within {@value #FLUSH_MERGE_WAIT} cycles (the open PDU is closed
 * before the op, as for the pack limit), so it costs the input no cycle; otherwise (no chunk
 * offered, the wait over, more than {@value #FLUSH_MERGE_BEHIND} flushes behind it, under a quarter
 * of the buffer free) it takes
 * the packer's input register for a cycle, between ops or between beats of an op of another
 * queue. An op that would push the open PDU past the limit closes it first.
 * An op takes one packer cycle per beat: its first chunk carries the control bytes and the whole
 * data beat 0 (up to B + 18 bytes), so its last chunk is its last beat and every op size has the
 * same latency.
 *
 * <p><b>Timing.</b> Idle system: an op whose last beat is at {@code s} in cycle t has its desc
 * valid at t+{@value #IDLE_LATENCY_DESC} and its first data beat at t+{@value #IDLE_LATENCY}
 * (idle bypass, any op size; measured by the testbench). Through the lists (reader or lists busy): desc
 * t+11, data t+12 at the earliest (the scheduler's events are registered too). Back to back: one data beat per cycle across PDUs while PDUs
 * are waiting.
 */
public final class TxQueueManager extends Component {
    public static final int IDLE_LATENCY_DESC = 3;
    public static final int IDLE_LATENCY = 4;
    public static final int ADDR_PACK_LIMIT = 0x0200;
    /** Smallest legal PACK_LIMIT: the largest op (18 control + 256 data bytes). */
    public static final int PACK_LIMIT_MIN = XpuTxBus.MAX_OP_BYTES;
    public static final int ADDR_DEST_LIMIT = 0x0201;
    /** Work ahead of the reader below which a queue's flush is sent at the pop (see reader). */
    public static final int FLUSH_AHEAD_BEATS = 32;
    /**
     * Cycles a flush waits at the flush FIFO's head for the next op of its queue (merged into that
     * op's first chunk) while chunks of other queues are offered; then it takes the packer's input
     * register for a cycle of its own.
     */
    public static final int FLUSH_MERGE_WAIT = 8;
    /**
     * Flushes that may queue behind a flush waiting at the head for a merge, where a 64-byte write
     * is one input chunk (B >= 64: 512 bits and wider); one more and the head takes the input on its
     * own, so a flush waits at most (1 + this) x {@link #FLUSH_MERGE_WAIT} cycles for merges. With
     * small PDUs (a fast MAC) the reader flushes several queues in turn: with none allowed behind,
     * the head mostly went on its own, an input cycle per PDU where an op is one cycle (64-byte
     * writes at 1024 bits, MAC always ready: 0.946 ops per cycle, PDUs of 2.6 ops); with one, 0.997
     * (`tx_bench.py`, three seeds each), wire efficiency unchanged. Narrower buses keep none: an
     * op is several chunks there, a flush's own cycle costs a fraction of one, and the longer waits
     * cost packing (256 bits, MAC ready a quarter of the cycles: 0.960 -> 0.945 of ideal).
     */
    public static final int FLUSH_MERGE_BEHIND = 1;
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

        /**
         * An op's first chunk closes the open PDU before it: the PDU is non-empty and longer than
         * {@code room} (0 when a flush rides on the chunk).
         */
        Bool closesBefore(UInt room) {
            // Depth: from gates (LutCompare), not a carry chain from q_state's read: ABC let the
            // close decision behind the chain grow to the design's bound (256 bits: 8.5 levels)
            return len.ne(0).and(LutCompare.greater(len, room));
        }

        /**
         * An op's first chunk of {@code nMinus1} + 1 bytes on this word takes a new cell (A): the
         * open PDU is closed before it (room or a flush: the chunk starts a PDU), ends on a cell
         * boundary, or the chunk crosses one.
         */
        Bool needsCell(UInt room, UInt nMinus1, int bytes) {
            UInt fill = len.resize(log2Up(bytes));
            UInt sum = crossSum(fill, nMinus1);
            int lb = log2Up(bytes);
            return closesBefore(room).or(fill.eq(0)).or(sum.bit(lb)).or(sum.bit(lb + 1));
        }

        /**
         * ... and a second one (B): a chunk of more than B bytes ({@code wide}) starting a cell,
         * or a chunk crossing two cell boundaries (fill + n > 2B).
         */
        Bool needsSecondCell(UInt room, UInt nMinus1, Bool wide, int bytes) {
            UInt fill = len.resize(log2Up(bytes));
            return mux(closesBefore(room).or(fill.eq(0)), wide, crossSum(fill, nMinus1).bit(log2Up(bytes) + 1));
        }

        /**
         * fill + (n - 1) with two bits above the cell's offset: bit lb is set when the chunk
         * crosses one cell boundary (fill + n > B, no carry at fill 0 with n <= B), bit lb + 1
         * when it crosses two (fill + n > 2B); one carry chain and no compare.
         */
        static UInt crossSum(UInt fill, UInt nMinus1) {
            int lb = fill.width();
            return fill.resize(lb + 2).add(nMinus1.resize(lb + 2));
        }

        void set(Bool isWaiting, UInt firstCell, UInt tailCell, UInt bytes, UInt opCount, UInt beatCount) {
            waiting.set(isWaiting);
            first.set(firstCell);
            tail.set(tailCell);
            len.set(bytes);
            ops.set(opCount);
            beats.set(beatCount);
        }

        /**
         * No open PDU; {@code isWaiting}: a closed one waits. {@code lastCell}: the queue's last
         * cell, kept so that its next PDU's first cell takes the other parity (a queue's cells
         * then alternate parity, and the two parities are used alike).
         */
        void setNoPdu(boolean isWaiting, UInt lastCell) {
            waiting.set(isWaiting);
            first.set(0);
            tail.set(lastCell);
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
        /**
         * The PDU is one beat long, or two ({@code info.len} against the beat), tested as the
         * entry is written: the reader's issue decision takes them from the FIFO's head with no
         * compare after its output mux (prefetch head -> length compare -> e_left_one was 8.25
         * levels in the whole endpoint).
         */
        final Bool oneBeat = bool();
        final Bool twoBeats = bool();
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
    /**
     * Free cells in the buffer (the allocators' counts and the cells they have handed to the
     * packer's prefetch and not taken), as they were a cycle ago: for status and tests.
     */
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
        final QueueGeometry g = QueueGeometry.of(dataWidth, xpus, vcs, cells);
        final int kMax = g.kMax();
        require(cells >= 2 * kMax + 4 && cells <= 65536 && cells % 2 == 0,
                "cells must be even, " + (2 * kMax + 4) + "..65536 for dataWidth " + dataWidth + ", got " + cells);
        final int dw = g.dw();
        final long capBytes = Math.min(4096L, (long) (cells / 2 - 1) * g.bytes());
        // cells >= 2K+4 gives (cells/2-1)*B >= (K+1)*B > 274: every op fits the effective limit
        require(capBytes >= PACK_LIMIT_MIN, "internal: buffer cap below the largest op");

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
        CellLinks cellNext = new CellLinks(cells);
        Mem<PduInfo> pduInfo = Mem.of(cells, new PduInfo()).named("pdu_info");
        // one free list per cell parity (cell = 2 x index + parity): the packer takes up to one
        // cell of each per cycle, see Packer
        CellAllocator alloc0 = instance("alloc0", () -> new CellAllocator(cells / 2));
        CellAllocator alloc1 = instance("alloc1", () -> new CellAllocator(cells / 2));
        QueueLists lists = instance("lists", () -> new QueueLists(xpus, vcs, cells));
        ActiveScheduler sched = instance("sched", () -> new ActiveScheduler(xpus, vcs));
        // vc_pause is registered on entry: the scheduler's selection and the bypass decision
        // start from flip-flops (a pause takes effect one cycle later)
        Bits vcPauseQ = reg("vc_pause_q", bits(vcs)).init(0);
        vcPauseQ.set(vcPause);
        sched.pause.set(vcPauseQ);
        Bool initDone = lists.initDone.and(sched.initDone).named("init_done");
        // flush requests from the reader to the packer
        StreamFifo<UInt> flushFifo = instance("flush_fifo",
                () -> new StreamFifo<>(() -> uint(g.qw()), 10, FifoStorage.REGISTERS, 10));

        // ---- the stages ------------------------------------------------------------------------
        OpFormatter formatter = new OpFormatter(s.payload, s.valid, g.bytes());
        Bool mergeRoom = reg("merge_room", bool()).init(true);

        PackerInput packerInput = new PackerInput(g, s, formatter, flushFifo, effLimit, mergeRoom);
        Packer packer = new Packer(g, packerInput, alloc0, alloc1, cellNext, pduInfo, destLimit);
        mergeRoom.set(packer.freeOrHeldQ.ge(cells / 4));
        // the packer's registered sum, a cycle late: the held count subtracts the pending pop
        // (a late take), and summed here it ran on into the status window's word mux (9.0 levels
        // in the whole endpoint at 512 bits x 1024 XPUs, issue 13); a status level may lag
        freeCells.set(packer.freeOrHeldQ);
        ListEngine listEngine = new ListEngine(g, lists, sched, packer.closeFifo, flushFifo, pduInfo, win, initDone);
        Reader reader = new Reader(g, packerInput, packer, listEngine, packer.closeFifo, flushFifo, cellNext, packer.cellBuf,
                replay, replayStore, desc, data, vcPauseQ, initDone);

        // ---- cell frees: after the read, or by the free walker (replay store) ----------------
        // (after the read: registered, since a bypassed one-cell PDU is read in the cycle its cell
        // is allocated, and the allocator takes no free of a cell in the cycle it hands it out)
        Bool frValid = reg("rd_free_valid", bool()).init(false);
        UInt frCell = reg("rd_free_cell", uint(g.cw())).init(0);
        frValid.set(reader.issue);
        frCell.set(reader.rdAddr);
        ReplayFreeWalker walker = replayStore ? new ReplayFreeWalker(free, cellNext, cells, xpus, g.bytes()) : null;
        if (!replayStore) {
            free.ready.set(FALSE);
        }
        Bool freeValid = replayStore ? walker.active : frValid;
        UInt freeCell = replayStore ? walker.cell : frCell;
        alloc0.free.valid.set(freeValid.andNot(freeCell.bit(0)));
        alloc1.free.valid.set(freeValid.and(freeCell.bit(0)));
        alloc0.free.payload.set(freeCell.shr(1).resize(g.cw() - 1));
        alloc1.free.payload.set(freeCell.shr(1).resize(g.cw() - 1));
        UInt freeDest = (replayStore ? walker.dest : reader.readDest).named("fd_dest");
        Bool freeEv = (replayStore ? walker.active : reader.issue).named("free_ev");
        packer.occupancy.countFree(freeEv, freeDest);

        // ---- credit return --------------------------------------------------------------------
        new CreditReturn(vcs, release, reader.issue.and(reader.issueLast), reader.pduVc, reader.pduOps,
                reader.pduBeats, packer.refuseDone, packerInput.rVc, packerInput.rBeats);

        // ---- counters and checks -------------------------------------------------------------
        cntPdus.set(Counter.saturating("cnt_pdus_q", StatusWord.BITS, desc.fire()));
        Bool opsAddValid = reg("cnt_ops_add_valid", bool()).init(false);
        UInt opsAdd = reg("cnt_ops_add", uint(12)).init(0);
        opsAddValid.set(reader.startIssue);
        opsAdd.set(reader.startOps);
        UInt opsCnt = Counter.add("cnt_ops_q", StatusWord.BITS, opsAddValid, opsAdd, Counter.Overflow.SATURATE);
        cntOps.set(opsCnt);
        cntAborts.set(Counter.saturating("cnt_aborts_q", StatusWord.BITS, packer.abortOp));
        cntBadDest.set(Counter.saturating("cnt_bad_dest_q", StatusWord.BITS, packer.refuseDone.and(packerInput.rBad)));
        cntDestLimit.set(Counter.saturating("cnt_dest_limit_q", StatusWord.BITS,
                packer.refuseDone.andNot(packerInput.rBad)));
        // a refused write is counted a cycle later, each register's verdict registered on its own:
        // the 32-bit range compares on cfg_data, their OR and the counter's carry are then
        // separate paths (8.5 levels as one in yosys, sue_tx 512 x 64)
        cntBadCfg.set(Counter.saturatingLate("cnt_bad_cfg_q", StatusWord.BITS, wrPack.andNot(packOk),
                wrDest.andNot(destOk)));
        desc.assertProtocol("desc", true);
        data.assertProtocol("data", true);
        assertThat(reader.startIssue.not().or(reader.startLen.ne(0)), "PDU of length 0 at the reader");
        assertThat(packer.bypass.not().or(packer.closeEv), "bypass without a close");
    }

    /** Emitted as {@code sue_tx_queue}. */
    @Override
    public String moduleBaseName() {
        return "sue_tx_queue";
    }
}
