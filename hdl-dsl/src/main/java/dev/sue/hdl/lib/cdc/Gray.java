// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.cdc;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;

/** Gray-code conversions: consecutive values differ in exactly one bit, so they can be synchronised. */
public final class Gray {
    private Gray() {
    }

    /** {@code binary ^ (binary >> 1)}. */
    public static UInt fromBinary(UInt binary) {
        return binary.xor(binary.shr(1));
    }

    /** Inverse of {@link #fromBinary}: bit i is the XOR of gray bits i and above. */
    public static UInt toBinary(UInt gray) {
        int w = gray.width();
        Bool[] bits = new Bool[w];
        bits[w - 1] = gray.bit(w - 1);
        for (int i = w - 2; i >= 0; i--) {
            bits[i] = bits[i + 1].xor(gray.bit(i));
        }
        Bool[] msbFirst = new Bool[w];
        for (int i = 0; i < w; i++) {
            msbFirst[i] = bits[w - 1 - i];
        }
        return cat(msbFirst).asUInt();
    }
}
