// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import java.math.BigInteger;
import java.util.EnumMap;
import java.util.Map;

/**
 * How a Java enum is encoded in hardware. Encoded values appear in the SystemVerilog as
 * {@code localparam}s named {@code ENUMCLASS_CONSTANT}, so waveforms and code read by name.
 *
 * @param <E> the Java enum
 */
public final class EnumType<E extends Enum<E>> {
    /** Encoding of the constants. */
    public enum Encoding {
        /** Ordinal, in the fewest bits. */
        BINARY,
        /** One bit per constant. */
        ONE_HOT,
        /** Gray code of the ordinal. */
        GRAY,
        /** {@link Encoded#code()} of each constant. */
        CUSTOM
    }

    /** Implemented by enums that choose their own codes ({@link Encoding#CUSTOM}). */
    public interface Encoded {
        long code();
    }

    private final Class<E> enumClass;
    private final Encoding encoding;
    private final Map<E, BigInteger> codes;
    private final int width;

    private EnumType(Class<E> enumClass, Encoding encoding) {
        this.enumClass = enumClass;
        this.encoding = encoding;
        E[] constants = enumClass.getEnumConstants();
        Map<E, BigInteger> m = new EnumMap<>(enumClass);
        int w = 1;
        for (E c : constants) {
            BigInteger code = switch (encoding) {
                case BINARY -> BigInteger.valueOf(c.ordinal());
                case ONE_HOT -> BigInteger.ONE.shiftLeft(c.ordinal());
                case GRAY -> BigInteger.valueOf(c.ordinal() ^ (c.ordinal() >> 1));
                case CUSTOM -> {
                    if (!(c instanceof Encoded enc)) {
                        throw new IllegalArgumentException(enumClass.getSimpleName()
                                + " must implement EnumType.Encoded to use CUSTOM encoding");
                    }
                    yield BigInteger.valueOf(enc.code());
                }
            };
            if (code.signum() < 0) {
                throw new IllegalArgumentException("negative code for " + c);
            }
            if (m.containsValue(code)) {
                throw new IllegalArgumentException("two constants of " + enumClass.getSimpleName()
                        + " share the code " + code);
            }
            m.put(c, code);
            w = Math.max(w, code.bitLength());
        }
        if (encoding == Encoding.ONE_HOT) {
            w = Math.max(1, constants.length);
        }
        this.codes = m;
        this.width = w;
    }

    public static <E extends Enum<E>> EnumType<E> of(Class<E> enumClass) {
        return new EnumType<>(enumClass, Encoding.BINARY);
    }

    public static <E extends Enum<E>> EnumType<E> of(Class<E> enumClass, Encoding encoding) {
        return new EnumType<>(enumClass, encoding);
    }

    public int width() {
        return width;
    }

    public Encoding encoding() {
        return encoding;
    }

    public BigInteger code(E constant) {
        return codes.get(constant);
    }

    /** localparam name, e.g. {@code STATE_IDLE}. */
    public String symbol(E constant) {
        return Naming.toSnakeCase(enumClass.getSimpleName()).toUpperCase() + "_" + constant.name();
    }

    public Class<E> enumClass() {
        return enumClass;
    }

    /** A hardware value of this enum type (declare it with wire()/reg()/in()/out()). */
    public HwEnum<E> type() {
        return new HwEnum<>(this);
    }
}
