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
        DesignIndex index = new DesignIndex(components, nodeCount);
        new HierarchyCheck(index, errors).run(nodeCount);
        new DriverCheck(index, errors).run();
        new LatchCheck(index, errors).run();
        CombGraph graph = new CombGraph(index);
        if (new LoopCheck(index, graph, errors).run(nodeCount)) {
            new CdcCheck(index, graph, errors, options.defaultDomain()).run(nodeCount);
        }
    }
}
