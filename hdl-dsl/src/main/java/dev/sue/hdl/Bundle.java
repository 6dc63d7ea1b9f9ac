// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.SignalKind;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A group of named hardware fields. Subclass it and declare fields; they flatten to
 * {@code prefix_field} in the SystemVerilog, matching cocotbext naming. Fields declared
 * with {@link #flipped} travel against the bundle's direction ({@code ready} in a stream):
 * {@code master(bundle)} makes normal fields outputs and flipped fields inputs,
 * {@code slave(bundle)} the reverse.
 */
public abstract class Bundle extends Data {
    private final Map<Data, Boolean> flippedFields = new IdentityHashMap<>();
    private final Map<Data, Boolean> inlinedFields = new IdentityHashMap<>();
    private List<Member> members;

    /** Marks a field as travelling against the bundle's direction. */
    protected final <T extends Data> T flipped(T field) {
        flippedFields.put(field, Boolean.TRUE);
        return field;
    }

    /**
     * Marks a composite field whose own fields should appear without its name: a stream's
     * payload bundle {@code {data, last}} flattens to {@code s_data}, {@code s_last} rather than
     * {@code s_payload_data}.
     */
    protected final <T extends Data> T inlined(T field) {
        inlinedFields.put(field, Boolean.TRUE);
        return field;
    }

    @Override
    public final List<Member> members() {
        if (members == null) {
            Elaboration e = Elaboration.current();
            List<Member> found = new ArrayList<>();
            List<Integer> order = new ArrayList<>();
            for (Field f : e.fieldCache().fields(getClass(), Bundle.class)) {
                Object value = FieldCache.read(f, this);
                if (value instanceof Data d && d != this) {
                    String name = inlinedFields.containsKey(d) && !(d instanceof BaseType) ? ""
                            : Naming.toSnakeCase(f.getName());
                    found.add(new Member(name, d, flippedFields.containsKey(d)));
                    order.add(d.seq());
                }
            }
            List<Integer> idx = new ArrayList<>();
            for (int i = 0; i < found.size(); i++) {
                idx.add(i);
            }
            idx.sort(Comparator.comparingInt(order::get));
            List<Member> sorted = new ArrayList<>();
            for (int i : idx) {
                Member m = found.get(i);
                m.data().setParent(this, m.name());
                sorted.add(m);
            }
            members = Collections.unmodifiableList(sorted);
        }
        return members;
    }

    @Override
    public final void forEachLeaf(Consumer<BaseType> action) {
        for (Member m : members()) {
            m.data().forEachLeaf(action);
        }
    }

    @Override
    final void bind(SignalKind kind, boolean flip, Location location) {
        for (Member m : members()) {
            m.data().bind(kind, flip ^ m.flipped(), location);
        }
    }

    /**
     * A fresh, unbound bundle of the same shape. Bundles with constructor parameters
     * override this; the default reports that it is missing.
     */
    @Override
    public Bundle copyType() {
        Elaboration.current().error(getClass().getSimpleName() + " does not override copyType(); "
                + "add one (return new " + getClass().getSimpleName() + "(...)) to use it with regNext and similar helpers");
        throw new HdlAbort();
    }
}
