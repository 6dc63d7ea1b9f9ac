// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

import java.nio.charset.StandardCharsets;

/**
 * A CRC algorithm in the parameter model of Williams' "Painless guide" and the reveng
 * catalogue (the model every CRC catalogue uses):
 *
 * <ul>
 *   <li>{@code width}: CRC width in bits, 1..32;</li>
 *   <li>{@code polynomial}: the generator polynomial in <em>normal</em> (MSB-first) form without
 *       the implicit {@code x^width} term, e.g. {@code 0x04C11DB7} for CRC-32 (not the reflected
 *       {@code 0xEDB88320}); it must have the {@code x^0} term (be odd);</li>
 *   <li>{@code reflectIn}: each input byte enters least significant bit first (Ethernet order);
 *       otherwise most significant bit first;</li>
 *   <li>{@code reflectOut}: the register is bit-reversed before {@code xorOut};</li>
 *   <li>{@code init}: register value before the first bit (in the normal, unreflected
 *       register), {@code 0..2^width-1};</li>
 *   <li>{@code xorOut}: XORed into the (reflected) register to give the CRC,
 *       {@code 0..2^width-1};</li>
 *   <li>{@code name}: a label for reports and generated headers.</li>
 * </ul>
 *
 * <p>The register (the "state") is always kept in normal orientation: processing one message
 * bit {@code b} does {@code top = reg[width-1] ^ b; reg = (reg << 1) & mask; if (top) reg ^= poly}.
 * {@link #compute(byte[])} is that textbook bit-serial algorithm, the reference the parallel
 * engine's matrices are checked against.
 *
 * @param name       label, non-blank
 * @param width      1..32
 * @param polynomial normal form, odd, below {@code 2^width}
 * @param reflectIn  input bytes LSB first
 * @param reflectOut reverse the register before xorOut
 * @param init       initial register value
 * @param xorOut     final XOR value
 */
public record CrcSpec(String name, int width, long polynomial, boolean reflectIn, boolean reflectOut, long init,
        long xorOut) {

    /** CRC-32 of IEEE 802.3 (Ethernet FCS), zlib's {@code crc32}: check value 0xCBF43926. */
    public static final CrcSpec CRC32 = new CrcSpec("CRC-32", 32, 0x04C11DB7L, true, true, 0xFFFFFFFFL, 0xFFFFFFFFL);

    /** CRC-32C (Castagnoli; iSCSI, SCTP, ext4): check value 0xE3069283. */
    public static final CrcSpec CRC32C = new CrcSpec("CRC-32C", 32, 0x1EDC6F41L, true, true, 0xFFFFFFFFL,
            0xFFFFFFFFL);

    /** Validates every field; the message says what is wrong and what to give instead. */
    public CrcSpec {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("CRC name must be a non-blank label, e.g. \"CRC-32\"");
        }
        if (width < 1 || width > 32) {
            throw new IllegalArgumentException(name + ": CRC width must be 1..32 bits, got " + width);
        }
        long mask = maskOf(width);
        if (polynomial <= 0 || polynomial > mask) {
            throw new IllegalArgumentException(name + ": polynomial 0x" + Long.toHexString(polynomial)
                    + " is out of range for a " + width + "-bit CRC: give it in normal form without the x^" + width
                    + " term, 1..0x" + Long.toHexString(mask));
        }
        if ((polynomial & 1) == 0) {
            long reversed = reverse(polynomial, width);
            String hint = (reversed & 1) != 0
                    ? " (0x" + Long.toHexString(polynomial) + " looks like the reflected form; the normal form is 0x"
                            + Long.toHexString(reversed) + ")"
                    : "";
            throw new IllegalArgumentException(name + ": polynomial 0x" + Long.toHexString(polynomial)
                    + " has no x^0 term (it must be odd)" + hint
                    + "; without it the CRC cannot undo tail padding and is not a useful code");
        }
        if (init < 0 || init > mask) {
            throw new IllegalArgumentException(name + ": init 0x" + Long.toHexString(init) + " does not fit in "
                    + width + " bits (0..0x" + Long.toHexString(mask) + ")");
        }
        if (xorOut < 0 || xorOut > mask) {
            throw new IllegalArgumentException(name + ": xorOut 0x" + Long.toHexString(xorOut) + " does not fit in "
                    + width + " bits (0..0x" + Long.toHexString(mask) + ")");
        }
    }

    /** {@code 2^width - 1}. */
    public long mask() {
        return maskOf(width);
    }

    static long maskOf(int width) {
        return width == 64 ? -1L : (1L << width) - 1;
    }

    /** The low {@code width} bits of {@code value}, reversed. */
    public static long reverse(long value, int width) {
        return Long.reverse(value) >>> (64 - width);
    }

    /** Register after feeding {@code data} to register {@code reg}, bit by bit (the reference algorithm). */
    public long update(long reg, byte[] data) {
        return update(reg, data, 0, data.length);
    }

    /** Register after feeding {@code data[off .. off+len)} to register {@code reg}. */
    public long update(long reg, byte[] data, int off, int len) {
        long mask = mask();
        long top = 1L << (width - 1);
        for (int i = off; i < off + len; i++) {
            int b = data[i] & 0xFF;
            for (int k = 0; k < 8; k++) {
                int bit = reflectIn ? (b >>> k) & 1 : (b >>> (7 - k)) & 1;
                boolean fb = ((reg & top) != 0) ^ (bit != 0);
                reg = (reg << 1) & mask;
                if (fb) {
                    reg ^= polynomial;
                }
            }
        }
        return reg;
    }

    /** The CRC of a final register: reflected when {@code reflectOut}, then XORed with {@code xorOut}. */
    public long finish(long reg) {
        return (reflectOut ? reverse(reg, width) : reg) ^ xorOut;
    }

    /** The CRC of {@code data} (textbook bit-serial algorithm). */
    public long compute(byte[] data) {
        return finish(update(init, data));
    }

    /** The catalogue check value: the CRC of the ASCII bytes "123456789". */
    public long check() {
        return compute("123456789".getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * The CRC as bytes in wire order, as appended to a frame (an Ethernet FCS): least significant
     * byte first when {@code reflectOut}, most significant first otherwise.
     *
     * @throws IllegalStateException when the width is not a whole number of bytes
     */
    public byte[] appendBytes(long crc) {
        if (width % 8 != 0) {
            throw new IllegalStateException(name + ": a " + width + "-bit CRC is not a whole number of bytes");
        }
        int n = width / 8;
        byte[] out = new byte[n];
        for (int i = 0; i < n; i++) {
            int shift = reflectOut ? 8 * i : 8 * (n - 1 - i);
            out[i] = (byte) (crc >>> shift);
        }
        return out;
    }

    /**
     * What the engine outputs for any frame that ends with its own correct CRC appended by
     * {@link #appendBytes}: a constant (0x2144DF1C for CRC-32, 0x48674BC7 for CRC-32C). A
     * receiver checks an FCS by running the engine over the whole frame, FCS included, and
     * comparing the result with this value. Defined for whole-byte widths with
     * {@code reflectIn == reflectOut}; otherwise the CRC of a frame with its CRC appended is not
     * a constant.
     *
     * @throws IllegalStateException for other CRCs
     */
    public long goodFrameCrc() {
        if (width % 8 != 0 || reflectIn != reflectOut) {
            throw new IllegalStateException(name + ": no constant good-frame CRC (needs a whole-byte width and "
                    + "reflectIn == reflectOut)");
        }
        byte[] msg = "any frame".getBytes(StandardCharsets.US_ASCII);
        byte[] fcs = appendBytes(compute(msg));
        byte[] all = new byte[msg.length + fcs.length];
        System.arraycopy(msg, 0, all, 0, msg.length);
        System.arraycopy(fcs, 0, all, msg.length, fcs.length);
        return compute(all);
    }

    @Override
    public String toString() {
        return name + " (width " + width + ", poly 0x" + Long.toHexString(polynomial) + ", reflectIn " + reflectIn
                + ", reflectOut " + reflectOut + ", init 0x" + Long.toHexString(init) + ", xorOut 0x"
                + Long.toHexString(xorOut) + ")";
    }
}
