// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Assertion;
import dev.sue.hdl.ir.ComponentIr;
import dev.sue.hdl.ir.MemPorts;
import dev.sue.hdl.ir.MemoryIr;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Routes clock domains: every component that uses a domain (directly or through a
 * sub-component) gets its clock, reset and clock-enable as input ports, placed first in
 * the port list. The emitter connects them to the parent's ports of the same domain.
 */
final class ClockPortPass {
    private final Elaboration elaboration;

    ClockPortPass(Elaboration elaboration) {
        this.elaboration = elaboration;
    }

    void run(Component top) {
        usedDomains(top);
    }

    private Set<ClockDomain> usedDomains(Component c) {
        ComponentIr ir = c.ir();
        Set<ClockDomain> used = new LinkedHashSet<>();
        for (Signal s : ir.signals()) {
            if (s.domain() != null) {
                used.add(s.domain());
            }
        }
        for (MemoryIr m : ir.memories()) {
            for (MemPorts.Write w : m.writes()) {
                used.add(w.domain());
            }
            for (MemPorts.Read r : m.reads()) {
                if (r.isSync()) {
                    used.add(r.domain());
                }
            }
        }
        for (Assertion a : ir.assertions()) {
            used.add(a.domain());
        }
        for (Component child : ir.children()) {
            used.addAll(usedDomains(child));
        }
        if (ir.isBlackBox()) {
            return used;
        }
        int position = 0;
        for (ClockDomain d : used) {
            Signal clock = port(c, d.clockPortName());
            Signal reset = d.reset() == ClockDomain.Reset.NONE ? null : port(c, d.resetPortName());
            Signal enable = d.hasClockEnable() ? port(c, d.enablePortName()) : null;
            ir.addDomainPorts(d, new ComponentIr.DomainPorts(clock, reset, enable), position);
            position += 1 + (reset != null ? 1 : 0) + (enable != null ? 1 : 0);
        }
        return used;
    }

    private Signal port(Component c, String name) {
        Signal s = new Signal(SignalKind.IN, 1, elaboration.newNodeId(), c, Location.GENERATED);
        s.setName(name, true);
        return s;
    }
}
