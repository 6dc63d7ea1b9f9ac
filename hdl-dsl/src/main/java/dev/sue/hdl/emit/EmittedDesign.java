package dev.sue.hdl.emit;

import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import java.util.List;
import java.util.Map;

/**
 * The emitted text of a design: modules in dependency order (every module after the
 * modules it instantiates, the top last) and the module name of every component instance.
 */
public record EmittedDesign(Design design, List<EmittedModule> modules, Map<Component, String> moduleOf) {
    public String topModule() {
        return moduleOf.get(design.top());
    }
}
