// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.check;

import dev.sue.hdl.Component;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Op;
import dev.sue.hdl.ir.Signal;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * A component may read its own signals and the ports of its direct sub-components, nothing
 * else: reaching into another component's inside, or a child reading its parent's signals
 * without a port, is an error naming the line that did it.
 */
final class HierarchyCheck {
    private final DesignIndex index;
    private final ErrorSink errors;

    HierarchyCheck(DesignIndex index, ErrorSink errors) {
        this.index = index;
        this.errors = errors;
    }

    void run(int nodeCount) {
        int[] stamp = new int[nodeCount];
        Arrays.fill(stamp, -1);
        Map<Component, Integer> ordinal = new IdentityHashMap<>();
        for (Component c : index.components) {
            ordinal.put(c, ordinal.size());
        }
        ArrayDeque<Node> stack = new ArrayDeque<>();
        for (DesignIndex.Use use : index.uses) {
            int mark = ordinal.get(use.user());
            stack.push(use.root());
            while (!stack.isEmpty()) {
                Node n = stack.pop();
                if (n.id() < 0 || stamp[n.id()] == mark) {
                    continue;
                }
                stamp[n.id()] = mark;
                if (n instanceof Signal s) {
                    checkSignal(use, s);
                } else if (n instanceof Op op) {
                    if (op.owner() != use.user()) {
                        errors.error(use.location(), "an expression built in " + op.owner() + " is used in "
                                + use.user() + "; pass the value through a port");
                        continue;
                    }
                    for (int i = 0; i < op.argCount(); i++) {
                        stack.push(op.arg(i));
                    }
                }
            }
        }
    }

    private void checkSignal(DesignIndex.Use use, Signal s) {
        Component user = use.user();
        Component owner = s.owner();
        if (owner == user) {
            return;
        }
        if (owner.ir().parent() == user && s.kind().isPort()) {
            return;
        }
        String what = s.describe() + " of " + owner;
        if (user.ir().parent() == owner || isAncestor(owner, user)) {
            errors.error(use.location(), what + " is used inside " + user
                    + "; bring it in through an input port of " + user.getClass().getSimpleName());
        } else {
            errors.error(use.location(), what + " is used in " + user
                    + "; only ports of direct sub-components can be read");
        }
    }

    private static boolean isAncestor(Component candidate, Component c) {
        for (Component p = c.ir().parent(); p != null; p = p.ir().parent()) {
            if (p == candidate) {
                return true;
            }
        }
        return false;
    }
}
