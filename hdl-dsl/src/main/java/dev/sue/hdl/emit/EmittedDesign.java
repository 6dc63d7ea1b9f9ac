// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.emit;

import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import java.util.List;
import java.util.Map;

/**
 * The emitted text of a design: modules in dependency order (every module after the
 * modules it instantiates, the top last), the module name of every component instance and the
 * options it was emitted with.
 */
public record EmittedDesign(Design design, List<EmittedModule> modules, Map<Component, String> moduleOf,
        EmitOptions options) {
    public String topModule() {
        return moduleOf.get(design.top());
    }
}
