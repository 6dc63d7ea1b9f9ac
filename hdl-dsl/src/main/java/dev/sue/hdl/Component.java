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

    @Override
    public String toString() {
        String name = ir.instanceName() == null ? "?" : ir.instanceName();
        return getClass().getSimpleName() + " '" + name + "'";
    }
}
