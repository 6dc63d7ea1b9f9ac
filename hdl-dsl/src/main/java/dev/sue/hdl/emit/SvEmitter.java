package dev.sue.hdl.emit;

import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.ir.ComponentIr;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Emits a design as SystemVerilog, one module per file. Components are emitted children
 * first; two instances whose class and emitted body are identical share one module, so a
 * design with a thousand identical lanes still has one lane module. When one class yields
 * several different bodies (different parameters), the variants are numbered in the order
 * they are first met, which is deterministic for a given design.
 */
public final class SvEmitter {
    public EmittedDesign emit(Design design) {
        Map<Component, String> moduleOf = new IdentityHashMap<>();
        Map<String, String> nameByKey = new HashMap<>();
        Map<String, Integer> variants = new HashMap<>();
        List<EmittedModule> modules = new ArrayList<>();
        emit(design.top(), moduleOf, nameByKey, variants, modules);
        return new EmittedDesign(design, List.copyOf(modules), moduleOf);
    }

    private void emit(Component c, Map<Component, String> moduleOf, Map<String, String> nameByKey,
            Map<String, Integer> variants, List<EmittedModule> modules) {
        // Explicit post-order over the hierarchy; hierarchies are shallow, so recursion depth is the nesting depth.
        for (Component child : c.ir().children()) {
            emit(child, moduleOf, nameByKey, variants, modules);
        }
        ComponentIr ir = c.ir();
        if (ir.isBlackBox()) {
            String name = ir.blackBoxModule();
            moduleOf.put(c, name);
            String key = "blackbox:" + name;
            if (!nameByKey.containsKey(key)) {
                nameByKey.put(key, name);
                if (ir.blackBoxSource() != null) {
                    modules.add(new EmittedModule(name, ir.blackBoxSource(), c, true));
                }
            }
            return;
        }
        String body = new ModuleWriter(c, moduleOf).write();
        String key = c.getClass().getName() + "\n" + body;
        String existing = nameByKey.get(key);
        if (existing != null) {
            moduleOf.put(c, existing);
            return;
        }
        String base = c.moduleBaseName();
        int n = variants.merge(base, 1, Integer::sum);
        String name = n == 1 ? base : base + "_" + n;
        nameByKey.put(key, name);
        moduleOf.put(c, name);
        modules.add(new EmittedModule(name, ModuleHeader.header(c, name) + "module " + name + body + "\n`resetall\n",
                c, false));
    }
}
