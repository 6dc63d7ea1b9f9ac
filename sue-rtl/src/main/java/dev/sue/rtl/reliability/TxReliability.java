// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.pdu.AckReq;
import dev.sue.rtl.pdu.CellFree;
import dev.sue.rtl.pdu.PeerAck;
import dev.sue.rtl.pdu.ReplayReq;
import dev.sue.rtl.pdu.RhDesc;
import dev.sue.rtl.pdu.TxPdu;
import dev.sue.rtl.queue.TxQueueManager;

/**
 * Transmit reliability (go-back-N, DESIGN-RELIABILITY.md "Transmit side"): sits between the queue
 * manager (built with {@code replayStore}) and the framer, assigning PSNs and ACK information.
 * The cell buffer is the replay store: a sent PDU stays in its cells, named by its first cell,
 * until the peer acknowledges it.
 *
 * <h2>Parameters</h2>
 * {@code dataWidth} (256, 512, 1024: the data stream it gates), {@code xpus} (2..1024 connections, one per destination on the single port), {@code cells}
 * (the queue manager's cell count: the descriptor pool has one entry per cell, since every kept
 * PDU owns a distinct first cell), {@code windowMax} (1..16384: the largest WINDOW accepted).
 *
 * <h2>Ports</h2>
 * <ul>
 * <li>{@code s} (slave {@link TxPdu}) / {@code s_data}: the queue manager's PDU stream (new
 *     PDUs and replays); {@code m} (master {@link RhDesc}) / {@code m_data}: to the framer.
 *     {@code m} is combinational from {@code s} (latency 0) except that a descriptor presented
 *     and stalled is held with its payload; {@code m_data} passes {@code s_data} through,
 *     swallowing the beats of dropped PDUs (a 1-bit verdict per descriptor, 8 deep).</li>
 * <li>{@code replay} (master {@link ReplayReq}), {@code free} (master {@link CellFree}): to the
 *     queue manager (4- and 8-deep FIFOs).</li>
 * <li>{@code win} (master Flow {dest, open}): window state per connection to the scheduler:
 *     closed while {@code next_psn - una >= WINDOW} or rewinding; reopened at
 *     {@code next_psn - una < WINDOW - WINDOW/4} (hysteresis: fewer wake-ups); always open in
 *     error (queued PDUs drain and are dropped). Only changes are sent, two cycles after the
 *     engine event that causes them (the compare runs on the engine's registered write).</li>
 * <li>{@code peer_ack} (slave Flow {@link PeerAck}): ACK(rpsn) / NACK(rpsn) from the receive
 *     path. One message per peer waits in a RAM, the peers with a message in a FIFO (each at most
 *     once): a message for a peer that already has one waiting is merged into it, keeping the
 *     newer by "acknowledged up to" (NACK(r) counts as r - 1, a NACK wins a tie; messages may
 *     arrive out of order), counted in {@code cnt_ack_merged}. ACKs are cumulative, so nothing is
 *     lost, and nothing overflows.</li>
 * <li>{@code ack_req} (slave Flow {@link AckReq}): ACK info to carry to a peer (the next PDU to
 *     the peer carries it, a later request overwrites an unsent one); if no PDU to the peer leaves within ACK_PIGGYBACK_WAIT cycles an
 *     empty PDU (length 0, the peer's next PSN, not consumed) carries it.</li>
 * <li>{@code cfg_valid, cfg_addr, cfg_data, cfg_ready}: 0x0220 WINDOW (1..windowMax, default
 *     min(64, windowMax)), 0x0221 RTO (cycles, 1..2^23-1, default 8192), 0x0222 RETRY_LIMIT
 *     (0..255, default 7), 0x0223 ACK_PIGGYBACK_WAIT (0..32767, default 64); bad values ignored
 *     and counted in {@code cnt_bad_cfg}. Per connection d: {@code 0x4000|d<<4|3} NEXT_PSN
 *     (re-initialises an idle connection: next and oldest unacknowledged PSN), {@code
 *     0x4000|d<<4|9} CONN: re-initialises a connection in error whose PDUs are all freed
 *     (data[15:0] = new PSN), clearing the error. {@code cfg_ready} is low while {@code m} holds a
 *     stalled descriptor and during the reset sweep.</li>
 * <li>{@code conn_err} (master Flow, 10 bits): a connection entered the error state.
 *     {@code state_dest} (in) / {@code state} (out, {error, rewinding}): the sticky per-connection
 *     state, read combinationally.</li>
 * <li>Counters (32-bit saturating): {@code cnt_pdus} (new PDUs sent), {@code cnt_retx}
 *     (retransmitted PDUs sent), {@code cnt_ack_used/stale}, {@code cnt_nack_used/stale},
 *     {@code cnt_timeouts}, {@code cnt_retry_err}, {@code cnt_err_drop_ops} (ops dropped because
 *     their connection is in error), {@code cnt_empty} (empty PDUs), {@code cnt_stale_replay}
 *     (replays dropped because their PSN was acknowledged meanwhile), {@code cnt_ack_merged},
 *     {@code cnt_bad_cfg}.</li>
 * </ul>
 *
 * <h2>Structure (why one engine)</h2>
 * Per-connection state {next_psn, una, head, tail, resend, resend_psn, rewinding, error,
 * retries, deadline} is one asynchronous-read RAM word (LUT RAM, like the sequencer's PSN table)
 * written by a single engine that does one thing per cycle: a configuration write, a new PDU
 * (PSN, append to the connection's descriptor list), one descriptor popped by an ACK/NACK/drain
 * job (its cells freed), one replay request of a rewinding connection, or one timer-scan visit.
 * One writer and asynchronous reads make every read-modify-write hazard-free without forwarding.
 * Descriptor pool: {len, vc} and the next pointer, RAMs indexed by the PDU's first cell. A new PDU
 * costs one engine cycle, and a PDU occupies the MAC for at least one beat, so the other jobs use
 * the cycles in between; when a job and a new PDU compete they alternate.
 *
 * <h2>Timing</h2>
 * Latency 0 on the descriptor path (as the sequencer). The timer scan visits one connection per
 * free engine cycle; a connection with outstanding PDUs whose deadline (set to now + RTO on every
 * send to an empty window, ACK progress and rewind) has passed rewinds (retries + 1), or enters
 * error when retries already reached RETRY_LIMIT: its descriptors are freed by a drain job, its
 * queued PDUs drop here as they arrive (cells freed, ops counted, credits returned by the queue
 * manager as usual). Replays of PDUs acknowledged while queued are dropped at the output.
 */
public final class TxReliability extends Component {
    public static final int ADDR_WINDOW = 0x0220;
    public static final int ADDR_RTO = 0x0221;
    public static final int ADDR_RETRY_LIMIT = 0x0222;
    public static final int ADDR_ACK_WAIT = 0x0223;
    public static final int T_NEXT_PSN = 0x3;
    public static final int T_CONN = 0x9;
    public static final int RTO_DEFAULT = 8192;
    public static final int RETRY_DEFAULT = 7;
    public static final int ACK_WAIT_DEFAULT = 64;
    static final int TW = 24;

    public final Stream<TxPdu> s;
    public final Stream<PacketBeat> sData;
    public final Stream<RhDesc> m;
    public final Stream<PacketBeat> mData;
    public final Stream<ReplayReq> replay;
    public final Stream<CellFree> free;
    public final Flow<TxQueueManager.Window> win;
    public final Flow<PeerAck> peerAck;
    public final Flow<AckReq> ackReq;
    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());
    public final Flow<UInt> connErr;
    public final UInt stateDest = in(uint(10));
    public final Bits state = out(bits(2));
    public final UInt cntPdus = out(uint(32));
    public final UInt cntRetx = out(uint(32));
    public final UInt cntAckUsed = out(uint(32));
    public final UInt cntAckStale = out(uint(32));
    public final UInt cntNackUsed = out(uint(32));
    public final UInt cntNackStale = out(uint(32));
    public final UInt cntTimeouts = out(uint(32));
    public final UInt cntRetryErr = out(uint(32));
    public final UInt cntErrDropOps = out(uint(32));
    public final UInt cntEmpty = out(uint(32));
    public final UInt cntStaleReplay = out(uint(32));
    public final UInt cntAckMerged = out(uint(32));
    public final UInt cntBadCfg = out(uint(32));

    public TxReliability(int dataWidth, int xpus, int cells, int windowMax) {
        param("dataWidth", dataWidth);
        param("xpus", xpus);
        param("cells", cells);
        param("windowMax", windowMax);
        require(dataWidth == 256 || dataWidth == 512 || dataWidth == 1024,
                "dataWidth must be 256, 512 or 1024, got " + dataWidth);
        require(xpus >= 2 && xpus <= 1024, "xpus must be 2..1024, got " + xpus);
        require(cells >= 2 && cells <= 65536, "cells must be 2..65536, got " + cells);
        require(windowMax >= 1 && windowMax <= 16384, "windowMax must be 1..16384 (half the PSN space at most), got "
                + windowMax);
        s = slave(Stream.of(TxPdu::new));
        sData = slave(Stream.of(() -> new PacketBeat(dataWidth)));
        m = master(Stream.of(RhDesc::new));
        mData = master(Stream.of(() -> new PacketBeat(dataWidth)));
        replay = master(Stream.of(ReplayReq::new));
        free = master(Stream.of(CellFree::new));
        win = master(Flow.of(TxQueueManager.Window::new));
        peerAck = slave(Flow.of(PeerAck::new));
        ackReq = slave(Flow.of(AckReq::new));
        connErr = master(Flow.of(() -> uint(10)));
        latency(0);

        final int xw = log2Up(xpus);
        final int cw = log2Up(cells);
        final int ww = bitsFor(windowMax);

        // ---- configuration registers ----------------------------------------------------------
        UInt cfgVal = cfgData.asUInt();
        UInt window = reg("window", uint(ww)).init(Math.min(64, windowMax));
        UInt rto = reg("rto", uint(TW)).init(RTO_DEFAULT);
        UInt retryLimit = reg("retry_limit", uint(8)).init(RETRY_DEFAULT);
        UInt ackWait = reg("ack_wait", uint(16)).init(ACK_WAIT_DEFAULT);
        Bool clearing = wire("clearing", bool());
        Bool lock = reg("out_locked", bool()).init(false);
        cfgReady.set(lock.not().and(clearing.not()));
        Bool cfgW = cfgValid.and(cfgReady).named("cfg_w");
        Bool wWin = cfgW.and(cfgAddr.eq(ADDR_WINDOW));
        Bool wRto = cfgW.and(cfgAddr.eq(ADDR_RTO));
        Bool wRetry = cfgW.and(cfgAddr.eq(ADDR_RETRY_LIMIT));
        Bool wWait = cfgW.and(cfgAddr.eq(ADDR_ACK_WAIT));
        Bool winOk = cfgVal.ge(1).and(cfgVal.le(windowMax));
        Bool rtoOk = cfgVal.ge(1).and(cfgVal.lt(1L << (TW - 1)));
        Bool retryOk = cfgVal.le(255);
        Bool waitOk = cfgVal.le(32767);
        when(wWin.and(winOk), () -> window.set(cfgVal.resize(ww)));
        when(wRto.and(rtoOk), () -> rto.set(cfgVal.resize(TW)));
        when(wRetry.and(retryOk), () -> retryLimit.set(cfgVal.resize(8)));
        when(wWait.and(waitOk), () -> ackWait.set(cfgVal.resize(16)));
        UInt cfgDest = cfgAddr.slice(13, 4).named("cfg_dest");
        Bool cfgTable = cfgW.and(cfgAddr.slice(15, 14).eq(1)).and(inRange(cfgDest, xpus)).named("cfg_table");
        Bool cfgPsn = cfgTable.and(cfgAddr.slice(3, 0).eq(T_NEXT_PSN));
        Bool cfgConn = cfgTable.and(cfgAddr.slice(3, 0).eq(T_CONN));
        Bool cfgEv = cfgPsn.or(cfgConn).named("ev_cfg");
        UInt window16 = window.resize(16).named("window16");
        UInt winLow = window16.sub(window16.shr(2)).named("win_reopen");

        // ---- time -------------------------------------------------------------------------------
        UInt now = reg("now", uint(TW)).init(0);
        now.set(now.add(1));
        UInt now16 = now.resize(16);
        UInt deadlineNew = now.add(rto).named("deadline_new");

        // ---- per-connection state: one async-read RAM, one writer (the engine) ------------------
        // word: nps 16 | una 16 | head cw | tail cw | rsd cw | rps 16 | rew 1 | err 1 | retr 8 | dl TW
        final int sw = 16 + 16 + 3 * cw + 16 + 1 + 1 + 8 + TW;
        Mem<Bits> stMem = Mem.of(xpus, sw).named("conn_state");
        UInt clr = reg("clear_ptr", uint(bitsFor(xpus))).init(0);
        clearing.set(clr.ne(xpus));
        when(clearing, () -> clr.set(clr.add(1)));

        // ---- FIFOs --------------------------------------------------------------------------------
        int rwDepth = Math.max(4, xpus);
        FifoStorage rwStorage = rwDepth > 8 ? FifoStorage.RAM : FifoStorage.REGISTERS;
        StreamFifo<UInt> ackFifo = instance("peer_ack_fifo",
                () -> new StreamFifo<>(() -> uint(xw), rwDepth, rwStorage, rwDepth));
        StreamFifo<CellFree> freeFifo = instance("free_fifo",
                () -> new StreamFifo<>(CellFree::new, 8, FifoStorage.REGISTERS, 7));
        StreamFifo<ReplayReq> replayFifo = instance("replay_fifo",
                () -> new StreamFifo<>(ReplayReq::new, 4, FifoStorage.REGISTERS, 4));
        StreamFifo<UInt> rwFifo = instance("rewind_fifo",
                () -> new StreamFifo<>(() -> uint(xw), rwDepth, rwStorage, rwDepth));
        StreamFifo<Bits> vf = instance("verdict_fifo",
                () -> new StreamFifo<>(() -> bits(1), 8, FifoStorage.REGISTERS, 8));
        StreamFifo<Bits> pig = instance("piggyback_fifo",
                () -> new StreamFifo<>(() -> bits(xw + 16), rwDepth, rwStorage, rwDepth));
        free.connectFrom(freeFifo.m);
        replay.connectFrom(replayFifo.m);

        // peer ACKs: the newest message per peer in a RAM, the peers with one waiting in a FIFO
        // (each at most once), so a burst of ACKs coalesces instead of overflowing anything
        Mem<Bits> peerMsg = Mem.of(xpus, 17).named("peer_msg");
        Bits peerQueued = reg("peer_queued", bits(xpus)).init(0);
        Bool paOk = peerAck.valid.and(inRange(peerAck.payload.peer, xpus)).named("peer_ack_ok");
        UInt paIdx = peerAck.payload.peer.resize(xw);
        Bool paPop = ackFifo.m.fire().named("peer_pop");
        UInt paHead = ackFifo.m.payload;
        Bool paPush = paOk.and(peerQueued.bit(paIdx).not().or(paPop.and(paHead.eq(paIdx)))).named("peer_push");
        // a waiting message is replaced only by a newer one (messages may arrive out of order):
        // compare "acknowledged up to" (NACK(r) acknowledges r - 1), a NACK wins a tie
        Bool newer = supersedes(peerAck.payload.op.eq(RhDesc.OP_NACK), peerAck.payload.rpsn, peerMsg.readAsync(paIdx))
                .named("peer_newer");
        peerMsg.write(paIdx, cat(peerAck.payload.op, peerAck.payload.rpsn), paOk.and(paPush.or(newer)));
        ackFifo.s.valid.set(paPush);
        ackFifo.s.payload.set(paIdx);
        Bits paClr = mux(paPop, B(1, xpus).shl(paHead), B(0, xpus));
        Bits paSet = mux(paPush, B(1, xpus).shl(paIdx), B(0, xpus));
        peerQueued.set(peerQueued.and(paClr.not()).or(paSet));
        assertThat(paPush.not().or(ackFifo.s.ready), "peer ACK FIFO overflow");
        // a message merged with a waiting one from the same peer (the newer of the two is kept)
        cntAckMerged.set(Counter.saturating("cnt_ack_merged_q", StatusWord.BITS, paOk.andNot(paPush)));

        // ---- output stage: second read port ---------------------------------------------------
        TxPdu d = s.payload;
        Bits pending = reg("ack_pending", bits(xpus)).init(0);
        Bits pigQueued = reg("pig_queued", bits(xpus)).init(0);
        UInt pigDest = pig.m.payload.slice(xw + 15, 16).asUInt().named("pig_dest");
        UInt pigTime = pig.m.payload.slice(15, 0).asUInt();
        Bool pigExpired = pig.m.valid.and(now16.sub(pigTime).ge(ackWait)).named("pig_expired");
        Bool emptyReady = pigExpired.and(pending.bit(pigDest)).and(clearing.not()).named("empty_ready");
        Bool heldSel = reg("held_sel_empty", bool()).init(false);
        Bool selEmpty = mux(lock, heldSel, emptyReady).named("sel_empty");
        UInt sDest = d.dest.resize(xw);
        UInt oAddr = mux(selEmpty, pigDest, sDest).named("out_addr");
        Bits st2 = stMem.readAsync(oAddr);
        UInt nps2 = st2.slice(sw - 1, sw - 16).asUInt();
        UInt una2 = st2.slice(sw - 17, sw - 32).asUInt();
        Bool err2 = st2.bit(TW + 8);
        Bool outst2 = d.psn.sub(una2).lt(nps2.sub(una2)).named("replay_outstanding");
        Bool sInRange = inRange(d.dest, xpus);
        Bool dropQ = err2.or(d.replay.andNot(outst2)).or(sInRange.not()).named("drop_q");

        // ---- engine arbitration -----------------------------------------------------------------
        Bool jobValid = reg("job_valid", bool()).init(false);
        Bool turn = reg("job_turn", bool()).init(false);
        Bool jobFirst = jobValid.and(turn).andNot(lock).named("job_first_prio");
        Bool sNew = s.valid.andNot(d.replay);
        when(jobValid.and(sNew), () -> turn.set(turn.not()));
        Bool qmOk = s.valid.andNot(selEmpty).andNot(clearing).and(vf.s.ready)
                .and(d.replay.or(cfgEv.not().andNot(jobFirst).and(freeFifo.s.ready))).named("qm_ok");
        Bool mValidLive = selEmpty.or(qmOk.andNot(dropQ));
        m.valid.set(lock.or(mValidLive));
        Bool mFire = m.fire().named("m_fire");
        Bool sFire = selEmpty.not().and(mux(lock, m.ready, qmOk.and(dropQ.or(m.ready)))).named("s_fire");
        s.ready.set(sFire);
        Bool decidedDrop = lock.not().and(dropQ).named("decided_drop");
        Bool sendEv = sFire.andNot(d.replay).named("ev_send");
        Bool freeRoomJob = freeFifo.occupancy.lt(7);
        Bool jobEv = clearing.not().and(jobValid).andNot(cfgEv).andNot(sendEv).and(freeRoomJob).named("ev_job");
        Bool rwEv = clearing.not().andNot(cfgEv).andNot(sendEv).andNot(jobEv).and(rwFifo.m.valid)
                .and(replayFifo.s.ready).named("ev_rewind");
        Bool tmEv = clearing.not().andNot(cfgEv).andNot(sendEv).andNot(jobEv).andNot(rwEv).named("ev_timer");

        // ---- engine read --------------------------------------------------------------------------
        UInt jobDest = reg("job_dest", uint(xw)).init(0);
        UInt jobRpsn = reg("job_rpsn", uint(16)).init(0);
        Bool jobNack = reg("job_nack", bool()).init(false);
        Bool jobDrain = reg("job_drain", bool()).init(false);
        Bool jobStart = reg("job_start", bool()).init(false);
        UInt scan = reg("scan_ptr", uint(xw)).init(0);
        UInt rwDest = rwFifo.m.payload;
        UInt eAddr = mux(cfgEv, cfgDest.resize(xw), mux(sendEv, sDest, mux(jobEv, jobDest, mux(rwEv, rwDest, scan))))
                .named("eng_addr");
        Bits st = stMem.readAsync(eAddr).named("eng_state");
        int o0 = 0;
        UInt dl = st.slice(TW - 1, o0).asUInt().named("st_deadline");
        UInt retr = st.slice(TW + 7, TW).asUInt().named("st_retries");
        Bool err = st.bit(TW + 8);
        Bool rew = st.bit(TW + 9);
        UInt rps = st.slice(TW + 25, TW + 10).asUInt().named("st_resend_psn");
        UInt rsd = st.slice(TW + 25 + cw, TW + 26).asUInt().named("st_resend");
        UInt tail = st.slice(TW + 25 + 2 * cw, TW + 26 + cw).asUInt().named("st_tail");
        UInt head = st.slice(TW + 25 + 3 * cw, TW + 26 + 2 * cw).asUInt().named("st_head");
        UInt una = st.slice(sw - 17, sw - 32).asUInt().named("st_una");
        UInt nps = st.slice(sw - 1, sw - 16).asUInt().named("st_next_psn");
        UInt outst = nps.sub(una).named("st_outstanding");

        Mem<Bits> poolInfo = Mem.of(cells, 15).named("pool_info");
        Mem<Bits> poolNext = Mem.of(cells, cw).named("pool_next");
        UInt pAddr = mux(jobEv, head, rsd).named("pool_addr");
        Bits pInfo = poolInfo.readAsync(pAddr);
        UInt pLen = pInfo.slice(14, 2).asUInt().named("pool_len");
        UInt pVc = pInfo.slice(1, 0).asUInt();
        UInt pNext = poolNext.readAsync(pAddr).asUInt().named("pool_next_rd");

        // new values (default: unchanged)
        UInt nNps = wire("n_nps", uint(16));
        UInt nUna = wire("n_una", uint(16));
        UInt nHead = wire("n_head", uint(cw));
        UInt nTail = wire("n_tail", uint(cw));
        UInt nRsd = wire("n_rsd", uint(cw));
        UInt nRps = wire("n_rps", uint(16));
        Bool nRew = wire("n_rew", bool());
        Bool nErr = wire("n_err", bool());
        UInt nRetr = wire("n_retr", uint(8));
        UInt nDl = wire("n_dl", uint(TW));
        Bool wen = wire("st_wen", bool());
        nNps.set(nps);
        nUna.set(una);
        nHead.set(head);
        nTail.set(tail);
        nRsd.set(rsd);
        nRps.set(rps);
        nRew.set(rew);
        nErr.set(err);
        nRetr.set(retr);
        nDl.set(dl);
        wen.set(false);

        // side effects
        Bool freeSend = wire("free_send", bool());
        Bool freeJob = wire("free_job", bool());
        Bool rwPush = wire("rw_push", bool());
        Bool rwPop = wire("rw_pop", bool());
        Bool replayPush = wire("replay_push", bool());
        Bool poolWrite = wire("pool_write", bool());
        Bool linkWrite = wire("link_write", bool());
        Bool jobDone = wire("job_done", bool());
        Bool drainLoad = wire("drain_load", bool());
        Bool errEnter = wire("err_enter", bool());
        for (Bool b : new Bool[] {freeSend, freeJob, rwPush, rwPop, replayPush, poolWrite, linkWrite, jobDone,
                drainLoad, errEnter}) {
            b.set(false);
        }
        Bits rwq = reg("rewind_queued", bits(xpus)).init(0);
        UInt sCell = d.cell.resize(cw);

        // config: re-initialise a connection
        when(cfgEv, () -> {
            Bool idle = outst.eq(0);
            Bool doIt = mux(cfgConn, err.and(idle), idle);
            when(doIt, () -> {
                nNps.set(cfgVal.resize(16));
                nUna.set(cfgVal.resize(16));
                nRew.set(false);
                nErr.set(false);
                nRetr.set(U(0, 8));
                wen.set(true);
            });
        });
        // a new PDU: PSN, append to the connection's list (or drop it when in error)
        when(sendEv, () -> {
            when(err.or(decidedDrop), () -> freeSend.set(true))
                    .otherwise(() -> {
                        nNps.set(nps.add(1));
                        nTail.set(sCell);
                        poolWrite.set(true);
                        // a rewind that already reached the end continues with this PDU
                        when(rew.and(rps.eq(nps)), () -> nRsd.set(sCell));
                        when(outst.eq(0), () -> {
                            nHead.set(sCell);
                            nDl.set(deadlineNew);
                        }).otherwise(() -> linkWrite.set(true));
                        wen.set(true);
                    });
        });
        // ACK / NACK / drain job: one descriptor per cycle
        UInt target = mux(jobNack, jobRpsn.sub(1), jobRpsn).named("job_target");
        UInt acked = target.sub(una).add(1).named("job_acked");
        Bool jobOk = mux(jobDrain, TRUE, err.not().and(acked.le(outst)).and(jobNack.or(acked.ne(0))))
                .named("job_ok");
        UInt remaining = mux(jobDrain, outst, acked).named("job_remaining");
        Bool staleNow = jobEv.and(jobStart).andNot(jobOk).named("job_stale");
        when(jobEv, () -> {
            when(jobStart.andNot(jobOk), () -> jobDone.set(true))
                    .elseWhen(remaining.ne(0).and(outst.ne(0)), () -> {
                        freeJob.set(true);
                        nHead.set(pNext);
                        nUna.set(una.add(1));
                        when(rew.and(rps.eq(una)), () -> {
                            nRsd.set(pNext);
                            nRps.set(rps.add(1));
                        });
                        when(jobDrain.not(), () -> {
                            nRetr.set(U(0, 8));
                            nDl.set(deadlineNew);
                        });
                        // an ACK (not a NACK, which rewinds after its pops) ends with its last pop
                        when(jobNack.not().and(remaining.eq(1).or(outst.eq(1))), () -> jobDone.set(true));
                        wen.set(true);
                    })
                    .otherwise(() -> {
                        jobDone.set(true);
                        when(jobNack.andNot(jobDrain).and(outst.ne(0)), () -> {
                            nRew.set(true);
                            nRsd.set(head);
                            nRps.set(una);
                            nDl.set(deadlineNew);
                            rwPush.set(true);
                            wen.set(true);
                        });
                    });
        });
        // rewinding connection: one replay request per cycle
        when(rwEv, () -> {
            when(rew.not().or(err), () -> rwPop.set(true))
                    .elseWhen(rps.eq(nps), () -> {
                        rwPop.set(true);
                        nRew.set(false);
                        wen.set(true);
                    })
                    .otherwise(() -> {
                        replayPush.set(true);
                        nRsd.set(pNext);
                        nRps.set(rps.add(1));
                        wen.set(true);
                    });
        });
        // timer scan
        Bool expired = now.sub(dl).lt(1L << (TW - 1)).named("expired");
        // entering error loads the drain job, so it waits for a free job register (next scan round)
        Bool timeout = tmEv.andNot(err).and(outst.ne(0)).and(expired)
                .and(jobValid.not().or(retr.lt(retryLimit))).named("timeout");
        when(timeout, () -> {
            when(retr.ge(retryLimit), () -> {
                nErr.set(true);
                nRew.set(false);
                errEnter.set(true);
                drainLoad.set(true);
            }).otherwise(() -> {
                nRetr.set(retr.add(1));
                nRew.set(true);
                nRsd.set(head);
                nRps.set(una);
                nDl.set(deadlineNew);
                rwPush.set(true);
            });
            wen.set(true);
        });
        when(tmEv, () -> scan.set(mux(scan.eq(xpus - 1), U(0, xw), scan.add(1))));

        // state write (the reset sweep first)
        Bits word = cat(nNps, nUna, nHead, nTail, nRsd, nRps, nRew, nErr, nRetr, nDl);
        stMem.write(mux(clearing, clr.resize(xw), eAddr), mux(clearing, B(0, sw), word), clearing.or(wen));
        poolInfo.write(sCell, cat(d.length, d.vc), poolWrite);
        poolNext.write(tail, sCell.asBits(), linkWrite);

        // free requests
        freeFifo.s.valid.set(freeSend.or(freeJob));
        freeFifo.s.payload.dest.set(mux(freeSend, d.dest, eAddr.resize(10)));
        freeFifo.s.payload.cell.set(mux(freeSend, sCell, head).resize(16));
        freeFifo.s.payload.length.set(mux(freeSend, d.length, pLen));
        assertThat(freeFifo.s.valid.not().or(freeFifo.s.ready), "free FIFO overflow");
        // replay requests
        replayFifo.s.valid.set(replayPush);
        replayFifo.s.payload.dest.set(eAddr.resize(10));
        replayFifo.s.payload.vc.set(pVc);
        replayFifo.s.payload.cell.set(rsd.resize(16));
        replayFifo.s.payload.length.set(pLen);
        replayFifo.s.payload.psn.set(rps);
        // rewind queue (each connection at most once)
        Bool rwPushNow = rwPush.andNot(rwq.bit(eAddr)).named("rw_push_now");
        rwFifo.s.valid.set(rwPushNow);
        rwFifo.s.payload.set(eAddr);
        rwFifo.m.ready.set(rwPop);
        Bits rwSet = mux(rwPushNow, B(1, xpus).shl(eAddr), B(0, xpus));
        Bits rwClr = mux(rwPop, B(1, xpus).shl(rwDest), B(0, xpus));
        rwq.set(rwq.and(rwClr.not()).or(rwSet));
        assertThat(rwPushNow.not().or(rwFifo.s.ready), "rewind FIFO overflow");

        // job register
        Bool loadAck = jobValid.not().or(jobEv.and(jobDone)).and(ackFifo.m.valid).andNot(drainLoad).named("job_load");
        ackFifo.m.ready.set(loadAck);
        Bits ap = peerMsg.readAsync(paHead);
        UInt apPeer = paHead;
        when(drainLoad, () -> {
            jobValid.set(true);
            jobDest.set(eAddr);
            jobDrain.set(true);
            jobNack.set(false);
            jobStart.set(true);
        }).elseWhen(loadAck, () -> {
            jobValid.set(true);
            jobDest.set(apPeer);
            jobRpsn.set(ap.slice(15, 0).asUInt());
            jobNack.set(ap.bit(16));
            jobDrain.set(false);
            jobStart.set(true);
        }).elseWhen(jobEv, () -> {
            jobStart.set(false);
            when(jobDone, () -> jobValid.set(false));
        });
        Bool badPeer = peerAck.valid.andNot(inRange(peerAck.payload.peer, xpus));
        Bool badNack = peerAck.payload.op.eq(1);
        Bool ackUsed = jobEv.and(jobStart).and(jobOk).andNot(jobDrain);
        cntAckUsed.set(Counter.saturating("cnt_ack_used_q", StatusWord.BITS, ackUsed.andNot(jobNack)));
        cntNackUsed.set(Counter.saturating("cnt_nack_used_q", StatusWord.BITS, ackUsed.and(jobNack)));
        cntAckStale.set(Counter.saturating("cnt_ack_stale_q", StatusWord.BITS,
                staleNow.andNot(jobNack).or(badPeer.andNot(badNack))));
        cntNackStale.set(Counter.saturating("cnt_nack_stale_q", StatusWord.BITS,
                staleNow.and(jobNack).or(badPeer.and(badNack))));
        cntTimeouts.set(Counter.saturating("cnt_timeouts_q", StatusWord.BITS, timeout.andNot(errEnter)));
        cntRetryErr.set(Counter.saturating("cnt_retry_err_q", StatusWord.BITS, errEnter));
        Bool connErrV = reg("conn_err_v_q", bool()).init(false);
        UInt connErrD = reg("conn_err_d_q", uint(10)).init(0);
        connErrV.set(errEnter);
        connErrD.set(eAddr.resize(10));
        connErr.valid.set(connErrV);
        connErr.payload.set(connErrD);

        // ---- window flow --------------------------------------------------------------------
        // One cycle behind the engine, from its registered write (the open/closed compare would
        // otherwise sit at the end of the engine's read-modify-write path): events are taken in
        // engine order, so each sees the window state the one before left.
        Bool wsValid = reg("win_ev_valid", bool()).init(false);
        UInt wsDest = reg("win_ev_dest", uint(xw)).init(0);
        UInt wsOut = reg("win_ev_outstanding", uint(16)).init(0);
        Bool wsErr = reg("win_ev_err", bool()).init(false);
        Bool wsRew = reg("win_ev_rew", bool()).init(false);
        wsValid.set(wen.andNot(clearing));
        wsDest.set(eAddr);
        wsOut.set(nNps.sub(nUna));
        wsErr.set(nErr);
        wsRew.set(nRew);
        Bits winOpen = reg("win_state", bits(xpus))
                .init(java.math.BigInteger.ONE.shiftLeft(xpus).subtract(java.math.BigInteger.ONE));
        Bool wasOpen = winOpen.bit(wsDest);
        Bool openNew = wsErr.or(wsRew.not().and(mux(wasOpen, wsOut.lt(window16), wsOut.lt(winLow))))
                .named("open_new");
        Bool winChange = wsValid.and(openNew.ne(wasOpen)).named("win_change");
        Bits winSel = B(1, xpus).shl(wsDest);
        when(winChange, () -> winOpen.set(mux(openNew, winOpen.or(winSel), winOpen.and(winSel.not()))));
        Bool winV = reg("win_v_q", bool()).init(false);
        UInt winD = reg("win_d_q", uint(10)).init(0);
        Bool winO = reg("win_open_q", bool()).init(false);
        winV.set(winChange);
        winD.set(wsDest.resize(10));
        winO.set(openNew);
        win.valid.set(winV);
        win.payload.dest.set(winD);
        win.payload.open.set(winO);

        // ---- descriptor out -----------------------------------------------------------------
        UInt mDestLive = mux(selEmpty, pigDest, sDest).named("m_dest_live");
        Mem<Bits> ackMem = Mem.of(xpus, 17).named("ack_mem");
        Bits ackWord = ackMem.readAsync(mDestLive);
        Bool ackHas = pending.bit(mDestLive);
        RhDesc live = wire("live", new RhDesc());
        live.dest.set(mDestLive.resize(10));
        live.vc.set(mux(selEmpty, U(0, 2), d.vc));
        live.length.set(mux(selEmpty, U(0, 13), d.length));
        live.psn.set(mux(selEmpty.not().and(d.replay), d.psn, nps2));
        live.op.set(mux(ackHas, ackWord.slice(16, 16).asUInt().resize(2), U(RhDesc.OP_NONE, 2)));
        live.rpsn.set(mux(ackHas, ackWord.slice(15, 0).asUInt(), U(0, 16)));
        RhDesc held = reg("held", new RhDesc());
        RhDesc o = m.payload;
        assignLeaves(o, live);
        when(lock, () -> assignLeaves(o, held));
        assignLeaves(held, o);
        lock.set(m.isStall());
        heldSel.set(selEmpty);

        // ---- ACK information pending per peer, empty PDUs -------------------------------------
        Bool ackOk = ackReq.valid.and(inRange(ackReq.payload.dest, xpus)).named("ack_req_ok");
        UInt ackIdx = ackReq.payload.dest.resize(xw);
        UInt mDest = o.dest.resize(xw);
        // A request merges into the one still waiting for that peer as the peer merges what it
        // receives: the newer "acknowledged up to" wins (NACK(r) counts as r - 1) and a NACK wins
        // a tie. Overwriting lost NACKs: the receiver's coalesced ACK(r - 1), or the ACK of a
        // duplicate, that came after its NACK(r) replaced it, and the gap waited for NACK_RETRY.
        Bool oldLeaving = mFire.and(mDest.eq(ackIdx)).named("ack_old_leaving");
        Bool oldWaits = pending.bit(ackIdx).andNot(oldLeaving).named("ack_old_waits");
        Bool newWins = supersedes(ackReq.payload.op.eq(RhDesc.OP_NACK), ackReq.payload.rpsn,
                ackMem.readAsync(ackIdx)).named("ack_new_wins");
        Bool ackWrite = ackOk.and(oldWaits.not().or(newWins)).named("ack_write");
        ackMem.write(ackIdx, cat(ackReq.payload.op, ackReq.payload.rpsn), ackWrite);
        Bool ackNewQ = reg("ack_new_q", bool()).init(false);
        Bool ackNewNow = ackNewQ.and(lock).or(ackOk.and(ackIdx.eq(mDest))).named("ack_new_now");
        ackNewQ.set(m.isStall().and(ackNewNow));
        Bool clearAck = mFire.andNot(lock.and(ackNewQ)).named("clear_ack");
        Bits setMask = mux(ackOk, B(1, xpus).shl(ackIdx), B(0, xpus));
        Bits clearMask = mux(clearAck, B(1, xpus).shl(mDest), B(0, xpus));
        pending.set(pending.and(clearMask.not()).or(setMask));
        Bool pigPop = pigExpired.and(pending.bit(pigDest).not().or(mFire.and(selEmpty))).named("pig_pop");
        pig.m.ready.set(pigPop);
        Bool pigPush = ackOk.and(pigQueued.bit(ackIdx).not().or(pigPop.and(pigDest.eq(ackIdx)))).named("pig_push");
        pig.s.valid.set(pigPush);
        pig.s.payload.set(cat(ackIdx, now16));
        Bits pqClr = mux(pigPop, B(1, xpus).shl(pigDest), B(0, xpus));
        Bits pqSet = mux(pigPush, B(1, xpus).shl(ackIdx), B(0, xpus));
        pigQueued.set(pigQueued.and(pqClr.not()).or(pqSet));
        assertThat(pigPush.not().or(pig.s.ready), "piggyback FIFO overflow");

        // ---- data: pass or swallow by the verdict of its descriptor -------------------------
        vf.s.valid.set(sFire);
        vf.s.payload.set(decidedDrop.asBits());
        Bool vDrop = vf.m.payload.bit(0);
        mData.valid.set(sData.valid.and(vf.m.valid).andNot(vDrop));
        assignLeaves(mData.payload, sData.payload);
        sData.ready.set(vf.m.valid.and(vDrop.or(mData.ready)));
        vf.m.ready.set(sData.fire().and(sData.payload.last));

        // ---- state readout, counters ----------------------------------------------------------
        Bits stQ = stMem.readAsync(stateDest.resize(xw));
        state.set(cat(stQ.bit(TW + 8), stQ.bit(TW + 9)));
        cntPdus.set(Counter.saturating("cnt_pdus_q", StatusWord.BITS, sendEv.andNot(decidedDrop).andNot(err)));
        cntRetx.set(Counter.saturating("cnt_retx_q", StatusWord.BITS, mFire.andNot(selEmpty).and(d.replay)));
        cntEmpty.set(Counter.saturating("cnt_empty_q", StatusWord.BITS, mFire.and(selEmpty)));
        cntStaleReplay.set(Counter.saturating("cnt_stale_replay_q", StatusWord.BITS,
                sFire.and(d.replay).and(decidedDrop)));
        Bool dropEv = sendEv.and(decidedDrop).named("err_drop");
        cntErrDropOps.set(Counter.add("cnt_err_drop_ops_q", StatusWord.BITS, dropEv, d.ops, Counter.Overflow.SATURATE));
        cntBadCfg.set(Counter.saturating("cnt_bad_cfg_q", StatusWord.BITS,
                wWin.andNot(winOk).or(wRto.andNot(rtoOk)).or(wRetry.andNot(retryOk))
                .or(wWait.andNot(waitOk))));
        m.assertProtocol("m", true);
        assertThat(sFire.not().or(d.length.ne(0)), "a PDU of length 0 from the queue manager");
    }

    /**
     * Whether ACK information {op = NACK if {@code nack}, rpsn} replaces {@code old} ({op[16],
     * rpsn[15:0]}): it acknowledges more (NACK(r) acknowledges r - 1; serial arithmetic over
     * half the PSN space), or as much and is a NACK (which also asks for a resend).
     */
    private static Bool supersedes(Bool nack, UInt rpsn, Bits old) {
        UInt oldUpTo = mux(old.bit(16), old.slice(15, 0).asUInt().sub(1), old.slice(15, 0).asUInt());
        UInt newUpTo = mux(nack, rpsn.sub(1), rpsn);
        UInt ahead = newUpTo.sub(oldUpTo);
        return ahead.ne(0).and(ahead.lt(0x8000)).or(ahead.eq(0).and(nack));
    }

    /** Emitted as {@code sue_tx_reliability}. */
    @Override
    public String moduleBaseName() {
        return "sue_tx_reliability";
    }

    private static Bool inRange(UInt dest, int xpus) {
        return xpus >= 1024 ? TRUE : dest.lt(xpus);
    }

}
