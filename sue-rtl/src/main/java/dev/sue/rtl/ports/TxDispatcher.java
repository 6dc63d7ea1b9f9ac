// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.ports;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.rtl.config.CfgBus;
import dev.sue.rtl.xpu.XpuTxBus;
import java.util.ArrayList;
import java.util.List;

/**
 * The XPU TX side of a multi-port endpoint (sue-rtl/DESIGN-PORTS.md): one XPU TX interface
 * (spec Table 1, {@code tx_*}) in, one per plane out ({@code plane_<p>_*}, each into a plane's
 * {@code SueTx}). Strict mode (after reset): every op goes to the plane of its destination's
 * port, {@code PORT_MAP[xpuid]}. Unordered mode ({@code PORT_MODE.unordered}, word
 * {@link #ADDR_PORT_MODE}): every op goes to the live plane ({@code plane_live}) holding the
 * fewest of the XPU's credits ({@link LeastBacklog}); the mode applies to ops whose first beat
 * comes after the write.
 *
 * <h2>Port map</h2>
 * A register per destination d, the plane of d's ops: {@code d mod ports} after reset; a
 * configuration write of {@code PORT_MAP[d]} ({@link #PORT_MAP_COLUMN} of the per-destination
 * table) with value v sets it to {@code d mod ports} for v = 0 and to port v - 1 for
 * v = 1..ports (the register map refuses larger values: SLVERR, {@code AXI_SLVERR}). A write
 * applies to ops whose first beat comes after it. Destinations at or above {@code xpus} go to
 * plane 0 (whose queue manager counts them in {@code bad_dest}).
 *
 * <h2>Beats</h2>
 * Registered once (latency 1): a beat with {@code tx_cycle = 0} picks the plane of its
 * {@code tx_xpuid}, later beats follow the op's first; the other planes see {@code valid = 0}.
 * {@code tx_reset_in} reaches every plane with the beats (registered too) so an op's beats and the
 * reset keep their order; {@code tx_reset_out} is the OR of the planes'.
 *
 * <h2>Credits</h2>
 * Every plane's interface advertises the full {@code credits} per {VC, kind} (it was built for
 * one XPU); the XPU is given {@code credits} in all, not {@code ports x credits}: the dispatcher
 * sums the planes' credit messages per slot (two cycles: registered per plane, then summed) and
 * passes them on less a debt of
 * {@code (ports - 1) x credits} ({@link CreditMessages}), reloaded at reset and at
 * {@code tx_reset_in}. Then no plane ever holds more than its own credits' worth of the XPU's
 * beats (the XPU holds at most {@code credits}, whatever plane they go to), nothing is buffered
 * here, and a stalled plane keeps only the credits of the ops it holds: the others' credits come
 * back as their planes release them.
 */
public final class TxDispatcher extends Component {
    /** The per-destination table's column of {@code PORT_MAP[d]} (word {@code 0x4000 | d << 4 | 0xA}). */
    public static final int PORT_MAP_COLUMN = 0xA;
    /** Word of {@code PORT_MODE}: bit 0 {@code unordered} (0 after reset: strict mode). */
    public static final int ADDR_PORT_MODE = 0x0250;

    /** From the XPU: ports {@code tx_*}. */
    public final XpuTxBus xpu;
    /** To the planes' transmit paths: ports {@code plane_<p>_*}. */
    public final Vec<XpuTxBus> planes;
    /** Configuration writes (every block's; this one takes {@code PORT_MAP} and {@code PORT_MODE}). */
    public final CfgBus cfg = slave(new CfgBus().named("cfg"));
    /** In: bit p = plane p may take new ops in unordered mode (its port up, its peer reachable). */
    public final Bits planeLive;
    /** Out: {@code PORT_MODE.unordered} (registered): the planes' frames may be steered to other ports. */
    public final Bool unordered;

    /**
     * @param credits command and data credits per VC of one plane ({@code SueTx.creditsPerVc} at {@code ports}: ports x the one-port pool)
     */
    public TxDispatcher(int dataWidth, int xpus, int vcs, int ports, int credits) {
        param("dataWidth", dataWidth);
        param("xpus", xpus);
        param("vcs", vcs);
        param("ports", ports);
        param("credits", credits);
        require(ports == 2 || ports == 4, "a dispatcher serves 2 or 4 ports, got " + ports);
        require(xpus >= 2 && xpus <= 1024, "xpus must be 2..1024, got " + xpus);
        xpu = slave(new XpuTxBus(dataWidth).named("tx"));
        planes = master(Vec.of(ports, i -> new XpuTxBus(dataWidth))).named("plane");
        planeLive = in(bits(ports)).named("plane_live");
        unordered = out(bool()).named("unordered");
        cfg.ready.set(TRUE);
        int pb = log2Up(ports);

        // ---- the port map ---------------------------------------------------------------------
        int xb = XpuTxBus.XPUID_BITS;
        UInt dest = cfg.addr.slice(13, 4).named("map_dest");
        Bool mapWrite = cfg.valid.and(cfg.addr.slice(15, 14).eq(1)).and(cfg.addr.slice(3, 0).eq(PORT_MAP_COLUMN))
                .named("map_write");
        UInt value = cfg.data.slice(pb, 0).asUInt().named("map_value");
        List<UInt> map = new ArrayList<>();
        for (int d = 0; d < 1 << xb; d++) {
            if (d < xpus) {
                UInt entry = reg("port_map_" + d, uint(pb)).init(d % ports);
                UInt chosen = mux(value.eq(0), U(d % ports, pb), value.sub(1).resize(pb));
                when(mapWrite.and(dest.eq(d)), () -> entry.set(chosen));
                map.add(entry);
            } else {
                map.add(U(0, pb));
            }
        }
        UInt lookup = Vec.of(map).get(xpu.xpuid).named("map_plane");
        Bool unorderedMode = reg("unordered_mode", bool()).init(false);
        when(cfg.valid.and(cfg.addr.eq(ADDR_PORT_MODE)), () -> unorderedMode.set(cfg.data.bit(0)));
        unordered.set(unorderedMode);

        // ---- beats ----------------------------------------------------------------------------
        UInt opPlane = reg("op_plane", uint(pb)).init(0);
        Bool first = xpu.cycle.eq(0).named("first_beat");
        Bool opStart = xpu.valid.ne(0).and(first).named("op_start");
        LeastBacklog balance = new LeastBacklog(ports, 2L * vcs * credits, planeLive, opStart);
        UInt start = mux(unorderedMode, balance.best, lookup).named("start_plane");
        UInt plane = mux(first, start, opPlane).named("beat_plane");
        when(opStart, () -> opPlane.set(start));
        UInt planeQ = regNext(plane).named("beat_plane_q");
        Bits validQ = reg("beat_valid_q", bits(2)).init(0);
        validQ.set(xpu.valid);
        UInt cycleQ = regNext(xpu.cycle).named("beat_cycle_q");
        UInt vcQ = regNext(xpu.vc).named("beat_vc_q");
        UInt xpuidQ = regNext(xpu.xpuid).named("beat_xpuid_q");
        Bits controlQ = regNext(xpu.control).named("beat_control_q");
        Bits dataQ = regNext(xpu.data).named("beat_data_q");
        Bool errQ = regNext(xpu.err).named("beat_err_q");
        Bool resetInQ = reg("reset_in_q", bool()).init(false);
        resetInQ.set(xpu.resetIn);
        Bool resetOut = FALSE;
        for (int p = 0; p < ports; p++) {
            XpuTxBus o = planes.get(p);
            o.valid.set(mux(planeQ.eq(p), validQ, B(0, 2)));
            o.cycle.set(cycleQ);
            o.vc.set(vcQ);
            o.xpuid.set(xpuidQ);
            o.control.set(controlQ);
            o.data.set(dataQ);
            o.err.set(errQ);
            o.resetIn.set(resetInQ);
            resetOut = resetOut.or(o.resetOut);
        }
        xpu.resetOut.set(resetOut);

        // ---- credits: the planes' messages summed, less (ports - 1) x credits -----------------
        long[] initial = new long[CreditMessages.SLOTS];
        for (int s = 0; s < CreditMessages.SLOTS; s++) {
            initial[s] = (s >> 1) < vcs ? -(long) (ports - 1) * credits : 0;
        }
        int accBits = bitsFor(2L * ports * credits + 16);
        // each plane's message as a count per slot, registered; the sum per slot, registered in the books
        List<List<UInt>> counts = new ArrayList<>();
        for (int p = 0; p < ports; p++) {
            Bits m = planes.get(p).credit;
            List<UInt> perSlot = new ArrayList<>();
            for (int s = 0; s < CreditMessages.SLOTS; s++) {
                // {valid, kind, vc[1:0], count-1[1:0]}: slot 2 * vc + kind
                Bool mine = m.bit(5).and(m.slice(3, 2).asUInt().eq(s >> 1))
                        .and((s & 1) == 1 ? m.bit(4) : m.bit(4).not());
                UInt c = reg("credit_p" + p + "_" + s, uint(3)).init(0);
                c.set(mux(mine, m.slice(1, 0).asUInt().resize(3).add(1), U(0, 3)));
                perSlot.add(c);
            }
            counts.add(perSlot);
            // the credits this plane's beats take (a first beat a command credit, a data beat a data
            // credit) and those its message returns: its backlog (LeastBacklog)
            Bool mine = planeQ.eq(p).and(validQ.ne(0));
            UInt used = mux(mine.and(cycleQ.eq(0)), U(1, 2), U(0, 2))
                    .add(mux(mine.and(validQ.eq(2)), U(1, 2), U(0, 2))).named("credit_used_p" + p);
            UInt released = reg("credit_released_p" + p, uint(3)).init(0);
            released.set(mux(m.bit(5), m.slice(1, 0).asUInt().resize(3).add(1), U(0, 3)));
            balance.account(p, used, released);
        }
        List<UInt> inc = new ArrayList<>();
        for (int s = 0; s < CreditMessages.SLOTS; s++) {
            List<UInt> terms = new ArrayList<>();
            for (int p = 0; p < ports; p++) {
                terms.add(counts.get(p).get(s).resize(5));
            }
            while (terms.size() > 1) {  // an adder tree, not a chain
                List<UInt> next = new ArrayList<>();
                for (int i = 0; i < terms.size(); i += 2) {
                    next.add(terms.get(i).add(terms.get(i + 1)));
                }
                terms = next;
            }
            inc.add(terms.get(0).named("credit_inc_" + s));
        }
        // The planes see tx_reset_in a cycle late and their messages reach the sum two cycles later:
        // clear for three cycles, so neither the messages the planes take back nor one sent while the
        // XPU drops its credits is counted, and every message of the planes' re-advertising is.
        Bool resetInQ2 = regNext(resetInQ).named("reset_in_q2");
        balance.clear(xpu.resetIn.or(resetInQ).or(resetInQ2));
        CreditMessages books = new CreditMessages("credit", initial, accBits, inc,
                xpu.resetIn.or(resetInQ).or(resetInQ2));
        xpu.credit.set(books.message);
        latency(1);
    }
}
