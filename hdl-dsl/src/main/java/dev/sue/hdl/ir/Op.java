// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import dev.sue.hdl.Component;
import java.util.List;

/** An operation on other nodes; see {@link OpKind} for the meaning of args and params. */
public final class Op extends Node {
    private final OpKind kind;
    private final Node[] args;
    private final int param0;
    private final int param1;
    private String name;

    public Op(OpKind kind, int width, int id, Component owner, int param0, int param1, Node... args) {
        super(width, id, owner);
        this.kind = kind;
        this.args = args;
        this.param0 = param0;
        this.param1 = param1;
    }

    public OpKind kind() {
        return kind;
    }

    public Node arg(int i) {
        return args[i];
    }

    public int argCount() {
        return args.length;
    }

    /** The operands as an unmodifiable view (no copy: passes walk millions of these). */
    public List<Node> args() {
        return java.util.Collections.unmodifiableList(java.util.Arrays.asList(args));
    }

    public int param0() {
        return param0;
    }

    public int param1() {
        return param1;
    }

    /** A name given through the API; the emitter then keeps the value in a named wire. */
    public String name() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }
}
