// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import java.math.BigInteger;

/** A literal. {@code value} is the unsigned bit pattern (two's complement for negative literals). */
public final class Const extends Node {
    private final BigInteger value;
    private final String symbol;

    public Const(BigInteger value, int width, String symbol) {
        super(width, -1, null);
        if (value.signum() < 0 || value.bitLength() > width) {
            throw new IllegalArgumentException("constant " + value + " does not fit " + width + " bits");
        }
        this.value = value;
        this.symbol = symbol;
    }

    public BigInteger value() {
        return value;
    }

    /** Name of an enum constant this literal encodes (emitted as a localparam), or null. */
    public String symbol() {
        return symbol;
    }

    public boolean bit(int index) {
        return value.testBit(index);
    }
}
