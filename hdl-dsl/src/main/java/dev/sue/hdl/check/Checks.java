// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.check;

import dev.sue.hdl.Component;
import dev.sue.hdl.ElaborationOptions;
import java.util.List;

/**
 * The elaboration checks, in order: hierarchy, drivers, latches, combinational loops and
 * clock-domain crossings. All report into one sink so the user sees every problem at once;
 * the crossing check runs only on loop-free designs because it needs a well-founded order.
 */
public final class Checks {
    private final ErrorSink errors;

    public Checks(ErrorSink errors) {
        this.errors = errors;
    }

    public void run(List<Component> components, ElaborationOptions options, int nodeCount) {
        dev.sue.hdl.PhaseTimer timer = new dev.sue.hdl.PhaseTimer();
        DesignIndex index = new DesignIndex(components, nodeCount);
        timer.done("  index");
        new HierarchyCheck(index, errors).run(nodeCount);
        timer.done("  hierarchy");
        new DriverCheck(index, errors).run();
        timer.done("  drivers");
        new LatchCheck(index, errors).run();
        timer.done("  latches");
        CombGraph graph = new CombGraph(index);
        if (new LoopCheck(index, graph, errors).run(nodeCount)) {
            timer.done("  loops");
            new CdcCheck(index, graph, errors, options.defaultDomain()).run(nodeCount);
            timer.done("  crossings");
        }
    }
}
