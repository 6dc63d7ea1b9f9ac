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
 * @param decodeLevels LUT levels of logic synthesis adds between the inputs and the storage: the
 *                 bank-select demultiplexer of the write enables of a LUT RAM deeper than one
 *                 primitive; 0 elsewhere
 */
record Endpoint(String kind, Signal register, String name, List<Node> inputs, Location location, double decodeLevels) {
    Endpoint(String kind, Signal register, String name, List<Node> inputs, Location location) {
        this(kind, register, name, inputs, location, 0);
    }

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
                // A memory read asynchronously is a LUT RAM: above one primitive, each primitive's
                // write enable is the port's enable and address decoded (yosys memory_libmap).
                boolean lutRam = m.reads().stream().anyMatch(r -> !r.isSync());
                double decode = lutRam ? DepthCost.lutRamWriteDecodeLevels(m.depth()) : 0;
                for (MemPorts.Write w : m.writes()) {
                    List<Node> select = new ArrayList<>(List.of(w.address(), w.enable()));
                    if (w.byteEnable() != null) {
                        select.add(w.byteEnable());
                    }
                    if (decode > 0) {
                        out.add(new Endpoint("memory write port", null, mem, List.of(w.data()), w.location()));
                        out.add(new Endpoint("memory write enable", null, mem, select, w.location(), decode));
                    } else {
                        select.add(1, w.data());
                        out.add(new Endpoint("memory write port", null, mem, select, w.location()));
                    }
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
