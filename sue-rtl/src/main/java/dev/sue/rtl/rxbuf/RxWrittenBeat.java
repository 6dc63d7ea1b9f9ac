// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;

/**
 * The op validator's view of the ring writer ({@link RxRing}): the input beat and what the ring
 * did with it, registered, so the validator works one cycle behind the input. Why: the input
 * beat comes straight from the parser's output register, and its op map (one table lookup per
 * lane) is as deep as the walk may be; and a beat the validator sees is already in the op-map
 * RAM (written on the edge that loaded this register), so port V needs no write bypass.
 */
final class RxWrittenBeat {
    /** A beat was on the input. */
    final Bool valid;
    /** The beat's op map ({@link RxOpMap}). */
    final Bits map;
    /** The PDU's op-region length, VC and source (as on the beat). */
    final UInt length;
    /** The length of the ring's beat now (this register's next value) and its (length - 1) / 2 ({@link RxCodeBounds#reachUnits}). */
    final UInt nextLength;
    final UInt nextReach;
    final UInt vc;
    final UInt src;
    /** Ring word where the beat's PDU starts, and words of it written before this beat. */
    final UInt start;
    /** {@link #valid} and {@link #start} of the next cycle (the ring's beat now). */
    final Bool nextValid;
    final UInt nextStart;
    final UInt n;
    /** n + wen (the PDU's words in the ring once this beat is written), added a cycle early. */
    final UInt written;
    /** The beat was written into the ring (word {@code start + n}). */
    final Bool wen;
    /** Last beat of its PDU, and the PDU was kept. */
    final Bool last;
    final Bool store;

    RxWrittenBeat(RxRing ring, Bool inValid, Bits map) {
        valid = flag("wb_valid", inValid);
        this.map = regNext(map).named("wb_map");
        length = regNext(ring.ib.length).named("wb_length");
        nextLength = ring.ib.length;
        nextReach = RxCodeBounds.reachUnits(ring.ib.length).named("wb_next_reach");
        vc = regNext(ring.vIn).named("wb_vc");
        src = regNext(ring.ib.src).named("wb_src");
        start = regNext(ring.wpSel).named("wb_start");
        nextValid = inValid;
        nextStart = ring.wpSel;
        n = regNext(ring.nEff).named("wb_n");
        written = regNext(mux(ring.wen, ring.nEff.add(1), ring.nEff)).named("wb_written");
        wen = flag("wb_wen", ring.wen);
        last = flag("wb_last", ring.lastIn);
        store = flag("wb_store", ring.store);
    }

    private static Bool flag(String name, Bool value) {
        Bool r = reg(name, bool()).init(false);
        r.set(value);
        return r;
    }
}
