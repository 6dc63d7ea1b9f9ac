package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.OneHot;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.rx.RxPduBeat;
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
 *  |        | store: descriptor (walker busy)    | port V (word)  | port H (pair)  | port D (pair)
 *  |        v                                    v                v                v
 *  +--&gt; walker (1 op/cycle) --&gt; per-VC queues --&gt; header stage --&gt; data reads --&gt; rx_*
 *        ^-- descriptor FIFO
 * </pre>
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
 * <li>XPU RX: {@code rx_valid[1:0]}, {@code rx_cycle[3:0]}, {@code rx_vc[1:0]},
 *     {@code xpuid[9:0]}, {@code rx_control[143:0]}, {@code rx_data[N-1:0]} (registered
 *     outputs), {@code rx_credit[5:0]} (in), {@code rx_reset_in} (in), {@code rx_reset_out}.
 * <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready}: command table
 *     ({@link RxCommandTable}), {@code cfg_ready} always 1.
 * <li>Counters (32-bit, saturating): {@code cnt_stored, cnt_nobuf, cnt_rollback, cnt_bad_vc,
 *     cnt_bad_op, cnt_pdus, cnt_ops, cnt_cfg_reject}.
 * </ul>
 *
 * <h2>Why this structure</h2>
 * A PDU must be delivered atomically (a malformed op anywhere drops all of it), so its ops are
 * checked before the first is delivered. Checking a whole beat at once would need up to B/2
 * chained table lookups per cycle (2-byte ops); instead a walker checks one op per cycle, and
 * does it while the PDU streams in (op headers straight from the input beat, older ones from
 * port V with a write bypass), so a PDU whose walk is done by its last beat is validated in
 * that cycle; a PDU of many tiny ops is finished from the RAM and later PDUs wait in the
 * descriptor FIFO. The deliverer walks the ops again (nothing is kept per op, so state scales
 * with the buffer only); its header port H reads the next op's header while port D streams the
 * current op's beats, and the per-VC queues ({@link RxDescQueue}) offer a verdict the cycle
 * after it is pushed. Words are read in pairs (even/odd banks) so any op's control bytes and
 * any B data bytes at any 2-byte offset come from one read.
 *
 * <h2>Timing</h2>
 * Ingress one beat per cycle, never stalled. Latency: the last beat of a PDU whose walk ends
 * with it (always a single-op PDU) in at cycle t, first rx beat at t + {@link #LATENCY} = 3,
 * command or data op (t verdict, t+1 header read, t+2 decode into the output register). XPU
 * side: one op per cycle, data beats back to back across ops (1 beat/cycle). A PDU validated
 * after its last beat (more ops than cycles) starts 3 cycles after its verdict. Details and
 * measured figures: DESIGN-RX.md.
 */
public final class RxDeliver extends Component {
    /** Last PDU beat in at cycle t (committed, walk complete) -> first rx_* beat of its first op at t + LATENCY. */
    public static final int LATENCY = 3;
    /** Counter names, port order ({@code cnt_<name>}). */
    public static final List<String> COUNTERS = List.of("stored", "nobuf", "rollback", "bad_vc", "bad_op", "pdus",
            "ops", "cfg_reject");
    private static final int CW = 12;

    public final Stream<RxPduBeat> in;
    public final Bool accept = in(bool());
    public final Bool fits = out(bool());

    public final Bits rxValid = out(bits(2));
    public final UInt rxCycle = out(uint(4));
    public final UInt rxVc = out(uint(2));
    public final UInt xpuid = out(uint(10));
    public final Bits rxControl = out(bits(144));
    public final Bits rxData;
    public final Bits rxCredit = in(bits(6));
    public final Bool rxResetIn = in(bool());
    public final Bool rxResetOut = out(bool());

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

    private final int vcs;
    private final int wb;
    private final int aw;

    public RxDeliver(int dataWidth, int vcs, int bufBytes) {
        param("dataWidth", dataWidth);
        param("vcs", vcs);
        param("bufBytes", bufBytes);
        require(dataWidth == 256 || dataWidth == 512 || dataWidth == 1024,
                "dataWidth must be 256, 512 or 1024, got " + dataWidth);
        require(vcs >= 1 && vcs <= 4, "vcs must be 1..4, got " + vcs);
        final int nb = dataWidth / 8;
        final int lb = log2Up(nb);
        long wordsPerVc = vcs >= 1 && vcs <= 4 ? (long) bufBytes / ((long) vcs * nb) : 0;
        require(bufBytes > 0 && wordsPerVc * vcs * nb == bufBytes && isPowerOfTwo((int) Math.max(1, wordsPerVc))
                        && wordsPerVc * nb >= 4096 && bufBytes <= (1 << 22),
                "bufBytes must be vcs * B * 2^k with at least 4096 bytes per VC and at most 4 MiB (B = "
                        + nb + " bytes per word, vcs = " + vcs + "), got " + bufBytes);
        this.vcs = vcs;
        final int w = (int) Math.max(4, wordsPerVc);
        wb = log2Up(w);
        final int pw = wb + 1;
        final int bankDepth = Math.max(2, vcs * w / 2);
        aw = log2Up(bankDepth);
        in = slave(Stream.of(() -> new RxPduBeat(dataWidth)));
        rxData = out(bits(dataWidth));
        latency(LATENCY);

        RxCommandTable table = instance("command_table", RxCommandTable::new);
        table.cfgValid.set(cfgValid);
        table.cfgAddr.set(cfgAddr);
        table.cfgData.set(cfgData);
        cfgReady.set(TRUE);

        Mem<Bits> bank0 = Mem.of(bankDepth, dataWidth).named("buf_even");
        Mem<Bits> bank1 = Mem.of(bankDepth, dataWidth).named("buf_odd");

        // ==== ingress: speculative write into the VC's ring, commit or roll back at the last beat ====
        List<UInt> wp = new ArrayList<>();
        List<UInt> fp = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            wp.add(reg("wp_" + v, uint(pw)).init(0));
            fp.add(reg("fp_" + v, uint(pw)).init(0));
        }
        Bool inPdu = reg("in_pdu", bool()).init(false);
        UInt nIn = reg("n_in", uint(pw)).init(0);
        Bool ovf = reg("ovf", bool()).init(false);
        RxPduBeat ib = in.payload;
        in.ready.set(TRUE);
        UInt vIn = ib.vc;
        Bool vcOk = vcs == 4 ? TRUE : vIn.lt(vcs).named("vc_ok");
        UInt nEff = mux(inPdu, nIn, U(0, pw)).named("n_eff");
        Bool ovfEff = inPdu.and(ovf);
        UInt wpSel = sel(wp, vIn).named("wp_sel");
        UInt used = wpSel.sub(sel(fp, vIn)).named("used");
        Bool room = used.resize(pw + 1).add(nEff.resize(pw + 1)).add(1).le(w).named("room");
        Bool beatOk = vcOk.and(room).andNot(ovfEff).named("beat_ok");
        fits.set(beatOk);
        UInt widx = wpSel.add(nEff).resize(wb).named("widx");
        Bool wen = in.valid.and(beatOk).named("wen");
        UInt wAddr = bankAddr(vIn, widx);
        bank0.write(wAddr, ib.data, wen.andNot(widx.bit(0)));
        bank1.write(wAddr, ib.data, wen.and(widx.bit(0)));
        Bool lastIn = in.valid.and(ib.last).named("last_in");
        Bool kept = lastIn.and(ib.commit).and(accept).named("kept");
        Bool store = kept.and(beatOk).named("store");
        when(in.valid, () -> when(ib.last, () -> {
            inPdu.set(FALSE);
            nIn.set(U(0, pw));
            ovf.set(FALSE);
        }).otherwise(() -> {
            inPdu.set(TRUE);
            nIn.set(nEff.add(beatOk.asUInt().resize(pw)));
            ovf.set(ovfEff.or(beatOk.not()));
        }));

        // ==== stored PDUs the walker has not reached yet (global arrival order) ====
        // The walker follows the input ("live") while it has caught up; a PDU completed while
        // it is still busy with an older one waits here with its descriptor.
        Bool wLive = reg("w_live", bool()).init(true);
        Bool wStored = reg("w_stored", bool()).init(false);
        StreamFifo<RxPduDesc> stored = instance("pdu_fifo",
                () -> new StreamFifo<>(() -> new RxPduDesc(wb), vcs * w, FifoStorage.RAM, vcs * w));
        Bool fifoPush = store.andNot(wLive).named("fifo_push");
        stored.s.valid.set(fifoPush);
        stored.s.payload.vc.set(vIn);
        stored.s.payload.start.set(wpSel.resize(wb));
        stored.s.payload.length.set(ib.length);
        stored.s.payload.src.set(ib.src);
        stored.s.payload.bad.set(FALSE);
        assertThat(fifoPush.not().or(stored.s.ready), "PDU FIFO full (cannot happen: one entry per stored word)");

        // ==== validator ("walker"): one op header per cycle, from the input beat or port V ====
        UInt wPos = reg("w_pos", uint(14)).init(0);
        Bool wRd = reg("w_rd", bool()).init(false);
        Bool wStop = reg("w_stop", bool()).init(false);
        Bool wBad = reg("w_bad", bool()).init(false);
        UInt wVc = reg("w_vc", uint(2)).init(0);
        UInt wStart = reg("w_start", uint(wb)).init(0);
        UInt wLen = reg("w_len", uint(13)).init(0);
        UInt wSrc = reg("w_src", uint(10)).init(0);
        UInt liveVcQ = reg("live_vc", uint(2)).init(0);
        UInt liveStartQ = reg("live_start", uint(wb)).init(0);
        when(in.valid, () -> {
            liveVcQ.set(vIn);
            liveStartQ.set(wpSel.resize(wb));
        });
        UInt liveVc = mux(in.valid, vIn, liveVcQ).named("live_vc_now");
        UInt liveStart = mux(in.valid, wpSel.resize(wb), liveStartQ).named("live_start_now");
        UInt curVc = mux(wStored, wVc, liveVc).named("w_cur_vc");
        UInt curStart = mux(wStored, wStart, liveStart).named("w_cur_start");
        Bool lastNow = wLive.and(lastIn).named("w_last_now");
        Bool lenKnown = wStored.or(lastNow);
        UInt curLen = mux(wStored, wLen, ib.length).resize(14).named("w_cur_len");

        UInt vAddr = wire("v_addr", uint(aw));
        Bool vIssue = wire("v_issue", bool());
        Bits vr0 = bank0.readSync(vAddr, vIssue);
        Bits vr1 = bank1.readSync(vAddr, vIssue);
        Bool vPar = reg("v_par", bool()).init(false);
        Bool vByp = reg("v_byp", bool()).init(false);
        Bits inDataQ = reg("in_data_q", bits(dataWidth));
        inDataQ.set(ib.data);
        Bits vRam = mux(vByp, inDataQ, mux(vPar, vr1, vr0)).named("v_ram");
        Bool inHere = wLive.and(wen).andNot(wRd).and(wPos.shr(lb).eq(nEff.resize(14))).named("w_in_here");
        Bool hdrAvail = wRd.or(inHere).andNot(wStop).named("w_hdr_avail");
        Bits vWord = mux(wRd, vRam, ib.data).named("v_word");
        Bits vHdr = vWord.shr(byteShift(wPos.resize(lb))).slice(15, 0).named("v_hdr");
        table.aType.set(vHdr.slice(7, 0).asUInt());
        Bool vPad = vHdr.slice(7, 0).eq(0);
        Bool vInvalid = table.aValid.not();
        UInt vNext = wPos.add(opBytes(table.aData, table.aUnits, vHdr.slice(15, 8).asUInt()).resize(14))
                .named("v_next");
        Bool atEnd = lenKnown.and(wPos.ge(curLen)).named("w_at_end");
        Bool hdrStops = hdrAvail.and(vPad.or(vInvalid)).named("w_hdr_stops");
        Bool vDone = wStored.or(lastNow)
                .and(atEnd.or(wStop).or(hdrStops).or(hdrAvail.and(vNext.ge(curLen)))).named("v_done");
        Bool vBad = mux(atEnd, wPos.gt(curLen),
                mux(wStop, wBad, vPad.not().and(vInvalid.or(vNext.gt(curLen))))).named("v_bad");
        Bool advance = hdrAvail.andNot(vPad).andNot(vInvalid).named("w_advance");
        UInt posNext = mux(advance, vNext, wPos).named("w_pos_next");
        Bool stopNow = wLive.andNot(lastNow).and(hdrStops).named("w_stop_now");
        // verdicts leave at once to the VC queues (live: in the cycle of the last beat)
        Bool vPush = vDone.and(wStored.or(store)).named("v_push");
        UInt vOutVc = mux(wStored, wVc, vIn);

        // what the walker does next cycle
        Bool selecting = wStored.and(vDone).or(wStored.not().and(wLive.not())).named("w_selecting");
        Bool wLoad = selecting.and(stored.m.valid).named("w_load");
        Bool wGoLive = selecting.andNot(stored.m.valid).and(stored.occupancy.eq(0)).andNot(fifoPush)
                .named("w_go_live");
        stored.m.ready.set(wLoad);
        Bool contStored = wStored.andNot(vDone);
        Bool contConv = lastNow.and(store).andNot(vDone).named("w_cont_conv");
        Bool contLive = wLive.andNot(lastNow).andNot(wStop).andNot(stopNow);
        UInt rdOff = posNext.shr(lb).named("w_rd_off");
        Bool liveReadable = rdOff.lt(nEff.resize(14)).or(rdOff.eq(nEff.resize(14)).and(wen));
        Bool readMore = contStored.or(contConv).or(contLive.and(liveReadable)).named("w_read_more");
        vIssue.set(wLoad.or(readMore));
        UInt rdVcV = mux(wLoad, stored.m.payload.vc, curVc);
        UInt rdIdxV = mux(wLoad, stored.m.payload.start, curStart.add(rdOff.resize(wb))).named("v_idx");
        vAddr.set(bankAddr(rdVcV, rdIdxV));
        vPar.set(rdIdxV.bit(0));
        vByp.set(wen.and(vIn.eq(rdVcV)).and(widx.eq(rdIdxV)));
        wRd.set(vIssue);
        when(wStored.or(wLive.not()), () -> {
            when(selecting, () -> {
                wPos.set(U(0, 14));
                wStop.set(FALSE);
                wBad.set(FALSE);
                wStored.set(wLoad);
                wLive.set(wGoLive);
                when(wLoad, () -> {
                    wVc.set(stored.m.payload.vc);
                    wStart.set(stored.m.payload.start);
                    wLen.set(stored.m.payload.length);
                    wSrc.set(stored.m.payload.src);
                });
            }).otherwise(() -> wPos.set(posNext));
        }).otherwise(() -> when(lastNow, () -> {
            when(contConv, () -> {
                wLive.set(FALSE);
                wStored.set(TRUE);
                wVc.set(vIn);
                wStart.set(wpSel.resize(wb));
                wLen.set(ib.length);
                wSrc.set(ib.src);
                wPos.set(posNext);
            }).otherwise(() -> {
                wPos.set(U(0, 14));
                wStop.set(FALSE);
                wBad.set(FALSE);
            });
        }).otherwise(() -> {
            wPos.set(posNext);
            when(stopNow, () -> {
                wStop.set(TRUE);
                wBad.set(vInvalid.andNot(vPad));
            });
        }));

        List<RxDescQueue> ready = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            final int vv = v;
            RxDescQueue q = instance("ready_q_" + v, () -> new RxDescQueue(wb, w));
            q.s.valid.set(vPush.and(vOutVc.eq(vv)));
            q.s.payload.vc.set(vOutVc);
            q.s.payload.start.set(mux(wStored, wStart, wpSel.resize(wb)));
            q.s.payload.length.set(mux(wStored, wLen, ib.length));
            q.s.payload.src.set(mux(wStored, wSrc, ib.src));
            q.s.payload.bad.set(vBad);
            ready.add(q);
        }

        // ==== deliverer: header port H (walks ops, reads ahead) and data port D ====
        List<UInt> opos = new ArrayList<>();
        List<UInt> cmdC = new ArrayList<>();
        List<UInt> dataC = new ArrayList<>();
        List<Bool> waitF = new ArrayList<>();
        List<UInt> need = new ArrayList<>();
        List<UInt> headValid = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            opos.add(reg("opos_" + v, uint(14)).init(0));
            cmdC.add(reg("cmd_credits_" + v, uint(CW)).init(0));
            dataC.add(reg("data_credits_" + v, uint(CW)).init(0));
            waitF.add(reg("wait_" + v, bool()).init(false));
            need.add(reg("need_" + v, uint(5)).init(0));
            headValid.add(ready.get(v).m.valid.asUInt());
        }
        Bool hPend = reg("h_pend", bool()).init(false);
        UInt hv = reg("hv", uint(2)).init(0);
        UInt hp = reg("hp", uint(14)).init(0);
        UInt hs = reg("hs", uint(wb)).init(0);
        Bool hPar = reg("h_par", bool()).init(false);
        UInt hRdVc = wire("h_rd_vc", uint(2));
        UInt hRdWord = wire("h_rd_word", uint(wb));
        Bits hr0 = bank0.readSync(bankAddr(hRdVc, hRdWord.add(1)));
        Bits hr1 = bank1.readSync(bankAddr(hRdVc, hRdWord));
        hPar.set(hRdWord.bit(0));
        Bits hWindow = cat(mux(hPar, hr0, hr1), mux(hPar, hr1, hr0)).named("h_window");

        Bool dPar = reg("d_par", bool()).init(false);
        UInt dRdVc = wire("d_rd_vc", uint(2));
        UInt dRdWord = wire("d_rd_word", uint(wb));
        Bits dr0 = bank0.readSync(bankAddr(dRdVc, dRdWord.add(1)));
        Bits dr1 = bank1.readSync(bankAddr(dRdVc, dRdWord));
        dPar.set(dRdWord.bit(0));
        Bits window = cat(mux(dPar, dr0, dr1), mux(dPar, dr1, dr0)).named("window");

        UInt hdStart = selDesc(ready, hv, d -> d.start).named("hd_start");
        UInt hdLen = selDesc(ready, hv, d -> d.length).named("hd_len");
        UInt hdSrc = selDesc(ready, hv, d -> d.src).named("hd_src");
        Bool hdBad = selDesc(ready, hv, d -> d.bad.asUInt()).bit(0);
        Bool hdValid = sel(headValid, hv).bit(0);
        // a header read of a word written on the same edge returned the old word (only a read of
        // a PDU not yet validated, the next-PDU read below): read it again
        Bool hStale = reg("h_stale", bool()).init(false);
        hStale.set(wen.and(vIn.eq(hRdVc)).and(widx.eq(hRdWord).or(widx.eq(hRdWord.add(1)))));
        Bool headOk = hPend.and(hdValid).and(hdStart.eq(hs)).andNot(hdBad).andNot(hStale).named("head_ok");
        Bits hw = hWindow.shr(byteShift(hp.resize(lb))).named("hdr_window");
        UInt hType = hw.slice(7, 0).asUInt();
        UInt hL1 = hw.slice(15, 8).asUInt();
        table.bType.set(hType);
        Bool hasData = table.bData;
        UInt ctrlLen = table.bUnits.resize(5).shl(1).named("ctrl_len");
        UInt beats = mux(hasData, hL1.shr(lb).resize(5).add(1), U(0, 5)).named("beats");
        UInt hNext = hp.add(opBytes(hasData, table.bUnits, hL1).resize(14)).named("h_next");
        UInt hdLen14 = hdLen.resize(14);
        Bool pduEnd = hp.ge(hdLen14).or(hType.eq(0)).or(table.bValid.not()).named("pdu_end");
        Bool lastOp = hNext.ge(hdLen14).named("last_op");
        // beat 0 of a data op comes from the header's own word pair when it lies in it
        Bool win0 = hp.resize(lb).resize(lb + 1).add(ctrlLen.resize(lb + 1)).le(nb).named("win0");
        UInt cmdSel = sel(cmdC, hv);
        Bool creditOk = cmdSel.ne(0).and(sel(dataC, hv).ge(beats.resize(CW))).andNot(rxResetIn).named("credit_ok");

        // active data op (port D)
        UInt actLeft = reg("act_left", uint(5)).init(0);
        UInt actWord = reg("act_word", uint(wb)).init(0);
        UInt actIdx = reg("act_idx", uint(4)).init(0);
        UInt actVc = reg("act_vc", uint(2)).init(0);
        UInt actSrc = reg("act_src", uint(10)).init(0);
        Bits actCtrl = reg("act_ctrl", bits(144)).init(0);
        UInt actRot = reg("act_rot", uint(lb)).init(0);
        UInt actRem = reg("act_rem", uint(lb)).init(0);
        Bool actFree = reg("act_free", bool()).init(false);
        UInt actNw = reg("act_nw", uint(pw)).init(0);
        Bool dRet = reg("d_ret", bool()).init(false);
        UInt dIdx = reg("d_idx", uint(4)).init(0);
        Bool dLast = reg("d_last", bool()).init(false);
        Bool actReading = actLeft.ne(0).named("act_reading");
        Bool actFreeFire = actReading.and(actLeft.eq(1)).and(actFree).named("act_free_fire");

        Bool emitsNow = hasData.not().or(win0).named("emits_now");
        Bool canIssue = actReading.not().and(emitsNow.not().or(dRet.not())).named("can_issue");
        Bool opHere = headOk.andNot(pduEnd).named("op_here");
        Bool go = opHere.and(creditOk).and(canIssue).named("go");
        Bool noCredit = opHere.andNot(creditOk).named("no_credit");
        Bool endNow = headOk.and(pduEnd).andNot(actReading).named("end_now");
        Bool holdH = opHere.and(creditOk).andNot(canIssue).or(headOk.and(pduEnd).and(actReading))
                .or(hPend.and(hStale)).named("hold_h");
        Bool pduDone = endNow.or(go.and(lastOp)).named("pdu_done");
        Bool contH = go.andNot(lastOp).named("cont_h");
        // data reads this op still needs after its issue cycle (beat 0 and, if in the window, beat 1 go now)
        UInt readsNow = mux(hasData, mux(win0, mux(beats.ge(2), U(1, 5), U(0, 5)), U(1, 5)), U(0, 5));
        UInt firstRead = mux(win0, U(1, 5), U(0, 5)).named("first_read");
        UInt readsAfter = mux(readsNow.eq(0), U(0, 5), beats.sub(firstRead).sub(1)).named("reads_after");
        Bool freeDec = endNow.or(go.and(lastOp).and(readsAfter.eq(0))).named("free_dec");
        UInt nwDec = words(hdLen, lb, pw);

        Bits ctrlMasked = hw.slice(143, 0).and(byteMask(144 / 8, k -> ctrlLen.gt(k))).named("ctrl_masked");
        UInt dataOff = hp.add(ctrlLen.resize(14)).named("data_off");
        UInt firstWord = hdStart.add(dataOff.shr(lb).resize(wb)).named("first_word");

        // next header read: same PDU, hold, another VC's PDU (round robin), or this VC's next PDU
        UInt rr = reg("rr", uint(2)).init(0);
        Bool fetchMode = contH.or(holdH).not().named("fetch_mode");
        Bool leaveHv = pduDone.or(noCredit);
        List<Bool> elig = new ArrayList<>();
        List<Bool> eligHi = new ArrayList<>();
        for (int v = 0; v < vcs; v++) {
            RxPduDesc h = ready.get(v).m.payload;
            Bool creditsFor = cmdC.get(v).ne(0).and(waitF.get(v).not().or(dataC.get(v).ge(need.get(v).resize(CW))))
                    .andNot(rxResetIn);
            Bool e = ready.get(v).m.valid.andNot(leaveHv.and(hv.eq(v))).and(h.bad.or(creditsFor)).and(fetchMode)
                    .named("elig_" + v);
            elig.add(e);
            eligHi.add(v == 0 ? FALSE : e.and(rr.lt(v)));
        }
        Bits eligB = OneHot.fromBools(elig);
        Bits eligHiB = OneHot.fromBools(eligHi);
        Bits pick = mux(eligHiB.ne(0), OneHot.lowestSet(eligHiB), OneHot.lowestSet(eligB)).named("pick");
        UInt sv = vcs == 1 ? U(0, 2) : OneHot.toIndex(pick).resize(2).named("sv");
        Bool selAny = eligB.ne(0).named("sel_any");
        Bool svBad = selDesc(ready, sv, d -> d.bad.asUInt()).bit(0);
        Bool skip = selAny.and(svBad).named("skip");
        Bool fetch = selAny.andNot(svBad).named("fetch");
        Bool spec = pduDone.andNot(selAny).named("spec");
        UInt svStart = selDesc(ready, sv, d -> d.start);
        UInt svLen = selDesc(ready, sv, d -> d.length);
        UInt svPos = sel(opos, sv);
        when(selAny, () -> rr.set(sv));
        UInt specStart = hs.add(nwDec.resize(wb)).named("spec_start");

        hRdVc.set(hv);
        hRdWord.set(hs.add(hp.shr(lb).resize(wb)));
        hPend.set(FALSE);
        when(contH, () -> {
            hRdWord.set(hs.add(hNext.shr(lb).resize(wb)));
            hp.set(hNext);
            hPend.set(TRUE);
        }).elseWhen(holdH, () -> hPend.set(TRUE))
                .elseWhen(fetch, () -> {
                    hRdVc.set(sv);
                    hRdWord.set(svStart.add(svPos.shr(lb).resize(wb)));
                    hv.set(sv);
                    hp.set(svPos);
                    hs.set(svStart);
                    hPend.set(TRUE);
                }).elseWhen(spec, () -> {
                    hRdWord.set(specStart);
                    hp.set(U(0, 14));
                    hs.set(specStart);
                    hPend.set(TRUE);
                });

        // port D: the active op's beats, or the first data read of an op issued now
        dRdVc.set(hv);
        dRdWord.set(firstWord.add(firstRead.resize(wb)));
        dRet.set(FALSE);
        Bool goReads = go.and(readsNow.ne(0)).named("go_reads");
        when(actReading, () -> {
            dRdVc.set(actVc);
            dRdWord.set(actWord);
            actWord.set(actWord.add(1));
            actLeft.set(actLeft.sub(1));
            actIdx.set(actIdx.add(1));
            dRet.set(TRUE);
            dIdx.set(actIdx);
            dLast.set(actLeft.eq(1));
        }).elseWhen(goReads, () -> {
            actWord.set(firstWord.add(firstRead.resize(wb)).add(1));
            actLeft.set(readsAfter);
            actIdx.set(firstRead.resize(4).add(1));
            dRet.set(TRUE);
            dIdx.set(firstRead.resize(4));
            dLast.set(readsAfter.eq(0));
        });
        when(go.and(hasData), () -> {
            actVc.set(hv);
            actSrc.set(hdSrc);
            actCtrl.set(ctrlMasked);
            actRot.set(dataOff.resize(lb));
            actRem.set(hL1.resize(lb));
            actFree.set(lastOp.and(readsAfter.ne(0)));
            actNw.set(nwDec);
        });

        // per-VC state: op positions, credits, waits, frees, queue pops
        Bits crq = reg("credit_q", bits(6)).init(0);
        crq.set(mux(rxResetIn, B(0, 6), rxCredit));
        UInt crCount = crq.slice(1, 0).asUInt().resize(CW + 1).add(1);
        UInt nwSkip = words(svLen, lb, pw);
        for (int v = 0; v < vcs; v++) {
            final int vv = v;
            Bool isH = hv.eq(vv);
            when(go.and(isH), () -> opos.get(vv).set(mux(lastOp, U(0, 14), hNext)))
                    .elseWhen(endNow.and(isH), () -> opos.get(vv).set(U(0, 14)));
            ready.get(v).m.ready.set(pduDone.and(isH).or(skip.and(sv.eq(vv))));
            UInt freed = mux(freeDec.and(isH), nwDec, U(0, pw))
                    .add(mux(actFreeFire.and(actVc.eq(vv)), actNw, U(0, pw)))
                    .add(mux(skip.and(sv.eq(vv)), nwSkip, U(0, pw)));
            fp.get(v).set(fp.get(v).add(freed));
            when(store.and(vIn.eq(vv)), () -> wp.get(vv).set(wpSel.add(nEff).add(1)));
            Bool crHere = crq.bit(5).and(crq.slice(3, 2).asUInt().eq(vv));
            UInt addCmd = mux(crHere.andNot(crq.bit(4)), crCount, U(0, CW + 1));
            UInt addData = mux(crHere.and(crq.bit(4)), crCount, U(0, CW + 1));
            UInt takeCmd = mux(go.and(isH), U(1, CW + 1), U(0, CW + 1));
            UInt takeData = mux(go.and(isH), beats.resize(CW + 1), U(0, CW + 1));
            cmdC.get(v).set(mux(rxResetIn, U(0, CW), satAdd(cmdC.get(v), addCmd, takeCmd)));
            dataC.get(v).set(mux(rxResetIn, U(0, CW), satAdd(dataC.get(v), addData, takeData)));
            when(noCredit.and(isH), () -> {
                waitF.get(vv).set(TRUE);
                need.get(vv).set(beats);
            }).elseWhen(go.and(isH), () -> waitF.get(vv).set(FALSE));
        }

        // ==== XPU RX outputs (registered) ====
        Bits oValid = reg("rx_valid_q", bits(2)).init(0);
        UInt oCycle = reg("rx_cycle_q", uint(4)).init(0);
        UInt oVc = reg("rx_vc_q", uint(2)).init(0);
        UInt oXpu = reg("xpuid_q", uint(10)).init(0);
        Bits oCtrl = reg("rx_control_q", bits(144)).init(0);
        Bits oData = reg("rx_data_q", bits(dataWidth)).init(0);
        Bits dw = window.shr(byteShift(actRot)).slice(dataWidth - 1, 0);
        Bits dKeep = byteMask(nb, k -> k == 0 ? TRUE : dLast.not().or(actRem.ge(k)));
        Bits h0 = hw.shr(byteShift(ctrlLen)).slice(dataWidth - 1, 0).named("h_beat0");
        Bits h0Keep = byteMask(nb, k -> k == 0 ? TRUE : beats.gt(1).or(hL1.resize(lb).ge(k)));
        Bool cmdOut = go.andNot(hasData).named("cmd_out");
        Bool beat0Out = go.and(hasData).and(win0).named("beat0_out");
        assertThat(dRet.not().or(go.and(emitsNow).not()), "two rx beats in one cycle");
        when(dRet, () -> {
            oValid.set(B(2, 2));
            oCycle.set(dIdx);
            oVc.set(actVc);
            oXpu.set(actSrc);
            oCtrl.set(actCtrl);
            oData.set(dw.and(dKeep));
        }).elseWhen(cmdOut, () -> {
            oValid.set(B(1, 2));
            oCycle.set(U(0, 4));
            oVc.set(hv);
            oXpu.set(hdSrc);
            oCtrl.set(ctrlMasked);
            oData.set(B(0, dataWidth));
        }).elseWhen(beat0Out, () -> {
            oValid.set(B(2, 2));
            oCycle.set(U(0, 4));
            oVc.set(hv);
            oXpu.set(hdSrc);
            oCtrl.set(ctrlMasked);
            oData.set(h0.and(h0Keep));
        }).otherwise(() -> {
            oValid.set(B(0, 2));
            oCycle.set(U(0, 4));
            oVc.set(U(0, 2));
            oXpu.set(U(0, 10));
            oCtrl.set(B(0, 144));
            oData.set(B(0, dataWidth));
        });
        rxValid.set(oValid);
        rxCycle.set(oCycle);
        rxVc.set(oVc);
        xpuid.set(oXpu);
        rxControl.set(oCtrl);
        rxData.set(oData);
        Bool resetOut = reg("reset_out", bool()).init(true);
        resetOut.set(rxResetIn);
        rxResetOut.set(resetOut);

        // ==== counters ====
        cntStored.set(counter("cnt_stored_q", store));
        cntNobuf.set(counter("cnt_nobuf_q", kept.and(vcOk).andNot(beatOk)));
        cntRollback.set(counter("cnt_rollback_q", lastIn.andNot(ib.commit.and(accept))));
        cntBadVc.set(counter("cnt_bad_vc_q", kept.andNot(vcOk)));
        cntBadOp.set(counter("cnt_bad_op_q", vPush.and(vBad)));
        cntPdus.set(counter("cnt_pdus_q", pduDone));
        cntOps.set(counter("cnt_ops_q", go));
        cntCfgReject.set(counter("cnt_cfg_reject_q", table.cfgReject));
    }

    /** Emitted as {@code sue_rx_deliver}. */
    @Override
    public String moduleBaseName() {
        return "sue_rx_deliver";
    }

    /** Bank address of the word pair holding ring word {@code idx} of VC {@code vc}: {vc, idx >> 1}. */
    private UInt bankAddr(UInt vc, UInt idx) {
        UInt half = idx.slice(wb - 1, 1);
        if (vcs == 1) {
            return half.resize(aw);
        }
        int vb = aw - (wb - 1);
        return cat(vc.resize(vb), half).asUInt();
    }

    /** Bytes an op occupies: 2 * units control bytes, data length (byte 1 + 1) if present, even. */
    private static UInt opBytes(Bool hasData, UInt units, UInt lenM1) {
        UInt d = mux(hasData, lenM1.resize(10).add(1), U(0, 10));
        return units.resize(10).shl(1).add(d).add(d.bit(0).asUInt().resize(10));
    }

    /** Words of a PDU of {@code len} bytes: ceil(len / B), at least 1 (an empty PDU is one beat). */
    private static UInt words(UInt len, int lb, int pw) {
        UInt n = len.resize(14).add((1 << lb) - 1).shr(lb).resize(pw);
        return mux(n.eq(0), U(1, pw), n);
    }

    private static UInt byteShift(UInt byteIndex) {
        return cat(byteIndex, B(0, 3)).asUInt();
    }

    private static Bits byteMask(int bytes, java.util.function.IntFunction<Bool> keep) {
        List<Bool> bits = new ArrayList<>();
        for (int k = 0; k < bytes; k++) {
            Bool b = keep.apply(k);
            for (int i = 0; i < 8; i++) {
                bits.add(b);
            }
        }
        return OneHot.fromBools(bits);
    }

    private static UInt sel(List<UInt> regs, UInt idx) {
        return regs.size() == 1 ? regs.get(0) : Vec.of(regs).get(idx.resize(log2Up(regs.size())));
    }

    private static UInt selDesc(List<RxDescQueue> qs, UInt idx,
                                java.util.function.Function<RxPduDesc, UInt> f) {
        List<UInt> l = new ArrayList<>();
        for (RxDescQueue q : qs) {
            l.add(f.apply(q.m.payload));
        }
        return sel(l, idx);
    }

    /** cur + add - take, clamped to the counter's range (a misbehaving XPU cannot wrap it). */
    private static UInt satAdd(UInt cur, UInt add, UInt take) {
        int w = cur.bitWidth();
        UInt s = cur.resize(w + 2).add(add.resize(w + 2)).sub(take.resize(w + 2));
        return mux(s.gt((1L << w) - 1), U((1L << w) - 1, w), s.resize(w));
    }

    private static UInt counter(String name, Bool event) {
        UInt c = reg(name, uint(32)).init(0);
        when(event.and(c.ne(0xFFFFFFFFL)), () -> c.set(c.add(1)));
        return c;
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
