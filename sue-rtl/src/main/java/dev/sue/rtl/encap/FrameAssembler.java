// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import java.util.ArrayList;
import java.util.List;

/**
 * The frame before its R-CRC ({@link #asm}), one beat per cycle from the head entry and the data
 * stream: the prefix beats, then the PDU bytes shifted by the prefix's lane offset (the last
 * {@code r} bytes of each data beat carried into the next output beat), zero padding up to the
 * entry's beat count; a lane is prefix while {@link #j} is below the lane's last prefix beat. It
 * consumes the data with the output beat that needs it, or straight through when the PDU is
 * dropped, and says when the head's frame is done ({@link HeaderQueue#entryDone}).
 */
final class FrameAssembler {
    final Stream<PacketBeat> asm;
    final Bool asmFire;
    /** Output beat of the head's frame. */
    final UInt j;
    /**
     * {@code j + 2}, counted beside it: the penultimate-beat test compares registers. (The add in
     * front of that compare was a carry chain, and ABC, taking a chain's output as arriving at time
     * 0, placed up to its bound of LUTs behind it: `out_beat` -> chain -> 7 LUTs -> `cur_is_last`,
     * 8.5 levels in the 512-bit endpoint.)
     */
    final UInt jPlusTwo;
    /** Data beats taken for the head; for the data contract's assertion only. */
    final UInt kTaken;
    /** {@code j >= q}: the prefix is out. */
    final Bool pastPrefix;
    /** The head's last data beat is taken this cycle. */
    final Bool lastIn;
    /** A dropped PDU's data is all consumed this cycle. */
    final Bool dropDone;

    FrameAssembler(HeaderQueue hq, Stream<PacketBeat> data, FrameGeometry g) {
        int n = g.n;
        int q = g.q;
        int r = g.r;
        SueFramer.Entry head = hq.head;
        j = reg("out_beat", uint(13)).init(0);
        jPlusTwo = reg("out_beat_plus_two", uint(13)).init(2);
        kTaken = reg("in_beats", uint(13)).init(0);
        pastPrefix = q == 0 ? TRUE : reg("past_prefix", bool()).init(false);
        Bool needIn = pastPrefix.and(hq.moreIn).named("need_in");
        Bool drop = head.drop;

        asm = wire("asm", Stream.of(() -> new PacketBeat(g.dataWidth)));
        Bits carry = r > 0 ? reg("carry", bits(8 * r)) : null;
        Bits carryKeep = r > 0 ? reg("carry_keep", bits(r)) : null;
        List<Bits> lanes = new ArrayList<>();
        for (int i = n - 1; i >= 0; i--) {
            Bits pdu;
            int lastPrefixBeat; // highest j whose lane i is prefix
            if (i >= r) {
                pdu = mux(needIn.and(data.payload.keep.bit(i - r)), data.payload.data.byteAt(i - r), B(0, 8));
                lastPrefixBeat = q - 1;
            } else {
                pdu = mux(carryKeep.bit(i), carry.slice(8 * i + 7, 8 * i), B(0, 8));
                lastPrefixBeat = q;
            }
            Bits lane = pdu;
            for (int jj = lastPrefixBeat; jj >= 0; jj--) {
                int f = jj * n + i;
                lane = mux(j.eq(jj), head.prefix.slice(8 * f + 7, 8 * f), lane);
            }
            lanes.add(lane);
        }
        asm.valid.set(hq.headValid.andNot(drop).and(needIn.not().or(data.valid)));
        asm.payload.data.set(cat(lanes));
        asm.payload.keep.set(mux(hq.isLast, head.lastKeep, allOnes(n)));
        asm.payload.last.set(hq.isLast);
        asmFire = asm.fire().named("asm_fire");

        // data consumption: with the output beat that needs it, or straight through when dropping
        Bool dropping = hq.headValid.and(drop).named("dropping");
        data.ready.set(mux(drop, dropping.and(hq.moreIn), hq.headValid.and(needIn).and(asm.ready)));
        Bool dataFire = data.fire().named("data_fire");
        when(dataFire, () -> kTaken.set(kTaken.add(1)));
        assertThat(dataFire.not().or(data.payload.last.eq(kTaken.add(1).eq(head.nIn))),
                "data: last must mark beat ceil(length / bytes per beat) of the PDU");
        if (r > 0) {
            when(asmFire.and(pastPrefix), () -> {
                carry.set(data.payload.data.slice(8 * n - 1, 8 * (n - r)));
                carryKeep.set(mux(needIn, data.payload.keep.slice(n - 1, n - r), B(0, r)));
            });
        }
        when(asmFire, () -> {
            j.set(j.add(1));
            jPlusTwo.set(jPlusTwo.add(1));
        });
        assertThat(jPlusTwo.eq(j.add(2)), "out_beat_plus_two is not out_beat + 2");
        lastIn = dataFire.and(data.payload.last).named("last_in");
        dropDone = dropping.and(hq.moreIn.not().or(lastIn));
        hq.entryDone.set(asmFire.and(hq.isLast).or(dropDone));
    }

    private static Bits allOnes(int width) {
        List<Bool> ones = new ArrayList<>();
        for (int i = 0; i < width; i++) {
            ones.add(TRUE);
        }
        return cat(ones);
    }
}
