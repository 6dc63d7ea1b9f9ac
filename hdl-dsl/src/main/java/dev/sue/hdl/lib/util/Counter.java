// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.util;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import java.math.BigInteger;

/**
 * Event counters: a register that adds one in every cycle its event is true, reset to zero.
 * Every block counts with this helper, so a counter means the same everywhere and its depth is
 * known: the increment is one LUT plus the carry chain ({@code width / 4} CARRY4), and a
 * saturating counter decides "full" a cycle ahead (a registered flag, set as the counter steps
 * onto its maximum) instead of comparing all bits in front of the adder.
 */
public final class Counter {
    /** What a counter does at its maximum value. */
    public enum Overflow {
        /** Stays at the maximum (status counters: never wrap to a small, misleading value). */
        SATURATE,
        /** Goes back to zero (sequence numbers, free-running indices). */
        WRAP
    }

    private Counter() {
    }

    /** A {@code width}-bit counter named {@code name}, stepping when {@code event}. */
    public static UInt count(String name, int width, Bool event, Overflow overflow) {
        require(width >= 1 && width <= 64, "a counter is 1..64 bits wide, got " + width);
        UInt value = reg(name, uint(width)).init(0);
        if (overflow == Overflow.WRAP) {
            when(event, () -> value.set(value.add(1)));
            return value;
        }
        // The value from which one step reaches the maximum 2^width - 1.
        UInt belowMax = U(BigInteger.ONE.shiftLeft(width).subtract(BigInteger.TWO), width);
        Bool full = reg(name + "_full", bool()).init(false);
        // Set as the counter steps onto its maximum, so no later event needs the all-ones compare.
        when(event.and(full.not()), () -> {
            value.set(value.add(1));
            full.set(value.eq(belowMax));
        });
        return value;
    }

    /**
     * A {@code width}-bit counter that adds {@code amount} (at most {@code width} bits) in each
     * cycle {@code enable} is true. Saturating, it takes the maximum when the sum carries out of
     * {@code width} bits: the adder's own carry, no compare after it.
     */
    public static UInt add(String name, int width, Bool enable, UInt amount, Overflow overflow) {
        require(width >= 1 && width <= 64, "a counter is 1..64 bits wide, got " + width);
        require(amount.width() <= width, "the amount of counter " + name + " is " + amount.width()
                + " bits, wider than the counter's " + width);
        UInt value = reg(name, uint(width)).init(0);
        UInt sum = value.addExpand(amount.resize(width));
        UInt wrapped = sum.resize(width);
        UInt next = overflow == Overflow.WRAP ? wrapped
                : mux(sum.bit(width), U(BigInteger.ONE.shiftLeft(width).subtract(BigInteger.ONE), width), wrapped);
        when(enable, () -> value.set(next));
        return value;
    }

    /** {@link #count} with {@link Overflow#SATURATE}: a 32-bit status counter is {@code saturating(name, 32, event)}. */
    public static UInt saturating(String name, int width, Bool event) {
        return count(name, width, event, Overflow.SATURATE);
    }

    /**
     * {@link #saturating}, counting a cycle late the cycles in which any of {@code events} is
     * true: each event passes its own register ({@code <name>_event_<i>}), so the logic that
     * decides it (a configuration write's range compares, say), the OR of the events and the
     * counter's increment are separate register-to-register paths, not one. For status
     * counters, whose reader cannot tell a count a cycle late.
     */
    public static UInt saturatingLate(String name, int width, Bool... events) {
        require(events.length >= 1, "counter " + name + " needs at least one event");
        Bool any = null;
        for (int i = 0; i < events.length; i++) {
            Bool late = reg(name + "_event_" + i, bool()).init(false);
            late.set(events[i]);
            any = any == null ? late : any.or(late);
        }
        return saturating(name, width, any);
    }

    /** {@link #count} with {@link Overflow#WRAP}. */
    public static UInt wrapping(String name, int width, Bool event) {
        return count(name, width, event, Overflow.WRAP);
    }
}
