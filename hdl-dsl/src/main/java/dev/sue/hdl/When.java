// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Block;
import dev.sue.hdl.ir.WhenStmt;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * Continuation of a {@code when}: chain {@link #elseWhen} and finish with {@link #otherwise}.
 * Inside a process the last assignment to a signal wins.
 */
public final class When {
    private final Elaboration.Frame frame;
    private final WhenStmt statement;
    private final List<Supplier<dev.sue.hdl.ir.Node>> elseGuards;

    When(Elaboration.Frame frame, WhenStmt statement, List<Supplier<dev.sue.hdl.ir.Node>> elseGuards) {
        this.frame = frame;
        this.statement = statement;
        this.elseGuards = elseGuards;
    }

    /** Runs {@code body} when none of the previous conditions held and {@code condition} does. */
    public When elseWhen(Bool condition, Runnable body) {
        WhenStmt nested = new WhenStmt(condition.node(), Location.here());
        statement.elseBlock().add(nested);
        List<Supplier<dev.sue.hdl.ir.Node>> thenGuards = new ArrayList<>(elseGuards);
        thenGuards.add(() -> condition.node());
        run(frame, nested.thenBlock(), thenGuards, body);
        List<Supplier<dev.sue.hdl.ir.Node>> next = new ArrayList<>(elseGuards);
        next.add(() -> condition.not().node());
        return new When(frame, nested, next);
    }

    /** Runs {@code body} when none of the conditions held. */
    public void otherwise(Runnable body) {
        run(frame, statement.elseBlock(), elseGuards, body);
    }

    static void run(Elaboration.Frame frame, Block block, List<Supplier<dev.sue.hdl.ir.Node>> guards, Runnable body) {
        Elaboration e = Elaboration.current();
        if (e.frame() != frame) {
            e.error("this when belongs to " + frame.component + "; finish it inside that component's code");
            return;
        }
        frame.blocks.push(block);
        for (Supplier<dev.sue.hdl.ir.Node> g : guards) {
            frame.guards.addLast(g);
        }
        try {
            body.run();
        } finally {
            for (int i = 0; i < guards.size(); i++) {
                frame.guards.removeLast();
            }
            frame.blocks.pop();
        }
    }
}
