// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

/**
 * The XOR networks of a parallel CRC, computed at elaboration by running the bit-serial
 * algorithm of {@link CrcSpec} symbolically: every register bit is tracked as a GF(2) linear
 * combination of the initial register bits and the data bits, so after a whole word
 *
 * <pre>
 *   next = A * state  XOR  B * data
 * </pre>
 *
 * with {@code A} the {@code width x width} state matrix and {@code B} the
 * {@code width x dataBits} data matrix. Data bits are numbered as on a byte-lane bus: bit
 * {@code 8*i + j} is bit {@code j} of byte {@code i}, byte 0 is the first on the wire, and
 * within a byte the spec's {@code reflectIn} decides the order (LSB first when reflected).
 * Nothing is left for the HDL to loop over: each output bit is one XOR of the inputs its
 * matrix row selects.
 */
public final class CrcMatrices {
    private CrcMatrices() {
    }

    /**
     * {@code [A | B]} for a word of {@code dataBits} bits: {@code width} rows; columns
     * {@code 0..width-1} are the state bits, column {@code width + t} is data bus bit {@code t}.
     *
     * @param dataBits a positive multiple of 8
     */
    public static Gf2Matrix step(CrcSpec spec, int dataBits) {
        if (dataBits < 8 || dataBits % 8 != 0) {
            throw new IllegalArgumentException("data width must be a positive multiple of 8 bits, got " + dataBits);
        }
        int w = spec.width();
        int cols = w + dataBits;
        int words = Gf2Matrix.words(cols);
        // reg[i] = the linear combination register bit i holds, as a bit set over the columns.
        long[][] reg = new long[w][words];
        for (int i = 0; i < w; i++) {
            reg[i][i >>> 6] |= 1L << i;
        }
        long poly = spec.polynomial();
        long[] fb = new long[words];
        for (int byteIndex = 0; byteIndex < dataBits / 8; byteIndex++) {
            for (int k = 0; k < 8; k++) {
                int busBit = 8 * byteIndex + (spec.reflectIn() ? k : 7 - k);
                int col = w + busBit;
                // fb = reg[w-1] ^ data bit
                System.arraycopy(reg[w - 1], 0, fb, 0, words);
                fb[col >>> 6] ^= 1L << col;
                // shift up: reg[i] = reg[i-1] (reuse the top row's array as the new bottom row)
                long[] bottom = reg[w - 1];
                System.arraycopy(reg, 0, reg, 1, w - 1);
                reg[0] = bottom;
                java.util.Arrays.fill(bottom, 0);
                for (int i = 0; i < w; i++) {
                    if ((poly >>> i & 1) != 0) {
                        long[] r = reg[i];
                        for (int x = 0; x < words; x++) {
                            r[x] ^= fb[x];
                        }
                    }
                }
            }
        }
        return Gf2Matrix.ofRows(cols, reg);
    }

    /** {@code A}: the state matrix of a word of {@code dataBits} bits (advance over that many zero bits). */
    public static Gf2Matrix stateMatrix(CrcSpec spec, int dataBits) {
        return step(spec, dataBits).columns(0, spec.width());
    }

    /** {@code B}: the data matrix of a word of {@code dataBits} bits. */
    public static Gf2Matrix dataMatrix(CrcSpec spec, int dataBits) {
        int w = spec.width();
        return step(spec, dataBits).columns(w, w + dataBits);
    }

    /**
     * The state advance over {@code bytes} zero bytes; invertible because the polynomial has
     * the {@code x^0} term. Its inverse undoes zero padding: feeding a word whose last
     * {@code p} bytes are zero and then applying {@code zeroBytesAdvance(p).inverse()} gives
     * the register as if only the first bytes had been fed.
     */
    public static Gf2Matrix zeroBytesAdvance(CrcSpec spec, int bytes) {
        if (bytes == 0) {
            return Gf2Matrix.identity(spec.width());
        }
        return stateMatrix(spec, 8).pow(bytes);
    }

    /** Register after one word, from the matrices: {@code A*reg ^ B*data} (data as bus bytes). */
    public static long applyWord(Gf2Matrix step, CrcSpec spec, long reg, byte[] word) {
        int w = spec.width();
        long[] x = new long[Gf2Matrix.words(step.cols())];
        for (int i = 0; i < w; i++) {
            if ((reg >>> i & 1) != 0) {
                x[i >>> 6] |= 1L << i;
            }
        }
        for (int t = 0; t < 8 * word.length; t++) {
            if ((word[t >>> 3] >>> (t & 7) & 1) != 0) {
                int col = w + t;
                x[col >>> 6] |= 1L << col;
            }
        }
        return step.apply(x)[0];
    }
}
