// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.SignalKind;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Any hardware value: a leaf vector ({@link BaseType}) or a composite ({@link Bundle}, {@link Vec}).
 *
 * <p>A freshly constructed Data is a <em>type</em>; {@code in()}, {@code out()}, {@code wire()}
 * or {@code reg()} turn it into hardware. Operations on hardware return new hardware values.
 */
public abstract class Data {
    private final int seq;
    private Data parent;
    private String fieldName;
    private String name;
    private boolean nameExplicit;
    private Data derivedFrom;
    private String derivedSuffix;

    protected Data() {
        Elaboration e = Elaboration.currentOrNull();
        this.seq = e == null ? -1 : e.newDataSeq();
    }

    /** Creation order within the elaboration; orders bundle fields deterministically. */
    final int seq() {
        return seq;
    }

    /** Calls {@code action} for every leaf, MSB-side field first. */
    public abstract void forEachLeaf(Consumer<BaseType> action);

    /** Direct children with their names relative to this value (field names, indices). */
    public abstract List<Member> members();

    /** A named child of a composite. */
    public record Member(String name, Data data, boolean flipped) {
    }

    public final List<BaseType> leaves() {
        List<BaseType> out = new ArrayList<>();
        forEachLeaf(out::add);
        return out;
    }

    /** Total number of bits. */
    public int bitWidth() {
        int[] sum = {0};
        forEachLeaf(l -> sum[0] += l.width());
        return sum[0];
    }

    /**
     * Names this value in the generated SystemVerilog. Works on ports, wires, registers,
     * bundles (leaves become {@code name_field}) and expressions (kept in a named wire).
     */
    @SuppressWarnings("unchecked")
    public final <T extends Data> T named(String newName) {
        this.name = newName;
        this.nameExplicit = true;
        onNamed(newName);
        return (T) this;
    }

    /** Hook for leaves that are expressions: they become named wires. */
    void onNamed(String newName) {
    }

    /**
     * Names this value after {@code source} plus {@code suffix} once {@code source} is named
     * (used by library helpers, e.g. a pipeline register {@code data_d1} after {@code data}).
     */
    @SuppressWarnings("unchecked")
    public final <T extends Data> T nameAfter(Data source, String suffix) {
        this.derivedFrom = source;
        this.derivedSuffix = suffix;
        return (T) this;
    }

    public final String name() {
        return name;
    }

    final boolean nameExplicit() {
        return nameExplicit;
    }

    final void setNameFromField(String fieldNameSnake) {
        if (name == null) {
            name = fieldNameSnake;
        }
    }

    final Data derivedFrom() {
        return derivedFrom;
    }

    final String derivedSuffix() {
        return derivedSuffix;
    }

    final Data parent() {
        return parent;
    }

    final String fieldName() {
        return fieldName;
    }

    final void setParent(Data parent, String fieldName) {
        this.parent = parent;
        this.fieldName = fieldName;
    }

    /** Turns every leaf into a declared signal; {@code flip} swaps IN and OUT (for bundles' flipped fields). */
    abstract void bind(SignalKind kind, boolean flip, Location location);

    /** A new, unbound value of the same shape (used by helpers such as regNext). */
    public abstract Data copyType();
}
