// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.List;

/**
 * The IPv4 header checksum (RFC 791, RFC 1071) of the header {@link SueHeaderBuilder} assembles,
 * in its stages 2 and 3 (built in its constructor, registers named {@code csum_*}).
 *
 * <p>The 9 header words other than the checksum word are summed as binary numbers; the folding
 * into 16 bits with end-around carry happens once, at the end (equal to adding with end-around
 * carry word by word). Bytes the header holds as constants are summed at elaboration, and a
 * word whose high byte alone is variable shares an adder input with a word whose low byte alone
 * is ({@code {TTL, DSCP, ECN}}), so the IPv4 header costs 6 adder inputs, not 9.
 *
 * <p>Stage 2 registers two partial sums of about half the inputs each (adder trees of depth
 * 2); stage 3 adds them and folds the carries with a carry-select: {@code low + high} and
 * {@code low + high + 1} side by side, the first's carry out choosing, which is the
 * end-around-carry fold in one adder depth (the fold's carry cannot ripple twice: the total is
 * below 2^20, so {@code low + high} exceeds 0xFFFF by at most 15).
 */
final class Ipv4Checksum {
    /** Bits of the partial sums and the total: 10 terms of 16 bits stay below 2^20. */
    private static final int SUM_BITS = 20;

    /** The complemented sum, high byte first in {@code [15:8]}: combinational in stage 3. */
    final Bits value;

    /**
     * @param h the header as assembled in stage 1 (its bytes are stage 2's register inputs)
     * @param ipOffset byte offset of the IPv4 header in {@code h}
     */
    Ipv4Checksum(HeaderBytes h, int ipOffset) {
        List<UInt> terms = new ArrayList<>();
        List<Bits> highOnly = new ArrayList<>();
        List<Bits> lowOnly = new ArrayList<>();
        long constant = 0;
        for (int word = 0; word < 10; word++) {
            if (word == 5) {
                continue; // the checksum itself
            }
            int hi = ipOffset + 2 * word;
            Integer constHi = h.constantAt(hi);
            Integer constLo = h.constantAt(hi + 1);
            constant += (constHi == null ? 0 : constHi << 8) + (constLo == null ? 0 : constLo);
            if (constHi == null && constLo == null) {
                terms.add(cat(h.byteAt(hi), h.byteAt(hi + 1)).asUInt().resize(SUM_BITS));
            } else if (constHi == null) {
                highOnly.add(h.byteAt(hi));
            } else if (constLo == null) {
                lowOnly.add(h.byteAt(hi + 1));
            }
        }
        for (int i = 0; i < Math.max(highOnly.size(), lowOnly.size()); i++) {
            Bits high = i < highOnly.size() ? highOnly.get(i) : B(0, 8);
            Bits low = i < lowOnly.size() ? lowOnly.get(i) : B(0, 8);
            terms.add(cat(high, low).asUInt().resize(SUM_BITS));
        }
        if (constant != 0) {
            terms.add(U(constant, SUM_BITS));
        }

        // Stage 2: two partial sums.
        int half = (terms.size() + 1) / 2;
        UInt partA = reg("csum_part_a", uint(SUM_BITS));
        UInt partB = reg("csum_part_b", uint(SUM_BITS));
        partA.set(sumTree(terms.subList(0, half)));
        partB.set(sumTree(terms.subList(half, terms.size())));

        // Stage 3: total, end-around-carry fold as a carry-select, complement.
        UInt total = partA.add(partB).named("csum_total");
        UInt low = total.slice(15, 0);
        UInt high = total.slice(SUM_BITS - 1, 16);
        UInt plain = low.resize(17).add(high.resize(17)).named("csum_fold");
        // {low, 1} + {high, 1} = 2 * (low + high + 1): bits [16:1] are low + high + 1
        UInt plusOne = cat(low, B(1, 1)).asUInt().add(cat(high.resize(16), B(1, 1)).asUInt())
                .named("csum_fold_plus_one");
        value = mux(plain.bit(16), plusOne.slice(16, 1), plain.slice(15, 0)).asBits().not();
    }

    /** Sum of {@code terms} as a balanced tree of adders (depth ceil(log2(n))). */
    private static UInt sumTree(List<UInt> terms) {
        if (terms.size() == 1) {
            return terms.get(0);
        }
        int half = terms.size() / 2;
        return sumTree(terms.subList(0, half)).add(sumTree(terms.subList(half, terms.size())));
    }
}
