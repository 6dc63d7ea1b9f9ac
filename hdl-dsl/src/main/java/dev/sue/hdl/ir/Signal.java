// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.Location;

/**
 * A declared, named vector: port, wire, register or memory read data.
 * Names are resolved after elaboration (reflection, API or derived), so they are mutable.
 */
public final class Signal extends Node {
    private final SignalKind kind;
    private final Location location;
    private String name;
    private boolean nameExplicit;
    private ClockDomain domain;
    private Const init;
    private ClockDomain inputDomain;

    public Signal(SignalKind kind, int width, int id, Component owner, Location location) {
        super(width, id, owner);
        this.kind = kind;
        this.location = location;
    }

    public SignalKind kind() {
        return kind;
    }

    public Location location() {
        return location;
    }

    public String name() {
        return name;
    }

    public boolean hasName() {
        return name != null;
    }

    /** True when the user chose the name (API or field), false when it was derived. */
    public boolean nameExplicit() {
        return nameExplicit;
    }

    public void setName(String name, boolean explicit) {
        this.name = name;
        this.nameExplicit = explicit;
    }

    /** Clock domain of a register or memory read data; null otherwise. */
    public ClockDomain domain() {
        return domain;
    }

    public void setDomain(ClockDomain domain) {
        this.domain = domain;
    }

    /** Reset value of a register, or null for a register without reset. */
    public Const init() {
        return init;
    }

    public void setInit(Const init) {
        this.init = init;
    }

    /** For top-level inputs: the clock domain the input is synchronous to (default domain if null). */
    public ClockDomain inputDomain() {
        return inputDomain;
    }

    public void setInputDomain(ClockDomain inputDomain) {
        this.inputDomain = inputDomain;
    }

    /** For messages: {@code 'tx_valid' at Tx.java:12}, or {@code the output declared at Tx.java:12} before naming. */
    public String describe() {
        if (name != null) {
            return "'" + name + "' at " + location;
        }
        String what = switch (kind) {
            case IN -> "input";
            case OUT -> "output";
            case WIRE -> "wire";
            case REG -> "register";
            case MEM_DATA -> "memory read data";
        };
        return "the " + what + " declared at " + location;
    }
}
