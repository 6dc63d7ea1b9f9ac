// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.ComponentIr;

/**
 * A hardware module. Subclass it, declare ports as fields with {@code in(...)} /
 * {@code out(...)} and describe behaviour in the constructor; generation
 * parameters are ordinary constructor arguments.
 *
 * <p>Sub-components must be created through {@link Hdl#instance(java.util.function.Supplier)}
 * so the DSL knows, without a compiler plugin, which component the code that follows belongs to:
 * <pre>{@code
 * Counter counter = instance(() -> new Counter(8));
 * counter.enable.set(go);
 * }</pre>
 */
public abstract class Component {
    private final ComponentIr ir;

    protected Component() {
        Elaboration elaboration = Elaboration.current();
        this.ir = elaboration.enterComponent(this);
        elaboration.pushFrame(this);
    }

    /** The IR recorded for this instance; used by passes, the emitter and tests. */
    public final ComponentIr ir() {
        return ir;
    }

    /** Module name root: the class name in snake case unless overridden. */
    public String moduleBaseName() {
        return Naming.toSnakeCase(getClass().getSimpleName());
    }

    /**
     * For messages: {@code Fifo 'rx_fifo'}; the top, and instances whose name is not known yet
     * (field names are resolved after construction), are described by class and creation line.
     */
    @Override
    public String toString() {
        if (ir.instanceName() != null) {
            return getClass().getSimpleName() + " '" + ir.instanceName() + "'";
        }
        return ir.parent() == null ? getClass().getSimpleName()
                : getClass().getSimpleName() + " (created at " + ir.location() + ")";
    }
}
