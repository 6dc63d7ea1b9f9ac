// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.rtl.config.SueEncapConfig;
import dev.sue.rtl.encap.Encapsulation;
import java.util.ArrayList;
import java.util.List;

/**
 * The header check of {@link RxFrameParser}: captures the first O = H + 8 bytes of a frame
 * (network header and RH) from the held beats, compares them in stage A (identity: is this a SUE
 * frame for us; header field checks; the IPv4 checksum's two half sums) and finishes in stage B
 * (checksum fold, partition lookup), two cycles after the capture. {@link #info} is valid with
 * {@link #valid}, once per frame.
 */
final class RxHeaderCheck {
    final Bool valid = reg("vb", bool()).init(false);
    final RxPduInfo info;
    private final Bits hdr;

    RxHeaderCheck(RxHeldBeat h, SueEncapConfig cfgBlock, Encapsulation encap, boolean vlan, int numXpus, int nb,
            Bool fcsEn) {
        final int hb = encap.headerBytes(vlan);
        final int ob = hb + 8;
        final int q = ob / nb;
        List<Bits> capParts = new ArrayList<>();
        for (int j = 0; j <= q; j++) {
            int bytes = Math.min(nb, ob - j * nb);
            Bits cj = reg("cap" + j, bits(8 * bytes));
            int jj = j;
            when(h.emit.and(h.bi.eq(jj)), () -> cj.set(h.hd.slice(8 * bytes - 1, 0)));
            capParts.add(0, cj);
        }
        hdr = cat(capParts);
        Bool beforeQ = q == 0 ? FALSE : h.bi.lt(U(q, h.bi.bitWidth()));
        Bool trig = h.emit.and(h.bi.eq(q).or(h.hl.and(beforeQ))).named("hdr_trig");
        int pb = RxFrameParser.POS_BITS;
        UInt fLen = mux(fcsEn, U(4, pb), U(0, pb));
        Bool shortT = h.hl.and(h.pos.add(h.hc.resize(pb)).lt(U(hb, pb).add(fLen)));
        Bool va = reg("va", bool()).init(false);
        va.set(trig);
        Bool shortA = reg("short_a", bool());
        when(trig, () -> shortA.set(shortT));

        // Stage A: comparisons on the captured header.
        Bool ident;
        Bool hdrBad;
        Bool lenHdrBad = FALSE;
        UInt expE = U(0, 17);
        // IPv4 header checksum: two sums of five words in stage A, their sum and fold in stage B
        UInt csumLo = U(0, 20);
        UInt csumHi = U(0, 20);
        int e = 14 + (vlan ? 4 : 0);
        Bool tagOk = vlan ? f(12, 2).eq(0x8100) : TRUE;
        switch (encap) {
            case STD_IPV4 -> {
                ident = f(0, 6).eq(cfgBlock.ownMac).and(tagOk).and(f(e - 2, 2).eq(0x0800))
                        .and(f(e + 9, 1).eq(17)).and(f(e + 16, 4).eq(cfgBlock.ownIp))
                        .and(f(e + 22, 2).eq(cfgBlock.udpDstPort));
                hdrBad = f(e, 1).ne(0x45).or(f(e + 6, 2).and(B(0x3FFF, 16)).ne(0));
                UInt total = f(e + 2, 2).asUInt().resize(17);
                lenHdrBad = f(e + 24, 2).asUInt().resize(17).add(20).ne(total);
                expE = total.add(e - 4);
                // a balanced tree: ten chained adds would be ten carry chains deep
                List<UInt> terms = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    terms.add(f(e + 2 * i, 2).asUInt().resize(20));
                }
                csumLo = addTree(terms.subList(0, 5));
                csumHi = addTree(terms.subList(5, 10));
            }
            case STD_IPV6 -> {
                ident = f(0, 6).eq(cfgBlock.ownMac).and(tagOk).and(f(e - 2, 2).eq(0x86DD))
                        .and(f(e + 6, 1).eq(17)).and(f(e + 24, 16).eq(cfgBlock.ownIp))
                        .and(f(e + 42, 2).eq(cfgBlock.udpDstPort));
                hdrBad = f(e, 1).slice(7, 4).ne(6);
                UInt plen = f(e + 4, 2).asUInt().resize(17);
                lenHdrBad = f(e + 44, 2).asUInt().resize(17).ne(plen);
                expE = plen.add(e + 36);
            }
            case AFH1, AFH1_SHIM -> {
                Bool base = f(0, 4).eq(cfgBlock.afhDaPrefix).and(f(4, 2).eq(cfgBlock.ownXpuid.slice(15, 0)))
                        .and(tagOk);
                if (encap == Encapsulation.AFH1) {
                    ident = base.and(f(e - 2, 2).eq(0x88B5));
                    hdrBad = FALSE;
                } else {
                    ident = base.and(f(e - 2, 2).eq(0x88B6)).and(f(e + 6, 2).eq(0x88B5));
                    hdrBad = f(e, 1).slice(7, 4).ne(0);
                }
            }
            case AFH2_NORMAL -> {
                ident = f(0, 1).and(B(0x8F, 8)).eq(0x02).and(f(2, 4).eq(cfgBlock.ownXpuid))
                        .and(f(12, 2).eq(0x88B5));
                hdrBad = f(0, 1).bit(6);
            }
            case AFH2_COMPRESSED -> {
                ident = f(0, 1).and(B(0x8F, 8)).eq(0x82).and(f(2, 2).eq(cfgBlock.ownXpuid.slice(15, 0)))
                        .and(f(6, 2).eq(0x88B5));
                hdrBad = f(0, 1).bit(6);
            }
            default -> throw new IllegalStateException(encap.toString());
        }
        Bits rh0 = f(hb, 1);
        UInt rhSrc = cat(rh0.slice(1, 0), f(hb + 1, 1)).asUInt();
        Bits rh4 = f(hb + 4, 1);
        Bits rhPart = cat(rh4.slice(1, 0), f(hb + 5, 1));
        cfgBlock.lookupDest.set(rhSrc);

        valid.set(va);
        Bool ctlB = regAt("ctl_b", shortA.or(ident.not()), va);
        Bool hdrBadB = regAt("hdr_bad_b", hdrBad, va);
        Bool lenHdrBadB = regAt("len_hdr_bad_b", lenHdrBad, va);
        UInt expEB = regAt("exp_e_b", expE, va);
        UInt csumLoB = regAt("csum_lo_b", csumLo, va);
        UInt csumHiB = regAt("csum_hi_b", csumHi, va);
        Bits rh0B = regAt("rh0_b", rh0, va);
        UInt srcB = regAt("src_b", rhSrc, va);
        Bits psnB = regAt("psn_b", f(hb + 2, 2), va);
        Bits vcB = regAt("vc_b", rh4.slice(7, 6), va);
        Bits partB = regAt("part_b", rhPart, va);
        Bits rpsnB = regAt("rpsn_b", f(hb + 6, 2), va);

        // Stage B: checksum fold, partition lookup result.
        Bool csumBad = FALSE;
        if (encap == Encapsulation.STD_IPV4) {
            UInt csumB = csumLoB.add(csumHiB).named("csum_sum");
            UInt f1 = csumB.slice(15, 0).resize(17).add(csumB.slice(19, 16).resize(17)).named("csum_f1");
            // the second fold (f1[15:0] + f1[16]) is 0xFFFF exactly when f1 is 0xFFFF or 0x1FFFE
            csumBad = f1.ne(0xFFFF).and(f1.ne(0x1FFFE));
        }
        info = wire("info_rec", new RxPduInfo());
        info.ctl.set(ctlB);
        info.hdrBad.set(hdrBadB);
        info.lenHdrBad.set(lenHdrBadB);
        info.csumBad.set(csumBad);
        info.verBad.set(rh0B.slice(7, 6).ne(0));
        info.opBad.set(rh0B.slice(5, 4).eq(3));
        info.srcBad.set(numXpus == 1024 ? FALSE : srcB.ge(U(numXpus, 10)));
        info.partBad.set(cfgBlock.partition.ne(partB));
        info.expE.set(expEB);
        info.src.set(srcB);
        info.vc.set(vcB.asUInt());
        info.psn.set(psnB);
        info.op.set(rh0B.slice(5, 4).asUInt());
        info.rpsn.set(rpsnB);
        info.partition.set(partB);
    }

    /** Header bytes [off, off+len) as one big-endian field. */
    private Bits f(int off, int len) {
        List<Bits> parts = new ArrayList<>();
        for (int k = off; k < off + len; k++) {
            parts.add(hdr.slice(8 * k + 7, 8 * k));
        }
        return cat(parts);
    }

    /** The sum of {@code terms} as a balanced tree of adds (a chain would be one carry chain per term). */
    private static UInt addTree(List<UInt> terms) {
        List<UInt> level = terms;
        while (level.size() > 1) {
            List<UInt> next = new ArrayList<>();
            for (int i = 0; i + 1 < level.size(); i += 2) {
                next.add(level.get(i).add(level.get(i + 1)));
            }
            if (level.size() % 2 == 1) {
                next.add(level.get(level.size() - 1));
            }
            level = next;
        }
        return level.get(0);
    }

    /** A register loaded with {@code v} when {@code en}. */
    private static <T extends dev.sue.hdl.BaseType> T regAt(String name, T v, Bool en) {
        return regNextWhen(v, en).named(name);
    }
}
