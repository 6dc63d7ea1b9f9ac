// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.B;
import static dev.sue.hdl.Hdl.cat;

import dev.sue.hdl.Bits;
import java.util.ArrayList;
import java.util.List;

/**
 * Elaboration-time helper: collects header fields in wire order (network byte order, most
 * significant byte first) as a list of bytes, and packs them into one vector with byte k at
 * bits {@code [8k+7:8k]} (byte 0, the first on the wire, in the least significant bits, as
 * on an AXI4-Stream bus).
 */
final class HeaderBytes {
    private final List<Bits> bytes = new ArrayList<>();

    /** Appends a field whose width is a multiple of 8, most significant byte first. */
    HeaderBytes field(Bits value) {
        int w = value.width();
        if (w % 8 != 0) {
            throw new IllegalArgumentException("header field width must be a multiple of 8, got " + w);
        }
        for (int i = w / 8 - 1; i >= 0; i--) {
            bytes.add(value.slice(8 * i + 7, 8 * i));
        }
        return this;
    }

    /** Appends a constant of {@code count} bytes, most significant byte first. */
    HeaderBytes constant(long value, int count) {
        return field(B(value, 8 * count));
    }

    int size() {
        return bytes.size();
    }

    Bits byteAt(int k) {
        return bytes.get(k);
    }

    /** All bytes as one vector, byte k at {@code [8k+7:8k]}. */
    Bits pack() {
        List<Bits> msbFirst = new ArrayList<>(bytes);
        java.util.Collections.reverse(msbFirst);
        return cat(msbFirst);
    }
}
