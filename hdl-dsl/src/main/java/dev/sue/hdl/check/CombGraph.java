// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.check;

import dev.sue.hdl.ir.MemPorts;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Op;
import dev.sue.hdl.ir.Signal;
import java.util.List;

/**
 * The design's combinational dependency graph over IR nodes: an operation depends on its
 * operands; a wire, output or sub-component input on the values and conditions of its
 * assignments; an asynchronous memory read on its address. Registers, synchronous reads,
 * top-level inputs and constants are sources.
 */
final class CombGraph {
    private final DesignIndex index;

    CombGraph(DesignIndex index) {
        this.index = index;
    }

    List<Node> successors(Node n) {
        if (n instanceof Op op) {
            return op.args();
        }
        if (n instanceof Signal s) {
            switch (s.kind()) {
                case WIRE, OUT:
                    return index.deps(s);
                case IN:
                    return s.owner().ir().parent() == null ? List.of() : index.deps(s);
                case MEM_DATA: {
                    MemPorts.Read r = index.asyncReadOf[s.id()];
                    return r == null ? List.of() : List.of(r.address());
                }
                default:
                    return List.of();
            }
        }
        return List.of();
    }
}
