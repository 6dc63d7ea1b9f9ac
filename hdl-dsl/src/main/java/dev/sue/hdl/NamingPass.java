// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.ComponentIr;
import dev.sue.hdl.ir.MemPorts;
import dev.sue.hdl.ir.MemoryIr;
import dev.sue.hdl.ir.Op;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;
import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gives every signal, memory and instance its name, in this order of preference:
 * a name set through the API ({@code named}, {@code wire("x", ...)}), the Java field
 * holding it (camelCase becomes snake_case), a name derived by a library helper
 * ({@code nameAfter}), and finally a generated name for wires. Registers must end up with a
 * real name: a generated register name would be useless in a timing report.
 */
final class NamingPass {
    private final Elaboration elaboration;
    private final Map<Data, String> resolved = new IdentityHashMap<>();
    private final java.util.Set<Class<?>> checkedModules = new java.util.HashSet<>();

    NamingPass(Elaboration elaboration) {
        this.elaboration = elaboration;
    }

    void run(List<Component> components) {
        for (Component c : components) {
            nameFromFields(c);
        }
        for (Component c : components) {
            nameMemories(c); // first: composite memory reads are named after their data signals
            nameDeclaredData(c);
            nameChildren(c);
            nameLeftovers(c);
            checkNames(c);
        }
    }

    private void nameFromFields(Component c) {
        for (Field f : elaboration.fieldCache().fields(c.getClass(), Component.class)) {
            nameValue(c, FieldCache.read(f, c), Naming.toSnakeCase(f.getName()));
        }
    }

    private void nameValue(Component c, Object value, String name) {
        if (value instanceof Data d) {
            // A field may alias hardware of another component (e.g. a child's port); only the owner names it.
            if (d.parent() == null && ownedBy(d, c)) {
                d.setNameFromField(name);
                if (d instanceof BaseType b && b.isHardware() && b.node() instanceof Op op && op.name() == null
                        && op.owner() == c) {
                    op.setName(name);
                    c.ir().addNamedOp(op);
                }
            }
        } else if (value instanceof Component child) {
            if (child.ir().parent() == c && child.ir().instanceName() == null) {
                child.ir().setInstanceName(name, true);
            }
        } else if (value instanceof Mem<?> m) {
            if (m.ir().name() == null) {
                m.ir().setName(name);
            }
        } else if (value instanceof Object[] array) {
            for (int i = 0; i < array.length; i++) {
                nameValue(c, array[i], name + "_" + i);
            }
        } else if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                nameValue(c, list.get(i), name + "_" + i);
            }
        }
    }

    private static boolean ownedBy(Data d, Component c) {
        List<BaseType> leaves = d.leaves();
        for (BaseType leaf : leaves) {
            if (leaf.isHardware() && leaf.node().owner() != c) {
                return false;
            }
        }
        return true;
    }

    private void nameDeclaredData(Component c) {
        for (Data root : elaboration.declaredData(c)) {
            String rootName = resolve(root);
            if (rootName != null) {
                nameTree(root, rootName);
            }
        }
    }

    /** The name of {@code d} from API, field, parent path or derivation; null if it has none. */
    private String resolve(Data d) {
        if (resolved.containsKey(d)) {
            return resolved.get(d);
        }
        resolved.put(d, null);
        String name = d.name();
        if (name == null && d.parent() != null) {
            String p = resolve(d.parent());
            name = p == null ? null : join(p, d.fieldName());
        }
        if (name == null && d.derivedFrom() != null) {
            String src = resolve(d.derivedFrom());
            if (src == null && d.derivedFrom() instanceof BaseType b && b.isHardware()) {
                src = b.node() instanceof Signal s ? s.name() : b.node() instanceof Op op ? op.name() : null;
            }
            name = src == null ? null : src + d.derivedSuffix();
        }
        resolved.put(d, name);
        return name;
    }

    private void nameTree(Data d, String name) {
        if (d instanceof BaseType leaf) {
            Signal s = leaf.signal();
            if (s != null && !s.hasName()) {
                s.setName(name, true);
            }
            return;
        }
        for (Data.Member m : d.members()) {
            nameTree(m.data(), join(name, m.name()));
        }
    }

    private static String join(String prefix, String member) {
        return member.isEmpty() ? prefix : prefix + "_" + member;
    }

    private void nameMemories(Component c) {
        for (MemoryIr m : c.ir().memories()) {
            if (m.name() == null) {
                m.setName("mem_" + m.location().line());
            }
            int i = 0;
            for (MemPorts.Read r : m.reads()) {
                if (!r.data().hasName()) {
                    r.data().setName(m.name() + "_rdata" + (m.reads().size() > 1 ? "_" + i : ""), true);
                }
                i++;
            }
        }
    }

    private void nameChildren(Component c) {
        Map<String, Integer> perBase = new HashMap<>();
        for (Component child : c.ir().children()) {
            if (child.ir().instanceName() == null) {
                String base = child.moduleBaseName();
                int n = perBase.merge(base, 1, Integer::sum) - 1;
                child.ir().setInstanceName(base + "_" + n, false);
            }
        }
    }

    private void nameLeftovers(Component c) {
        for (Signal s : c.ir().signals()) {
            if (s.hasName()) {
                continue;
            }
            if (s.kind() == SignalKind.REG) {
                elaboration.error(s.location(), "register declared here has no name; store it in a field, "
                        + "use reg(\"name\", ...) or call .named(\"name\")");
                s.setName("unnamed_reg_" + s.location().line(), false);
            } else if (s.kind().isPort()) {
                elaboration.error(s.location(), "port declared here has no name; store it in a field or call .named()");
                s.setName("unnamed_port_" + s.location().line(), false);
            } else {
                s.setName("tmp_" + s.location().line(), false);
            }
        }
    }

    private void checkNames(Component c) {
        ComponentIr ir = c.ir();
        if (!ir.isBlackBox() && checkedModules.add(c.getClass())) {
            String module = c.moduleBaseName();
            if (!Naming.isLegalIdentifier(module) || Naming.isKeyword(module)) {
                elaboration.error(ir.location(), "the module name '" + module + "' of " + c.getClass().getName()
                        + " is not a usable SystemVerilog identifier (keyword or illegal); rename the class or "
                        + "override moduleBaseName()");
            }
        }
        Map<String, Signal> seen = new HashMap<>();
        for (Signal s : ir.signals()) {
            checkIdentifier(s.name(), s.location());
            if (s.nameExplicit()) {
                Signal other = seen.putIfAbsent(s.name(), s);
                if (other != null && other != s) {
                    elaboration.error(s.location(), "two signals in " + c.getClass().getSimpleName() + " are named '"
                            + s.name() + "' (the other is declared at " + other.location() + "); rename one");
                }
            }
        }
        // A named expression is a wire of its own: its name must be as unique as a signal's.
        Map<String, Op> ops = new HashMap<>();
        for (Op op : ir.namedOps()) {
            Location where = ir.namedOpLocation(op);
            checkIdentifier(op.name(), where);
            if (op.owner() != c) {
                continue;
            }
            Signal sameName = seen.get(op.name());
            Op otherOp = ops.putIfAbsent(op.name(), op);
            if (sameName != null || (otherOp != null && otherOp != op)) {
                elaboration.error(where, "two signals in " + c.getClass().getSimpleName() + " are named '" + op.name()
                        + "' (the other is declared at " + (sameName != null ? sameName.location()
                                : ir.namedOpLocation(otherOp)) + "); rename one");
            }
        }
        String inst = ir.instanceName();
        if (inst != null) {
            checkIdentifier(inst, ir.location());
        }
        // Instances share the module's namespace with its signals: a clash would not compile.
        Map<String, Component> instances = new HashMap<>();
        for (Component child : ir.children()) {
            String name = child.ir().instanceName();
            Component other = instances.putIfAbsent(name, child);
            if (other != null) {
                elaboration.error(child.ir().location(), "two instances in " + c.getClass().getSimpleName()
                        + " are named '" + name + "' (the other is created at " + other.ir().location() + "); rename one");
            } else if (seen.containsKey(name)) {
                elaboration.error(child.ir().location(), "instance '" + name + "' in " + c.getClass().getSimpleName()
                        + " has the name of the signal declared at " + seen.get(name).location() + "; rename one");
            }
        }
    }

    private void checkIdentifier(String name, Location where) {
        if (!Naming.isLegalIdentifier(name)) {
            elaboration.error(where, "'" + name + "' is not a legal SystemVerilog identifier; use letters, digits and _");
        } else if (Naming.isKeyword(name)) {
            elaboration.error(where, "'" + name + "' is a reserved SystemVerilog keyword; choose another name");
        }
    }
}
