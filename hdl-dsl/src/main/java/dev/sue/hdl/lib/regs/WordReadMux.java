// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.regs;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import java.util.ArrayList;
import java.util.List;

/**
 * Read port over {@code n} status words (counters, state): a request names a word by index, the
 * response carries its value two cycles later.
 *
 * <p>Why two levels with a register between: a status block has tens to hundreds of 32-bit
 * words; one flat {@code n}:1 multiplexer per bit is {@code ceil(log4 n)} LUT6 levels on the
 * path from every counter, plus the request decode. Splitting it into groups of {@link #GROUP}
 * words (2 LUT levels, registered) and a second {@code ceil(n/16)}:1 level keeps both stages short
 * whatever {@code n} is, at the price of {@code ceil(n/16)} registered words.
 *
 * <p>Parameters: {@code n} 1..65536 words, {@code width} 1..64 bits per word.
 *
 * <p>Ports:
 * <ul>
 * <li>{@code words[n]} (in): the values; sampled in the cycle after the request.
 * <li>{@code req_valid}, {@code req_index[bitsFor(n-1)]} (in): read word {@code req_index}.
 * <li>{@code rsp_valid}, {@code rsp_data[width]}, {@code rsp_bad} (out): two cycles after the
 *     request; {@code rsp_bad} = 1 (data 0) for an index {@code >= n}. One request per cycle.
 * </ul>
 */
public final class WordReadMux extends Component {
    /** Words per first-level group: a 16:1 multiplexer is two LUT6 levels. */
    public static final int GROUP = 16;

    public final Vec<UInt> words;
    public final Bool reqValid = in(bool());
    public final UInt reqIndex;
    public final Bool rspValid = out(bool());
    public final UInt rspData;
    public final Bool rspBad = out(bool());

    public WordReadMux(int n, int width) {
        param("n", n);
        param("width", width);
        require(n >= 1 && n <= 65536, "n must be 1..65536 words, got " + n);
        require(width >= 1 && width <= 64, "width must be 1..64 bits, got " + width);
        words = in(Vec.of(n, i -> uint(width)));
        int iw = Math.max(1, bitsFor(n - 1));
        reqIndex = in(uint(iw));
        rspData = out(uint(width));
        latency(2);

        int groups = (n + GROUP - 1) / GROUP;
        int lowBits = groups == 1 ? iw : bitsFor(GROUP - 1);
        int highBits = iw - lowBits;

        // Stage 1: the request registered, then each group's word selected by the low index bits.
        Bool v1 = regNext(reqValid).named("req_valid_q");
        UInt idx1 = regNext(reqIndex).named("req_index_q");
        UInt low = idx1.slice(lowBits - 1, 0).named("index_low");
        List<UInt> picked = new ArrayList<>();
        for (int g = 0; g < groups; g++) {
            int from = g * GROUP;
            int size = Math.min(GROUP, n - from);
            UInt word = size == 1 ? words.get(from)
                    : Vec.of(words.asList().subList(from, from + size)).get(low.resize(log2Up(size)));
            picked.add(regNext(word).named("group_" + g));
        }
        Bool v2 = regNext(v1).named("rsp_valid_q");
        UInt high = highBits == 0 ? U(0, 1) : regNext(idx1.slice(iw - 1, lowBits)).named("index_high");
        Bool bad = regNext(idx1.resize(iw + 1).ge((long) n)).named("index_bad");

        // Stage 2: the group.
        UInt data = groups == 1 ? picked.get(0) : Vec.of(picked).get(high.resize(log2Up(groups)));
        rspValid.set(v2);
        rspBad.set(v2.and(bad));
        rspData.set(mux(bad, U(0, width), data));
    }
}
