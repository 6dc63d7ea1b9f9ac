// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

/**
 * A clock with its reset and optional clock enable. Domains enter the design as top-level
 * inputs and are routed to every component that uses them automatically: the default
 * domain as {@code clk}/{@code rst}, a named one as {@code <name>_clk}/{@code <name>_rst}
 * ({@code _rst_n} when active low, plus {@code <name>_ce} with a clock enable).
 *
 * <p>Domains compare by identity: two domains made with the same name are still different
 * clocks, and signals crossing between them must go through a synchroniser.
 */
public final class ClockDomain {
    /** How the reset acts on registers that have an init value. */
    public enum Reset { SYNC, ASYNC, NONE }

    private final String name;
    private final Reset reset;
    private final boolean resetActiveLow;
    private final boolean clockEnable;
    private final double frequencyMhz;

    private ClockDomain(String name, Reset reset, boolean resetActiveLow, boolean clockEnable, double frequencyMhz) {
        if (!name.isEmpty() && !Naming.isLegalIdentifier(name)) {
            throw new IllegalArgumentException("clock domain name '" + name + "' is not a legal identifier");
        }
        this.name = name;
        this.reset = reset;
        this.resetActiveLow = resetActiveLow;
        this.clockEnable = clockEnable;
        this.frequencyMhz = frequencyMhz;
    }

    /** A domain driven from outside the design, with a synchronous active-high reset. */
    public static ClockDomain external(String name) {
        return new ClockDomain(name, Reset.SYNC, false, false, 0);
    }

    public ClockDomain withReset(Reset kind, boolean activeLow) {
        return new ClockDomain(name, kind, activeLow, clockEnable, frequencyMhz);
    }

    public ClockDomain withClockEnable() {
        return new ClockDomain(name, reset, resetActiveLow, true, frequencyMhz);
    }

    /** Nominal frequency, reported in the JSON report and used to convert latencies to time. */
    public ClockDomain withFrequencyMhz(double mhz) {
        return new ClockDomain(name, reset, resetActiveLow, clockEnable, mhz);
    }

    public String name() {
        return name;
    }

    public Reset reset() {
        return reset;
    }

    public boolean resetActiveLow() {
        return resetActiveLow;
    }

    public boolean hasClockEnable() {
        return clockEnable;
    }

    public double frequencyMhz() {
        return frequencyMhz;
    }

    private String prefix() {
        return name.isEmpty() ? "" : name + "_";
    }

    public String clockPortName() {
        return prefix() + "clk";
    }

    public String resetPortName() {
        return prefix() + (resetActiveLow ? "rst_n" : "rst");
    }

    public String enablePortName() {
        return prefix() + "ce";
    }

    @Override
    public String toString() {
        return name.isEmpty() ? "default clock domain" : "clock domain '" + name + "'";
    }
}
