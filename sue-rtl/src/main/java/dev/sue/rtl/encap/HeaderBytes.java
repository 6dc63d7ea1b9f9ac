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
 * on an AXI4-Stream bus). Remembers which bytes are constants, so sums over the header (the
 * IPv4 checksum) fold them at elaboration.
 */
final class HeaderBytes {
    private final List<Bits> bytes = new ArrayList<>();
    /** Per byte: its value when it is a constant, else null. */
    private final List<Integer> constants = new ArrayList<>();

    /** Appends a field whose width is a multiple of 8, most significant byte first. */
    HeaderBytes field(Bits value) {
        int w = value.width();
        if (w % 8 != 0) {
            throw new IllegalArgumentException("header field width must be a multiple of 8, got " + w);
        }
        for (int i = w / 8 - 1; i >= 0; i--) {
            bytes.add(value.slice(8 * i + 7, 8 * i));
            constants.add(null);
        }
        return this;
    }

    /** Appends a constant of {@code count} bytes, most significant byte first. */
    HeaderBytes constant(long value, int count) {
        field(B(value, 8 * count));
        for (int i = 0; i < count; i++) {
            constants.set(constants.size() - count + i, (int) (value >>> (8 * (count - 1 - i))) & 0xFF);
        }
        return this;
    }

    int size() {
        return bytes.size();
    }

    Bits byteAt(int k) {
        return bytes.get(k);
    }

    /** The value of byte {@code k} when it is a constant, else null. */
    Integer constantAt(int k) {
        return constants.get(k);
    }

    /** All bytes as one vector, byte k at {@code [8k+7:8k]}. */
    Bits pack() {
        List<Bits> msbFirst = new ArrayList<>(bytes);
        java.util.Collections.reverse(msbFirst);
        return cat(msbFirst);
    }
}
