// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.rtl.config.StatusWord;

/**
 * Configuration registers of receive reliability ({@link RxReliability}) on the project's write bus.
 * Kept apart from the datapath because its only job is decoding, range checks and holding one
 * per-source write until the owner's RAM write ports are free.
 *
 * <h2>Registers (word addresses)</h2>
 * <ul>
 *   <li>{@code 0x0310 ACK_EVERY} K, 1..255 (reset 8): ACK at the K-th unacknowledged PDU.</li>
 *   <li>{@code 0x0311 ACK_DELAY} T, 1..65535 (reset 256): ACK at most T cycles after the first
 *       unacknowledged PDU.</li>
 *   <li>{@code 0x0312 NACK_RETRY} R, 1..65535 (reset 4096): re-NACK period while a gap persists.</li>
 *   <li>{@code 0x4000 | d<<4 | 8 EXPECTED_PSN[d]}, 0..65535 (reset 0), d &lt; numXpus.</li>
 * </ul>
 * A write whose value is out of range (0, or bits above the field set) or whose d is not a source
 * is <em>rejected</em>: the register keeps its value and {@code cnt_cfg_reject} (32-bit saturating)
 * counts it. Other addresses belong to other blocks and are ignored.
 *
 * <h2>Ports</h2>
 * {@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready} (a write is taken when valid and
 * ready); {@code busy} (in: the owner's RAMs are being initialised; {@code cfg_ready} is low);
 * {@code ack_every_less1} (K - 1), {@code ack_delay}, {@code nack_retry} (out, registered values);
 * {@code pend}, {@code pend_idx}, {@code pend_val} (out: an EXPECTED_PSN write waiting for the
 * owner's RAM write ports; {@code cfg_ready} is low while it waits); {@code retire} (in: the owner
 * wrote it this cycle).
 */
public final class RxRelConfig extends Component {
    /** ACK_EVERY word address. */
    public static final int ACK_EVERY = 0x0310;
    /** ACK_DELAY word address. */
    public static final int ACK_DELAY = 0x0311;
    /** NACK_RETRY word address. */
    public static final int NACK_RETRY = 0x0312;
    /** Field of EXPECTED_PSN[d] in the per-source window {@code 0x4000 | d<<4 | f}. */
    public static final int F_EXPECTED_PSN = 0x8;
    /** Reset values. */
    public static final int DEFAULT_ACK_EVERY = 8;
    public static final int DEFAULT_ACK_DELAY = 256;
    public static final int DEFAULT_NACK_RETRY = 4096;

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());
    public final Bool busy = in(bool());
    /** K - 1 (the receiver compares the PDUs since the last ACK with it). */
    public final UInt ackEveryLess1 = out(uint(8));
    public final UInt ackDelay = out(uint(16));
    public final UInt nackRetry = out(uint(16));
    public final Bool pend = out(bool());
    public final UInt pendIdx;
    public final UInt pendVal = out(uint(16));
    public final Bool retire = in(bool());
    public final UInt cntCfgReject = out(uint(32));

    public RxRelConfig(int numXpus) {
        param("numXpus", numXpus);
        require(numXpus >= 1 && numXpus <= 1024, "numXpus must be 1..1024, got " + numXpus);
        int aw = log2Up(Math.max(2, numXpus));
        pendIdx = out(uint(aw));

        UInt kLess1 = reg("k_less_1_r", uint(8)).init(DEFAULT_ACK_EVERY - 1);
        UInt t = reg("t_r", uint(16)).init(DEFAULT_ACK_DELAY);
        UInt r = reg("r_r", uint(16)).init(DEFAULT_NACK_RETRY);
        Bool pv = reg("pend_r", bool()).init(false);
        UInt pi = reg("pend_idx_r", uint(aw));
        UInt pval = reg("pend_val_r", uint(16));
        Bool ready = busy.not().and(pv.not()).named("ready");
        cfgReady.set(ready);
        Bool fire = cfgValid.and(ready).named("fire");
        UInt data = cfgData.asUInt();
        Bool hi8 = data.slice(31, 8).eq(0);
        Bool hi16 = data.slice(31, 16).eq(0);
        Bool wrK = fire.and(cfgAddr.eq(ACK_EVERY));
        Bool wrT = fire.and(cfgAddr.eq(ACK_DELAY));
        Bool wrR = fire.and(cfgAddr.eq(NACK_RETRY));
        UInt dest = cfgAddr.slice(13, 4).named("dest");
        Bool wrP = fire.and(cfgAddr.slice(15, 14).eq(1)).and(cfgAddr.slice(3, 0).eq(F_EXPECTED_PSN));
        Bool okK = hi8.and(data.slice(7, 0).ne(0));
        Bool okT = hi16.and(data.slice(15, 0).ne(0));
        Bool okP = hi16.and(numXpus >= 1024 ? TRUE : dest.lt(numXpus));
        when(wrK.and(okK), () -> kLess1.set(data.slice(7, 0).sub(1)));
        when(wrT.and(okT), () -> t.set(data.slice(15, 0)));
        when(wrR.and(okT), () -> r.set(data.slice(15, 0)));
        when(retire, () -> pv.set(false));
        when(wrP.and(okP), () -> {
            pv.set(true);
            pi.set(dest.resize(aw));
            pval.set(data.slice(15, 0));
        });
        Bool reject = wrK.andNot(okK).or(wrT.andNot(okT)).or(wrR.andNot(okT)).or(wrP.andNot(okP)).named("reject");
        cntCfgReject.set(Counter.saturating("cnt_cfg_reject_r", StatusWord.BITS, reject));
        ackEveryLess1.set(kLess1);
        ackDelay.set(t);
        nackRetry.set(r);
        pend.set(pv);
        pendIdx.set(pi);
        pendVal.set(pval);
        latency(1);
    }

    /** Emitted as {@code sue_rx_rel_config} (SUE modules carry the {@code sue_} prefix). */
    @Override
    public String moduleBaseName() {
        return "sue_rx_rel_config";
    }
}
