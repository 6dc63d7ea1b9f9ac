// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

/** What drives a declared signal and how it is emitted. */
public enum SignalKind {
    /** Input port: driven by the parent (or the testbench for the top). */
    IN,
    /** Output port: driven by assignments inside its component. */
    OUT,
    /** Combinational signal: driven by assignments, must be assigned on every path. */
    WIRE,
    /** Register: keeps its value on paths that do not assign it. */
    REG,
    /** Data of a memory read port: driven by the memory, never assigned. */
    MEM_DATA;

    public boolean isPort() {
        return this == IN || this == OUT;
    }
}
