// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;

/**
 * The held beat's {@code opHi} (bytes before the op-region end) as a choice among its candidates,
 * so that a stage that compares or offsets opHi does it to every candidate before the choice:
 * the held last beat's count less the trailer (from registers), a short next beat's
 * {@code nb - T + k} for keep count k (constants, one per keep edge of the MAC input) and a full
 * beat's {@code nb}. Mapped after the choice, each compare or subtraction was a carry chain behind
 * the MAC's {@code tkeep} edges and the candidates' AND-OR (8.5 levels into the realigner's
 * pending count in preset sue_1x400g, session 18); mapped before it, the constants fold and only
 * the held candidate keeps an adder, from registers.
 */
final class OpHiChoice {
    private final Bool heldLast;
    private final Bool nextShort;
    private final List<Bool> countIs;
    private final Bool fcsEn;
    private final UInt held;
    private final int nb;

    /**
     * @param heldLast  the held beat is its frame's last (opHi is {@code held})
     * @param nextShort the next beat is last and holds trailer bytes only (opHi is a short candidate)
     * @param countIs   the next beat's keep count is k, one-hot over k = 0..8
     * @param fcsEn     the MAC delivers the FCS (trailer T = 8 bytes, else 4)
     * @param held      the held last beat's bytes before the trailer
     * @param nb        bytes per beat
     */
    OpHiChoice(Bool heldLast, Bool nextShort, List<Bool> countIs, Bool fcsEn, UInt held, int nb) {
        this.heldLast = heldLast;
        this.nextShort = nextShort;
        this.countIs = countIs;
        this.fcsEn = fcsEn;
        this.held = held;
        this.nb = nb;
    }

    /**
     * {@code f(opHi)}, {@code width} bits: {@code ofHeld} applied to the held candidate, {@code ofConstant}
     * to each constant one (its result taken modulo 2^width, like the hardware's).
     */
    UInt map(String name, int width, Function<UInt, UInt> ofHeld, IntUnaryOperator ofConstant) {
        long mask = (1L << width) - 1;
        return choose(name, width, ofHeld.apply(held).resize(width), v -> U(ofConstant.applyAsInt(v) & mask, width));
    }

    /**
     * The value that goes with opHi, {@code width} bits: {@code ofHeld} for the held candidate, {@code ofConstant}
     * of each constant candidate (a constant, or a register kept for it) for the others.
     */
    UInt choose(String name, int width, UInt ofHeld, IntFunction<UInt> ofConstant) {
        UInt shortValue = U(0, width);
        for (int k = 0; k < countIs.size(); k++) {
            UInt value = mux(fcsEn, ofConstant.apply(nb - 8 + k), ofConstant.apply(nb - 4 + k));
            shortValue = shortValue.or(mux(countIs.get(k), value, U(0, width)));
        }
        return mux(heldLast, ofHeld, mux(nextShort, shortValue, ofConstant.apply(nb))).named(name);
    }

    /** {@code p(opHi)}: {@code ofHeld} for the held candidate, {@code ofConstant} for each constant one. */
    Bool test(String name, Function<UInt, Bool> ofHeld, IntPredicate ofConstant) {
        Bool shortValue = FALSE;
        for (int k = 0; k < countIs.size(); k++) {
            boolean withFcs = ofConstant.test(nb - 8 + k);
            boolean withoutFcs = ofConstant.test(nb - 4 + k);
            if (withFcs || withoutFcs) {
                Bool term = withFcs == withoutFcs ? countIs.get(k)
                        : countIs.get(k).and(withFcs ? fcsEn : fcsEn.not());
                shortValue = shortValue.or(term);
            }
        }
        return mux(heldLast, ofHeld.apply(held), mux(nextShort, shortValue, ofConstant.test(nb) ? TRUE : FALSE)).named(name);
    }
}
