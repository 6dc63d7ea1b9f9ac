// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.timing;

import dev.sue.hdl.Component;
import dev.sue.hdl.Location;
import dev.sue.hdl.ir.ComponentIr;
import dev.sue.hdl.ir.MemPorts;
import dev.sue.hdl.ir.MemoryIr;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;
import java.util.ArrayList;
import java.util.List;

/**
 * Where a register-to-register path ends: a register (its data and clock-enable logic), an
 * output port of the top, an input of a black box, or the inputs of a memory port (address,
 * data and enables of a write; address and enable of a synchronous read).
 *
 * @param kind     what it is, for messages
 * @param register the register, or null
 * @param name     hierarchical name
 * @param inputs   the nodes that must settle before the edge (empty for a register)
 * @param location the declaration (register, port) or the statement that made the memory port
 */
record Endpoint(String kind, Signal register, String name, List<Node> inputs, Location location) {
    /** Every end point of the flattened design, in component and declaration order. */
    static List<Endpoint> all(List<Component> components, SignalNames names) {
        List<Endpoint> out = new ArrayList<>();
        for (Component c : components) {
            ComponentIr ir = c.ir();
            for (Signal s : ir.signals()) {
                if (s.kind() == SignalKind.REG) {
                    out.add(new Endpoint("register", s, names.of(s), List.of(), s.location()));
                } else if (s.kind() == SignalKind.OUT && ir.parent() == null) {
                    out.add(new Endpoint("output port", null, names.of(s), List.of(s), s.location()));
                } else if (s.kind() == SignalKind.IN && ir.isBlackBox()) {
                    out.add(new Endpoint("black-box input", null, names.of(s), List.of(s), s.location()));
                }
            }
            for (MemoryIr m : ir.memories()) {
                String mem = names.prefix(c) + m.name();
                for (MemPorts.Write w : m.writes()) {
                    List<Node> in = new ArrayList<>(List.of(w.address(), w.data(), w.enable()));
                    if (w.byteEnable() != null) {
                        in.add(w.byteEnable());
                    }
                    out.add(new Endpoint("memory write port", null, mem, in, w.location()));
                }
                for (MemPorts.Read r : m.reads()) {
                    if (r.isSync()) {
                        List<Node> in = new ArrayList<>(List.of(r.address()));
                        if (r.enable() != null) {
                            in.add(r.enable());
                        }
                        out.add(new Endpoint("memory read port", null, mem, in, r.location()));
                    }
                }
            }
        }
        return out;
    }
}
