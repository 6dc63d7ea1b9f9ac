// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.OpKind;
import dev.sue.hdl.ir.SignalKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * A fixed-size array of hardware values of one shape. Elements are named {@code name_0},
 * {@code name_1}, ...; element 0 sits at the least significant end of {@code asBits()}.
 *
 * @param <T> element type
 */
public final class Vec<T extends Data> extends Data implements Iterable<T> {
    private final List<T> elements;

    private Vec(List<T> elements) {
        this.elements = Collections.unmodifiableList(new ArrayList<>(elements));
        for (int i = 0; i < this.elements.size(); i++) {
            T e = this.elements.get(i);
            // Existing hardware keeps its own name; only fresh types are named after the Vec.
            if (!isHardware(e) && e.parent() == null) {
                e.setParent(this, Integer.toString(i));
            }
        }
    }

    private static boolean isHardware(Data d) {
        for (BaseType leaf : d.leaves()) {
            if (leaf.isHardware()) {
                return true;
            }
        }
        return false;
    }

    /** A vector of {@code size} elements made by {@code factory(index)} (types or hardware). */
    public static <T extends Data> Vec<T> of(int size, IntFunction<T> factory) {
        if (size < 1) {
            Elaboration.current().error("a Vec needs at least one element, got " + size);
            throw new HdlAbort();
        }
        List<T> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            list.add(factory.apply(i));
        }
        return new Vec<>(list);
    }

    /** A vector over existing values (for example to index them at run time). */
    public static <T extends Data> Vec<T> of(List<T> elements) {
        if (elements.isEmpty()) {
            Elaboration.current().error("a Vec needs at least one element");
            throw new HdlAbort();
        }
        return new Vec<>(elements);
    }

    public int size() {
        return elements.size();
    }

    public T get(int index) {
        return elements.get(index);
    }

    /**
     * The element selected by {@code index} at run time (elements must be leaves).
     * Out-of-range indices (for non-power-of-two sizes) select element 0.
     */
    @SuppressWarnings("unchecked")
    public T get(UInt index) {
        T first = elements.get(0);
        if (!(first instanceof BaseType leaf)) {
            Elaboration.current().error("run-time indexing needs a Vec of Bool/Bits/UInt/SInt; index the leaves instead");
            return first;
        }
        int need = Hdl.log2Up(elements.size());
        if (index.width() != need) {
            Elaboration.current().error("index of a " + elements.size() + "-element Vec must be " + need
                    + " bit(s) wide, got " + index.width());
        }
        Node[] args = new Node[elements.size() + 1];
        args[0] = index.node();
        for (int i = 0; i < elements.size(); i++) {
            args[i + 1] = ((BaseType) elements.get(i)).node();
        }
        return (T) leaf.wrapSame(Ops.op(OpKind.VEC_INDEX, leaf.width(), args));
    }

    @Override
    public Iterator<T> iterator() {
        return elements.iterator();
    }

    public List<T> asList() {
        return elements;
    }

    @Override
    public void forEachLeaf(Consumer<BaseType> action) {
        for (int i = elements.size() - 1; i >= 0; i--) {
            elements.get(i).forEachLeaf(action);
        }
    }

    @Override
    public List<Member> members() {
        List<Member> out = new ArrayList<>(elements.size());
        for (int i = 0; i < elements.size(); i++) {
            out.add(new Member(Integer.toString(i), elements.get(i), false));
        }
        return out;
    }

    @Override
    void bind(SignalKind kind, boolean flip, Location location) {
        for (T e : elements) {
            e.bind(kind, flip, location);
        }
    }

    @Override
    public Vec<T> copyType() {
        List<T> copies = new ArrayList<>(elements.size());
        for (T e : elements) {
            @SuppressWarnings("unchecked")
            T c = (T) e.copyType();
            copies.add(c);
        }
        return new Vec<>(copies);
    }
}
