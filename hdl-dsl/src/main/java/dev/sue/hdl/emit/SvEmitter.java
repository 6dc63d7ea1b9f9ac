// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.emit;

import dev.sue.hdl.Component;
import dev.sue.hdl.Design;
import dev.sue.hdl.ir.ComponentIr;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Emits a design as SystemVerilog, one module per file. Components are emitted children
 * first; two instances whose class and emitted body are identical share one module, so a
 * design with a thousand identical lanes still has one lane module. Module names follow the
 * {@link EmitOptions}: with {@link EmitOptions#PLAIN} the variants of one class are numbered in
 * the order they are first met (deterministic for a given design); with
 * {@link EmitOptions#integration} they carry a prefix and a suffix from their content.
 */
public final class SvEmitter {
    private final EmitOptions options;

    /** Plain names ({@link EmitOptions#PLAIN}). */
    public SvEmitter() {
        this(EmitOptions.PLAIN);
    }

    public SvEmitter(EmitOptions options) {
        this.options = options;
    }

    public EmittedDesign emit(Design design) {
        Map<Component, String> moduleOf = new IdentityHashMap<>();
        Map<String, String> nameByKey = new HashMap<>();
        Map<String, Integer> variants = new HashMap<>();
        List<EmittedModule> modules = new ArrayList<>();
        emit(design.top(), moduleOf, nameByKey, variants, modules);
        return new EmittedDesign(design, List.copyOf(modules), moduleOf, options);
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
        // the key (deduplication and the content name) leaves out Java source locations: the same logic
        // emitted from edited Java keeps its module name
        String key = c.getClass().getName() + "\n" + new ModuleWriter(c, moduleOf, false).write();
        String existing = nameByKey.get(key);
        if (existing != null) {
            moduleOf.put(c, existing);
            return;
        }
        String name = moduleName(c, key, nameByKey, variants);
        nameByKey.put(key, name);
        moduleOf.put(c, name);
        String body = new ModuleWriter(c, moduleOf, true).write();
        modules.add(new EmittedModule(name, ModuleHeader.header(c, name, options.stamp()) + "module " + name + body + "\n`resetall\n",
                c, false));
    }

    private String moduleName(Component c, String key, Map<String, String> nameByKey, Map<String, Integer> variants) {
        String base = options.prefixed(c.moduleBaseName());
        if (c.ir().parent() == null && options.topName() != null) {
            base = options.topName();
        }
        String name;
        if (options.contentSuffix() && c.ir().parent() != null) {
            String digest = sha256(key);
            name = base + "_" + digest.substring(0, 8);
            if (nameByKey.containsValue(name)) {
                // Two bodies share 32 bits of digest: take the whole digest rather than a counter,
                // so the name still depends on the content alone.
                name = base + "_" + digest;
            }
        } else {
            int n = variants.merge(base, 1, Integer::sum);
            name = n == 1 ? base : base + "_" + n;
        }
        return name;
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
