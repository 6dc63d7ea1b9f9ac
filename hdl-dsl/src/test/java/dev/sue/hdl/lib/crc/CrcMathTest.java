// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** The CRC math (spec, reference, matrices, tail correction) against independent references. */
class CrcMathTest {
    /** Catalogue entries (reveng): name, width, poly, refin, refout, init, xorout, check. */
    private static final Object[][] CATALOGUE = {
        {"CRC-32", 32, 0x04C11DB7L, true, true, 0xFFFFFFFFL, 0xFFFFFFFFL, 0xCBF43926L},
        {"CRC-32C", 32, 0x1EDC6F41L, true, true, 0xFFFFFFFFL, 0xFFFFFFFFL, 0xE3069283L},
        {"CRC-32/BZIP2", 32, 0x04C11DB7L, false, false, 0xFFFFFFFFL, 0xFFFFFFFFL, 0xFC891918L},
        {"CRC-32/MPEG-2", 32, 0x04C11DB7L, false, false, 0xFFFFFFFFL, 0L, 0x0376E6E7L},
        {"CRC-16/ARC", 16, 0x8005L, true, true, 0L, 0L, 0xBB3DL},
        {"CRC-16/XMODEM", 16, 0x1021L, false, false, 0L, 0L, 0x31C3L},
        {"CRC-16/IBM-3740", 16, 0x1021L, false, false, 0xFFFFL, 0L, 0x29B1L},
        {"CRC-8/SMBUS", 8, 0x07L, false, false, 0L, 0L, 0xF4L},
        {"CRC-5/USB", 5, 0x05L, true, true, 0x1FL, 0x1FL, 0x19L},
        {"CRC-12/UMTS", 12, 0x80FL, false, true, 0L, 0L, 0xDAFL},
        {"CRC-24/OPENPGP", 24, 0x864CFBL, false, false, 0xB704CEL, 0L, 0x21CF02L},
        {"CRC-3/ROHC", 3, 0x3L, true, true, 0x7L, 0L, 0x6L},
    };

    private static CrcSpec spec(Object[] e) {
        return new CrcSpec((String) e[0], (int) e[1], (long) e[2], (boolean) e[3], (boolean) e[4], (long) e[5],
                (long) e[6]);
    }

    @Test
    void referenceMatchesCatalogueCheckValues() {
        for (Object[] e : CATALOGUE) {
            assertEquals((long) e[7], spec(e).check(), (String) e[0]);
        }
        assertEquals(0xCBF43926L, CrcSpec.CRC32.check());
        assertEquals(0xE3069283L, CrcSpec.CRC32C.check());
    }

    @Test
    void referenceMatchesJavaUtilZip() {
        Random rnd = new Random(1);
        for (int n = 0; n < 300; n++) {
            byte[] data = new byte[rnd.nextInt(200)];
            rnd.nextBytes(data);
            CRC32 z = new CRC32();
            z.update(data);
            CRC32C c = new CRC32C();
            c.update(data);
            assertEquals(z.getValue(), CrcSpec.CRC32.compute(data));
            assertEquals(c.getValue(), CrcSpec.CRC32C.compute(data));
        }
    }

    @Test
    void wordMatricesMatchBitSerialReference() {
        Random rnd = new Random(2);
        for (Object[] e : CATALOGUE) {
            CrcSpec s = spec(e);
            for (int bytes : new int[] {1, 2, 3, 8, 13, 64}) {
                Gf2Matrix step = CrcMatrices.step(s, 8 * bytes);
                assertEquals(s.width(), step.rows());
                assertEquals(s.width() + 8 * bytes, step.cols());
                for (int trial = 0; trial < 20; trial++) {
                    byte[] word = new byte[bytes];
                    rnd.nextBytes(word);
                    long reg = rnd.nextLong() & s.mask();
                    assertEquals(s.update(reg, word), CrcMatrices.applyWord(step, s, reg, word),
                            s.name() + " " + bytes + " bytes");
                }
            }
        }
    }

    @Test
    void wordByWordEqualsWholeMessage() {
        CrcSpec s = CrcSpec.CRC32;
        Gf2Matrix step = CrcMatrices.step(s, 64 * 8);
        byte[] data = new byte[64 * 5];
        new Random(3).nextBytes(data);
        long reg = s.init();
        for (int off = 0; off < data.length; off += 64) {
            reg = CrcMatrices.applyWord(step, s, reg, java.util.Arrays.copyOfRange(data, off, off + 64));
        }
        CRC32 z = new CRC32();
        z.update(data);
        assertEquals(z.getValue(), s.finish(reg));
    }

    @Test
    void zeroPaddingIsUndoneByTheInverseAdvance() {
        Random rnd = new Random(4);
        for (Object[] e : CATALOGUE) {
            CrcSpec s = spec(e);
            int wordBytes = 16;
            Gf2Matrix step = CrcMatrices.step(s, wordBytes * 8);
            for (int valid = 1; valid <= wordBytes; valid++) {
                byte[] word = new byte[wordBytes]; // bytes >= valid stay zero: the padding
                byte[] tail = new byte[valid];
                rnd.nextBytes(tail);
                System.arraycopy(tail, 0, word, 0, valid);
                long reg = rnd.nextLong() & s.mask();
                long padded = CrcMatrices.applyWord(step, s, reg, word);
                Gf2Matrix undo = CrcMatrices.zeroBytesAdvance(s, wordBytes - valid).inverse();
                assertEquals(s.update(reg, tail), undo.apply(padded), s.name() + " valid " + valid);
            }
        }
    }

    @Test
    void matrixAlgebra() {
        Gf2Matrix a = CrcMatrices.stateMatrix(CrcSpec.CRC32, 8);
        assertEquals(Gf2Matrix.identity(32), a.multiply(a.inverse()));
        assertEquals(a.pow(5), a.multiply(a).multiply(a).multiply(a).multiply(a));
        assertEquals(CrcMatrices.stateMatrix(CrcSpec.CRC32, 40), a.pow(5));
        assertEquals(Gf2Matrix.identity(3), Gf2Matrix.identity(3).pow(0));
        Gf2Matrix singular = Gf2Matrix.zero(2, 2).with(0, 0, true);
        assertThrows(ArithmeticException.class, singular::inverse);
        // multiplying by x^-8 folds at most the 8 low bits back in: sparse rows
        Gf2Matrix inv8 = a.inverse();
        for (int r = 0; r < 32; r++) {
            assertTrue(inv8.rowWeight(r) <= 9, "row " + r + " of A^-8 has weight " + inv8.rowWeight(r));
        }
    }

    @Test
    void goodFrameResidue() {
        assertEquals(0x2144DF1CL, CrcSpec.CRC32.goodFrameCrc());
        Random rnd = new Random(5);
        for (CrcSpec s : new CrcSpec[] {CrcSpec.CRC32, CrcSpec.CRC32C, spec(CATALOGUE[2]), spec(CATALOGUE[5])}) {
            for (int n = 0; n < 20; n++) {
                byte[] msg = new byte[1 + rnd.nextInt(100)];
                rnd.nextBytes(msg);
                byte[] fcs = s.appendBytes(s.compute(msg));
                byte[] all = java.util.Arrays.copyOf(msg, msg.length + fcs.length);
                System.arraycopy(fcs, 0, all, msg.length, fcs.length);
                assertEquals(s.goodFrameCrc(), s.compute(all), s.name());
            }
        }
        assertArrayEquals(new byte[] {0x26, 0x39, (byte) 0xF4, (byte) 0xCB}, CrcSpec.CRC32.appendBytes(0xCBF43926L));
        assertThrows(IllegalStateException.class, () -> spec(CATALOGUE[9]).goodFrameCrc()); // CRC-12/UMTS
        assertThrows(IllegalStateException.class,
                () -> new CrcSpec("mixed", 16, 0x8005, true, false, 0, 0).goodFrameCrc());
    }

    @Test
    void specValidation() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new CrcSpec("x", 32, 0xEDB88320L, true, true, 0, 0));
        assertTrue(e.getMessage().contains("reflected form") && e.getMessage().contains("0x4c11db7"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CrcSpec("x", 33, 1, true, true, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new CrcSpec("x", 0, 1, true, true, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new CrcSpec("x", 8, 0x107, true, true, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new CrcSpec("x", 8, 0x07, true, true, 0x100, 0));
        assertThrows(IllegalArgumentException.class, () -> new CrcSpec("x", 8, 0x07, true, true, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> new CrcSpec(" ", 8, 0x07, true, true, 0, 0));
        assertEquals("CRC-32", CrcSpec.CRC32.name());
        assertEquals(0xE3069283L, new CrcSpec("c", 32, 0x1EDC6F41L, true, true, 0xFFFFFFFFL, 0xFFFFFFFFL).check());
        assertTrue("123456789".getBytes(StandardCharsets.US_ASCII).length == 9);
    }
}
