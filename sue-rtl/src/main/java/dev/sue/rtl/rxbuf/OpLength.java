// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import java.util.ArrayList;
import java.util.List;

/**
 * The length of one op from its header (ARCHITECTURE.md §5: {@code 2 * units} control bytes, then
 * {@code byte1 + 1} data bytes when the type carries data, then one zero byte when that total is
 * odd) and where it ends against the bytes left in its PDU. Used by the deliverer's header walk
 * ({@link RxOpDeliverer}), where the next op's position depends on this op's length in the same
 * cycle (the validator walks the precomputed {@link RxOpMap} instead).
 *
 * <p>Why the comparisons are not {@code pos + length >= end}: that puts two carry chains (the
 * add, then the compare) after the header byte. Here the bytes left ({@code rem = end - pos},
 * from registers) are compared with the length's parts, so the header byte meets one compare.
 */
final class OpLength {
    /** Bytes the op occupies (14 bits: at most 18 + 256). */
    final UInt bytes;
    private final Bool hasData;
    private final UInt units;
    private final UInt dataOdd;

    /**
     * @param hasData the type carries data (from the command table)
     * @param units   control length in 2-byte units (from the command table)
     * @param lenM1   header byte 1: data length - 1
     */
    OpLength(Bool hasData, UInt units, UInt lenM1) {
        this.hasData = hasData;
        this.units = units;
        UInt ctrl = units.resize(14).shl(1);
        // data bytes rounded up to even = (byte1 | 1) + 1
        dataOdd = lenM1.resize(14).or(U(1, 14));
        bytes = mux(hasData, ctrl.add(dataOdd).add(1), ctrl);
    }

    /**
     * The op reaches at least {@code rem} bytes further: {@code bytes >= rem}. Compared for every
     * control length at once and chosen by {@code units}, which comes from the table as late as
     * the length byte comes from the header.
     */
    Bool reaches(UInt rem) {
        UInt r = rem.resize(14);
        List<Bool> withData = new ArrayList<>();
        List<Bool> withoutData = new ArrayList<>();
        for (int u = 0; u < 1 << units.bitWidth(); u++) {
            Bool ctrlReaches = r.le(2 * u);
            withoutData.add(ctrlReaches);
            withData.add(ctrlReaches.or(dataOdd.ge(r.sub(2 * u + 1))));
        }
        UInt idx = units;
        return mux(hasData, Vec.of(withData).get(idx), Vec.of(withoutData).get(idx));
    }
}
