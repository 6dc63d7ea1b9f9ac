// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The RX buffer of {@link RxDeliver}: its geometry and its two RAM banks (even and odd words of
 * every VC's ring, so a word pair is one read), shared by the ring writer ({@link RxRing}), the
 * op validator ({@link RxOpValidator}) and the deliverer ({@link RxOpDeliverer}), and the op map
 * beside them ({@link RxOpMap}, read by the validator). Also the byte-window helpers.
 */
final class RxBuffer {
    /** Bytes per beat and per RAM word (B). */
    final int nb;
    /** log2(B). */
    final int lb;
    /** VCs, one ring each. */
    final int vcs;
    /** Words per VC ring (a power of two) and its index width. */
    final int w;
    final int wb;
    /** Width of ring pointers (one more bit than an index: full vs empty). */
    final int pw;
    /** Bank address width, op-map address width. */
    final int aw;
    final int mapAw;
    final Mem<Bits> bank0;
    final Mem<Bits> bank1;
    /** The op map of every word ({@link RxOpMap}), one word per read: port V (validator), port M (deliverer). */
    final Mem<Bits> opMap;

    RxBuffer(int dataWidth, int vcs, long wordsPerVc) {
        nb = dataWidth / 8;
        lb = log2Up(nb);
        this.vcs = vcs;
        w = (int) Math.max(4, wordsPerVc);
        wb = log2Up(w);
        pw = wb + 1;
        int bankDepth = Math.max(2, vcs * w / 2);
        aw = log2Up(bankDepth);
        bank0 = Mem.of(bankDepth, dataWidth).named("buf_even");
        bank1 = Mem.of(bankDepth, dataWidth).named("buf_odd");
        mapAw = vcs == 1 ? wb : log2Up(vcs) + wb;
        opMap = Mem.of(1 << mapAw, dataWidth / 16 * RxOpMap.laneBits()).named("op_map");
    }

    /** Op-map address of ring word {@code idx} of VC {@code vc}: {vc, idx}. */
    UInt mapAddr(UInt vc, UInt idx) {
        return vcs == 1 ? idx : cat(vc.resize(mapAw - wb), idx).asUInt();
    }

    /** Bank address of the word pair holding ring word {@code idx} of VC {@code vc}: {vc, idx >> 1}. */
    UInt bankAddr(UInt vc, UInt idx) {
        UInt half = idx.slice(wb - 1, 1);
        if (vcs == 1) {
            return half.resize(aw);
        }
        int vb = aw - (wb - 1);
        return cat(vc.resize(vb), half).asUInt();
    }

    /** Words of a PDU of {@code len} bytes: ceil(len / B), at least 1 (an empty PDU is one beat). */
    UInt words(UInt len) {
        UInt n = len.resize(14).add((1 << lb) - 1).shr(lb).resize(pw);
        return mux(n.eq(0), U(1, pw), n);
    }

    /**
     * {@code n} 2-byte lanes of {@code window} from lane {@code first} on (lanes past its end are
     * zero), each an indexed read ({@link #choose}), not a log shifter (one level per index bit).
     * Ops and data start at even offsets, so 2-byte lanes suffice.
     */
    static Bits lanes(String name, Bits window, UInt first, int n) {
        int total = window.width() / 16;
        List<Bits> out = new ArrayList<>();
        for (int j = n - 1; j >= 0; j--) {
            List<Bits> c = new ArrayList<>();
            for (int i = 0; i < (1 << first.bitWidth()); i++) {
                int l = i + j;
                c.add(l < total ? window.slice(16 * l + 15, 16 * l) : B(0, 16));
            }
            out.add(choose(c, first).named(name + "_" + j));
        }
        return cat(out);
    }

    /**
     * c[idx] for a power-of-two list: a tree of 4:1 indexed reads (2:1 at the top for an odd
     * index width), two index bits per stage from the low end, each stage one LUT6. As one
     * 64-way indexed read (a case: a one-hot decode and a wide AND-OR for yosys) ABC mapped it
     * in 4-5 LUT levels, not log4 = 3; nested 2:1 muxes cost the depth estimate a level each.
     */
    static Bits choose(List<Bits> c, UInt idx) {
        int bits = log2Up(c.size());
        List<Bits> stage = c;
        for (int lo = 0; stage.size() > 1; ) {
            int take = Math.min(2, bits - lo);
            UInt sel = idx.resize(bits).slice(lo + take - 1, lo);
            List<Bits> next = new ArrayList<>();
            for (int i = 0; i < stage.size(); i += 1 << take) {
                next.add(Vec.of(stage.subList(i, i + (1 << take))).get(sel));
            }
            stage = next;
            lo += take;
        }
        return stage.get(0);
    }

    /**
     * {@code select ? ifTrue : ifFalse} for a late {@code select} in front of a register, as an
     * AND-OR rather than a mux. Why: yosys's enable inference (opt_dff) follows a mux tree from a
     * register's D back to its Q and rebuilds every hold condition into one clock-enable
     * function, with the late select deep inside it; it does not look through an AND-OR, so the
     * select stays one LUT from the register.
     */
    static UInt late(Bool select, UInt ifTrue, UInt ifFalse) {
        Bits[] copies = new Bits[ifTrue.width()];
        Arrays.fill(copies, select.asBits());
        UInt all = cat(copies).asUInt();
        return ifTrue.and(all).or(ifFalse.and(all.not()));
    }

    /** regs[idx] (one register per VC). */
    static UInt sel(List<UInt> regs, UInt idx) {
        return regs.size() == 1 ? regs.get(0) : Vec.of(regs).get(idx.resize(log2Up(regs.size())));
    }
}
