// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.xpu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.rtl.config.CfgBus;
import dev.sue.rtl.config.StatusWord;
import java.util.ArrayList;
import java.util.List;

/**
 * XPU-to-SUE transmit interface (spec Table 1, "credit FIFO" option) with command decode,
 * protocol checks, per-VC credits and violation counters. Output: a stream of ops
 * ({@link XpuTxOp}) for the enqueue stage, committed or aborted at their last beat.
 *
 * <h2>Parameters</h2>
 * <ul>
 * <li>{@code dataWidth} N: 128, 256, 512, 1024 or 2048 ({@code tx_data} width; B = N/8 bytes
 *     per beat; an op carries 1..256 data bytes in ceil(len/B) beats).
 * <li>{@code vcs}: 1, 2 or 4 (default 4) virtual channels in use; VCs {@code >= vcs} get no
 *     credits (an op on them is a no-credit violation).
 * <li>{@code cmdCredits}: 1..4095, command credits per VC after reset (ops the buffer behind
 *     accepts per VC).
 * <li>{@code dataCredits}: 1..4095, data credits per VC after reset (one per {@code tx_data}
 *     beat).
 * <li>{@code fifoDepth}: 2..4096, beats of the output FIFO that absorbs downstream stalls
 *     (registers up to 8, RAM above). It never overflows when
 *     {@code vcs * (cmdCredits + dataCredits) <= fifoDepth} (every beat the XPU may send has a
 *     place whatever the buffer behind does); otherwise an op that does not fit when it starts
 *     is dropped and counted ({@code cnt_overflow}).
 * </ul>
 *
 * <h2>XPU side</h2>
 * Ports {@code tx_*}: {@link XpuTxBus}, the signal table with every encoding ({@code tx_*}
 * violations are counted as below).
 *
 * <p>Credit rule: the first beat of an op takes one command credit of tx_vc; every beat with
 * tx_valid = 2 takes one data credit of the op's VC (a beat with tx_cycle != 0 uses the VC of
 * the latest first beat). A beat without the credit it needs is a violation that drops its op;
 * a first beat that has one kind of credit but not the other still takes the one it has, and it
 * comes back like every refund. Credits
 * of dropped or aborted ops are returned to the XPU by this block itself; the buffer behind
 * returns those of committed ops through {@code release}. Each VC has its own credits, so a
 * full VC never blocks another. Returned credits go out on {@code tx_credit} from the third
 * cycle after the drop, abort or tx_reset_in (the second after a {@code release}), up to 4 per
 * message, one message per cycle, round robin over the {VC, kind} slots, a slot at most every
 * second cycle ({@link XpuTxCredits}).
 *
 * <h2>Other ports</h2>
 * <ul>
 * <li>{@code cfg_valid}, {@code cfg_addr[7:0]} (command type), {@code cfg_data[4:0]} =
 *     {data_present, ctrl_len_units[3:0]}, {@code cfg_ready} (always 1): a {@link CfgBus} window
 *     (the endpoint's {@code 0x0100 + type}) that writes the command table. Units 1..9 (2..18 control
 *     bytes) make the type valid; units 0 or > 9, or type 0x00, are rejected (cnt_cfg_reject)
 *     and leave the type invalid. All types are invalid after reset.
 * <li>{@code release} (Flow of {@link CreditRelease}): credits freed by the buffer behind.
 * <li>{@code m} (Stream of {@link XpuTxOp}): the ops, see there for commit/abort.
 * <li>32-bit saturating counters, reset by rst only: cnt_ok (ops committed), cnt_err,
 *     cnt_no_credit, cnt_reserved, cnt_bad_cycle, cnt_long, cnt_short, cnt_bad_type, cnt_pad,
 *     cnt_mismatch, cnt_overflow, cnt_cfg_reject.
 * </ul>
 *
 * <h2>Checks (each op dropped counts exactly one reason)</h2>
 * First beat (tx_cycle = 0), in priority order: tx_err (cnt_err); type 0x00 (cnt_pad); type
 * invalid in the table (cnt_bad_type); tx_valid = 1 for a type with data or 2 for a type
 * without (cnt_mismatch); no command credit, or no data credit for tx_valid = 2
 * (cnt_no_credit); not enough output FIFO space for the op's beats (cnt_overflow). Such an op
 * leaves nothing on {@code m}. Later beats: the expected next beat (tx_valid = 2, tx_cycle =
 * previous + 1) with tx_err (cnt_err) or without a data credit (cnt_no_credit); a beat with
 * another tx_cycle != 0 (cnt_bad_cycle); tx_valid = 3 (cnt_reserved); an idle cycle or a new
 * first beat before the declared length is complete (cnt_short); a beat with tx_cycle != 0
 * right after the last declared beat (cnt_long). Such an op ends on {@code m} with
 * {@code last = abort = 1}. After a dropped or aborted op, further beats with tx_cycle != 0 are
 * discarded without counting until an idle cycle or a first beat. A beat with tx_cycle != 0
 * outside any op is counted once (cnt_bad_cycle) and likewise starts discarding.
 *
 * <h2>Latency and throughput</h2>
 * A beat at the input at cycle t is held one cycle (its fate, last or abort, depends on the next
 * cycle's input) and pushed into the output FIFO at the end of cycle t+1: it appears on
 * {@code m} at cycle t+2 (register FIFO, depth <= 8) or t+3 (RAM FIFO). One beat per cycle
 * in and out; output beats map 1:1 to input beats, so back-to-back ops need no more than one
 * output beat per cycle.
 */
public final class XpuTxInterface extends Component {
    public static final int VCS = 4;
    /**
     * The deepest output FIFO ({@code fifoDepth}): {@code SueTx.maxXpuFifo} at 256 bits (SueTx builds
     * at most 2048 beats, a plane of 4 ports x 4 VCs holding four one-port pools).
     */
    public static final int MAX_FIFO_DEPTH = 4096;

    /**
     * A command-table word, also the layout of {@code cfg_data}: whether the type carries data,
     * its control length in 2-byte units. The RX copy of the table ({@code RxCommandTable})
     * reads its configuration writes with the same layout.
     */
    public static final class CmdEntry extends Bundle {
        public final Bool dataPresent = bool();
        public final UInt units = uint(4);

        @Override
        public CmdEntry copyType() {
            return new CmdEntry();
        }
    }

    /** The XPU side, ports {@code tx_*}. */
    public final XpuTxBus tx;
    /** The command table's window of the configuration space: ports {@code cfg_*}; always ready. */
    public final CfgBus cfg = slave(new CfgBus(8, new CmdEntry().bitWidth())).named("cfg");

    public final Flow<CreditRelease> release;
    public final Stream<XpuTxOp> m;

    public final UInt cntOk = out(uint(32));
    public final UInt cntErr = out(uint(32));
    public final UInt cntNoCredit = out(uint(32));
    public final UInt cntReserved = out(uint(32));
    public final UInt cntBadCycle = out(uint(32));
    public final UInt cntLong = out(uint(32));
    public final UInt cntShort = out(uint(32));
    public final UInt cntBadType = out(uint(32));
    public final UInt cntPad = out(uint(32));
    public final UInt cntMismatch = out(uint(32));
    public final UInt cntOverflow = out(uint(32));
    public final UInt cntCfgReject = out(uint(32));

    public XpuTxInterface(int dataWidth, int cmdCredits, int dataCredits, int fifoDepth) {
        this(dataWidth, VCS, cmdCredits, dataCredits, fifoDepth);
    }

    /**
     * An interface for an endpoint with {@code vcs} (1, 2 or 4) virtual channels: VCs
     * {@code >= vcs} get no credits, so an op sent on them is a no-credit violation (dropped,
     * counted in cnt_no_credit) and never reaches the queues.
     */
    public XpuTxInterface(int dataWidth, int vcs, int cmdCredits, int dataCredits, int fifoDepth) {
        param("dataWidth", dataWidth);
        param("vcs", vcs);
        require(vcs == 1 || vcs == 2 || vcs == 4, "vcs must be 1, 2 or 4, got " + vcs);
        param("cmdCredits", cmdCredits);
        param("dataCredits", dataCredits);
        param("fifoDepth", fifoDepth);
        require(dataWidth >= 128 && dataWidth <= 2048 && isPowerOfTwo(dataWidth),
                "dataWidth must be 128, 256, 512, 1024 or 2048, got " + dataWidth);
        require(cmdCredits >= 1 && cmdCredits <= 4095, "cmdCredits must be 1..4095, got " + cmdCredits);
        require(dataCredits >= 1 && dataCredits <= 4095, "dataCredits must be 1..4095, got " + dataCredits);
        require(fifoDepth >= 2 && fifoDepth <= MAX_FIFO_DEPTH, "fifoDepth must be 2.." + MAX_FIFO_DEPTH + ", got " + fifoDepth);
        final int bytesPerBeat = dataWidth / 8;
        final int lb = log2Up(bytesPerBeat);
        final int cw = bitsFor(Math.max(cmdCredits, dataCredits));
        tx = slave(new XpuTxBus(dataWidth)).named("tx");
        release = slave(Flow.of(() -> new CreditRelease(cw)));
        m = master(Stream.of(() -> new XpuTxOp(dataWidth)));
        FifoStorage storage = FifoStorage.forDepth(fifoDepth);
        latency(storage == FifoStorage.REGISTERS ? 2 : 3);

        // ---- command table ----------------------------------------------------------------
        Mem<CmdEntry> table = Mem.of(256, new CmdEntry()).named("cmd_table");
        Bits typeValid = reg("type_valid", bits(256)).init(0);
        CmdEntry cfgEntry = wire("cfg_entry", new CmdEntry());
        assignFromBits(cfgEntry, cfg.data);
        Bool cfgOk = cfgEntry.units.ne(0).and(cfgEntry.units.le(9)).and(cfg.addr.ne(0)).named("cfg_ok");
        table.write(cfg.addr, cfgEntry, cfg.valid.and(cfgOk));
        cfg.ready.set(TRUE);
        Bits cfgSel = OneHot.decode(cfg.addr, 256).named("cfg_sel");
        when(cfg.valid, () -> typeValid.set(typeValid.and(cfgSel.not())
                .or(mux(cfgOk, cfgSel, B(0, 256)))));

        // ---- state ----------------------------------------------------------------------------
        Bool heldValid = reg("held_valid", bool()).init(false);
        Bool heldLast = reg("held_last", bool()).init(false);
        // the tx_cycle the held op's next beat must carry (held index + 1, kept as a register:
        // no adder before the compare that decides the next beat's fate)
        UInt heldNextIdx = reg("held_next_idx", uint(4)).init(1);
        // beats of the op after the held one, and the keep of its last beat: the next beat's
        // fate and keep without an adder or a compare of the remainder on the way
        UInt heldLeft = reg("held_left", uint(5)).init(0);
        Bits heldLastKeep = reg("held_last_keep", bits(bytesPerBeat));
        UInt heldDest = reg("held_dest", uint(XpuTxBus.XPUID_BITS));
        UInt heldCtrlLen = reg("held_ctrl_len", uint(5));
        UInt heldDataLen = reg("held_data_len", uint(9));
        UInt heldTotalLen = reg("held_total_len", uint(9));
        Bits heldControl = reg("held_control", bits(XpuTxBus.CONTROL_BITS));
        Bits heldData = reg("held_data", bits(dataWidth));
        Bits heldKeep = reg("held_keep", bits(bytesPerBeat));
        UInt opDataTaken = reg("op_data_taken", uint(5)).init(0);
        UInt opVc = reg("op_vc", uint(2)).init(0);
        Bool discard = reg("discard", bool()).init(false);
        Bool resetOut = reg("reset_out", bool()).init(true);
        XpuTxCredits credits = new XpuTxCredits(vcs, cmdCredits, dataCredits, cw);

        // ---- this cycle's beat ----------------------------------------------------------------
        Bool live = tx.resetIn.not().named("live");
        Bool isRes = live.and(tx.valid.eq(3)).named("is_reserved");
        Bool isCmd = live.and(tx.valid.eq(1).or(tx.valid.eq(2))).named("is_cmd");
        Bool hasData = tx.valid.eq(2).named("has_data");
        Bool c0 = tx.cycle.eq(0);
        Bool start = isCmd.and(c0).named("start");
        Bool cont = isCmd.andNot(c0).named("cont");
        Bool idle = live.and(tx.valid.eq(0)).named("idle");
        UInt beatVc = mux(start, tx.vc, opVc).named("beat_vc");
        Bool cmdAvail = credits.cmdAvail(tx.vc).named("cmd_avail");
        Bool dataAvail = mux(start, credits.dataAvail(tx.vc), credits.dataAvail(opVc)).named("data_avail");
        Bool takeCmd = start.and(cmdAvail).named("take_cmd");
        Bool takeData = isCmd.and(hasData).and(dataAvail).named("take_data");

        // decode (meaningful on a first beat)
        UInt type = tx.control.slice(7, 0).asUInt().named("cmd_type");
        CmdEntry entry = table.readAsync(type).named("cmd_entry");
        Bool entryValid = typeValid.bit(type).named("entry_valid");
        UInt ctrlLen = entry.units.resize(5).shl(1).named("ctrl_len");
        UInt lenM1 = tx.control.slice(15, 8).asUInt();
        UInt dataLen = mux(hasData, lenM1.resize(9).add(1), U(0, 9)).named("data_len");
        // beats after the first: the length's beat index for data, none without
        UInt laterBeats = mux(hasData, lb >= 8 ? U(0, 5) : lenM1.shr(lb).resize(5), U(0, 5)).named("later_beats");
        UInt rem = lenM1.resize(lb).named("rem");
        UInt totalLen = ctrlLen.resize(9).add(dataLen).add(dataLen.bit(0).asUInt().resize(9)).named("total_len");

        // ---- the held op's fate ---------------------------------------------------------------
        Bool incomplete = heldValid.andNot(heldLast).named("incomplete");
        Bool seqOk = cont.and(hasData).and(tx.cycle.eq(heldNextIdx)).named("seq_ok");
        Bool contGood = incomplete.and(seqOk).andNot(tx.err).and(dataAvail).named("cont_good");
        Bool rErrH = incomplete.and(seqOk).and(tx.err);
        Bool rNoCreditH = incomplete.and(seqOk).andNot(tx.err).andNot(dataAvail);
        Bool rBadCycleH = incomplete.and(cont).andNot(seqOk);
        Bool rReservedH = incomplete.and(isRes);
        Bool rShortH = incomplete.and(idle.or(start));
        Bool rLongH = heldValid.and(heldLast).and(cont);
        Bool abortHeld = rErrH.or(rNoCreditH).or(rBadCycleH).or(rReservedH).or(rShortH).or(rLongH)
                .or(incomplete.and(tx.resetIn)).named("abort_held");

        // ---- first-beat checks ----------------------------------------------------------------
        StreamFifo<XpuTxOp> fifo = instance("out_fifo",
                () -> new StreamFifo<>(() -> new XpuTxOp(dataWidth), fifoDepth, storage, fifoDepth));
        int sw = bitsFor(fifoDepth + 32);
        // occupancy + held + beats <= depth, with beats - 1 = the length's beat index (data) or 0:
        // the sum of the registers beside the input decode, one adder after it
        UInt occupied = fifo.occupancy.resize(sw).add(heldValid.asUInt().resize(sw)).named("occupied");
        UInt extraBeats = lb >= 8 ? U(0, sw) : lenM1.shr(lb).resize(sw);
        Bool fits = mux(hasData, occupied.add(extraBeats).lt(fifoDepth), occupied.lt(fifoDepth)).named("fits");
        Bool sErr = start.and(tx.err);
        Bool okE = start.andNot(tx.err);
        Bool sPad = okE.and(type.eq(0));
        Bool okP = okE.and(type.ne(0));
        Bool sBadType = okP.andNot(entryValid);
        Bool okT = okP.and(entryValid);
        Bool sMismatch = okT.and(entry.dataPresent.ne(hasData));
        Bool okM = okT.and(entry.dataPresent.eq(hasData));
        Bool creditOk = cmdAvail.and(hasData.not().or(dataAvail));
        Bool sNoCredit = okM.andNot(creditOk);
        Bool okC = okM.and(creditOk);
        Bool sOverflow = okC.andNot(fits);
        Bool accept = okC.and(fits).named("accept");
        Bool stray = heldValid.not().and(cont).andNot(discard);

        // ---- held stage update ----------------------------------------------------------------
        Bool lastNext = heldLeft.eq(1).named("last_next");
        when(accept, () -> {
            heldValid.set(true);
            heldNextIdx.set(U(1, 4));
            heldLast.set(laterBeats.eq(0));
            heldLeft.set(laterBeats);
            heldLastKeep.set(keepFor(bytesPerBeat, hasData, TRUE, rem));
            heldDest.set(tx.xpuid);
            heldCtrlLen.set(ctrlLen);
            heldDataLen.set(dataLen);
            heldTotalLen.set(totalLen);
            heldControl.set(tx.control);
            heldData.set(tx.data);
            heldKeep.set(keepFor(bytesPerBeat, hasData, laterBeats.eq(0), rem));
            opDataTaken.set(takeData.asUInt().resize(5));
        }).elseWhen(contGood, () -> {
            heldNextIdx.set(heldNextIdx.add(1));
            heldLast.set(lastNext);
            heldData.set(tx.data);
            heldLeft.set(heldLeft.sub(1));
            heldKeep.set(heldLastKeep.or(repeat(lastNext.not(), bytesPerBeat)));
            opDataTaken.set(opDataTaken.add(1));
        }).otherwise(() -> heldValid.set(false));
        when(start, () -> opVc.set(tx.vc));
        when(idle.or(tx.resetIn), () -> discard.set(false))
                .elseWhen(start, () -> discard.set(accept.not()))
                .elseWhen(cont, () -> discard.set(contGood.not()))
                .elseWhen(isRes, () -> discard.set(true));
        resetOut.set(tx.resetIn);
        tx.resetOut.set(resetOut);

        // ---- output FIFO ----------------------------------------------------------------------
        fifo.s.valid.set(heldValid);
        XpuTxOp p = fifo.s.payload;
        p.dest.set(heldDest);
        p.vc.set(opVc);
        p.ctrlLen.set(heldCtrlLen);
        p.dataLen.set(heldDataLen);
        p.totalLen.set(heldTotalLen);
        p.control.set(heldControl);
        p.data.set(heldData);
        p.keep.set(heldKeep);
        p.last.set(heldLast.or(abortHeld));
        p.abort.set(abortHeld);
        m.connectFrom(fifo.m);
        assertThat(heldValid.not().or(fifo.s.ready), "output FIFO full although the op reserved its space");

        // ---- credits --------------------------------------------------------------------------
        // (tx_reset_in itself only cancels the arbiter's grant, see XpuTxCredits.account)
        Bool sendEnable = resetOut.not().named("send_enable");
        credits.account(takeCmd, tx.vc, takeData, beatVc, takeCmd.andNot(accept),
                takeData.andNot(accept.or(contGood)), abortHeld, opVc, opDataTaken, release, tx.resetIn,
                sendEnable);
        tx.credit.set(credits.message);

        // ---- counters -------------------------------------------------------------------------
        cntOk.set(Counter.saturating("cnt_ok_q", StatusWord.BITS, heldValid.and(heldLast).andNot(abortHeld)));
        cntErr.set(Counter.saturating("cnt_err_q", StatusWord.BITS, rErrH.or(sErr)));
        cntNoCredit.set(Counter.saturating("cnt_no_credit_q", StatusWord.BITS, rNoCreditH.or(sNoCredit)));
        cntReserved.set(Counter.saturating("cnt_reserved_q", StatusWord.BITS, rReservedH.or(isRes.andNot(incomplete))));
        cntBadCycle.set(Counter.saturating("cnt_bad_cycle_q", StatusWord.BITS, rBadCycleH.or(stray)));
        cntLong.set(Counter.saturating("cnt_long_q", StatusWord.BITS, rLongH));
        cntShort.set(Counter.saturating("cnt_short_q", StatusWord.BITS, rShortH));
        cntBadType.set(Counter.saturating("cnt_bad_type_q", StatusWord.BITS, sBadType));
        cntPad.set(Counter.saturating("cnt_pad_q", StatusWord.BITS, sPad));
        cntMismatch.set(Counter.saturating("cnt_mismatch_q", StatusWord.BITS, sMismatch));
        cntOverflow.set(Counter.saturating("cnt_overflow_q", StatusWord.BITS, sOverflow));
        cntCfgReject.set(Counter.saturating("cnt_cfg_reject_q", StatusWord.BITS, cfg.valid.andNot(cfgOk)));
    }

    /** The counters in status-space order, named as their ports without {@code cnt_}. */
    public List<StatusWord> statusWords() {
        return List.of(new StatusWord("ok", cntOk), new StatusWord("err", cntErr),
                new StatusWord("no_credit", cntNoCredit), new StatusWord("reserved", cntReserved),
                new StatusWord("bad_cycle", cntBadCycle), new StatusWord("long", cntLong),
                new StatusWord("short", cntShort), new StatusWord("bad_type", cntBadType),
                new StatusWord("pad", cntPad), new StatusWord("mismatch", cntMismatch),
                new StatusWord("overflow", cntOverflow), new StatusWord("cfg_reject", cntCfgReject));
    }

    /** Emitted as {@code sue_xpu_tx} (SUE modules carry the {@code sue_} prefix). */
    @Override
    public String moduleBaseName() {
        return "sue_xpu_tx";
    }

    /** keep: none without data, all bytes on a beat that is not the last, bytes 0..rem on the last. */
    private static Bits keepFor(int bytes, Bool hasData, Bool lastBeat, UInt rem) {
        List<Bool> bits = new ArrayList<>(bytes);
        for (int i = 0; i < bytes; i++) {
            Bool inLast = i == 0 ? TRUE : rem.ge(i);
            bits.add(hasData.and(lastBeat.not().or(inLast)));
        }
        return OneHot.fromBools(bits);
    }

}
