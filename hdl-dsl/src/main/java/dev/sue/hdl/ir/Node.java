// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import dev.sue.hdl.Component;

/**
 * A bit vector in the netlist IR: a constant, an operation or a declared signal.
 *
 * <p>The IR is untyped: every node is a vector of {@link #width()} bits. Signedness
 * lives in the operation kinds ({@link OpKind#LT_S} and friends), so the emitter never
 * has to guess. Node ids are dense and assigned in creation order within one
 * elaboration, so passes can use arrays instead of hash maps and output order is
 * deterministic.
 */
public abstract sealed class Node permits Const, Op, Signal {
    private final int width;
    private final int id;
    private final Component owner;

    protected Node(int width, int id, Component owner) {
        this.width = width;
        this.id = id;
        this.owner = owner;
    }

    public final int width() {
        return width;
    }

    /** Dense per-elaboration id; constants shared between elaborations use -1. */
    public final int id() {
        return id;
    }

    /** The component whose code created this node; null for constants. */
    public final Component owner() {
        return owner;
    }
}
