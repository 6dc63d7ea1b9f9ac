// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static org.junit.jupiter.api.Assertions.fail;

import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.ElaborationOptions;
import dev.sue.hdl.emit.DesignWriter;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.EmittedModule;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Elaborates and emits test designs. An unexpected elaboration error fails the test with
 * every error listed, so a broken test design is easy to diagnose.
 */
public final class Emit {
    private Emit() {
    }

    public static Design elaborate(Supplier<? extends Component> top) {
        return elaborate(ElaborationOptions.defaults(), top);
    }

    public static Design elaborate(ElaborationOptions options, Supplier<? extends Component> top) {
        try {
            return Elaboration.elaborate(options, top);
        } catch (ElaborationException e) {
            return fail("the test design should elaborate cleanly, but: " + e.getMessage(), e);
        }
    }

    public static EmittedDesign design(Supplier<? extends Component> top) {
        return design(ElaborationOptions.defaults(), top);
    }

    public static EmittedDesign design(ElaborationOptions options, Supplier<? extends Component> top) {
        return new dev.sue.hdl.emit.SvEmitter().emit(elaborate(options, top));
    }

    /** The text of the top module's file. */
    public static String sv(Supplier<? extends Component> top) {
        EmittedDesign d = design(top);
        return module(d, d.topModule());
    }

    public static String sv(ElaborationOptions options, Supplier<? extends Component> top) {
        EmittedDesign d = design(options, top);
        return module(d, d.topModule());
    }

    /** The text of module {@code name} of an emitted design. */
    public static String module(EmittedDesign d, String name) {
        for (EmittedModule m : d.modules()) {
            if (m.name().equals(name)) {
                return m.text();
            }
        }
        return fail("no module '" + name + "' in " + d.modules().stream().map(EmittedModule::name).toList());
    }

    /** The JSON report as ordered maps. */
    public static Map<String, Object> report(Supplier<? extends Component> top) {
        return DesignWriter.report(design(top));
    }
}
