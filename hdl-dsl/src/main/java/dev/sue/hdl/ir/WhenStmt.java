// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import dev.sue.hdl.Location;

/** {@code if (condition) thenBlock else elseBlock}; the else block may stay empty. */
public final class WhenStmt implements Stmt {
    private final Node condition;
    private final Block thenBlock = new Block();
    private final Block elseBlock = new Block();
    private final Location location;

    public WhenStmt(Node condition, Location location) {
        this.condition = condition;
        this.location = location;
    }

    public Node condition() {
        return condition;
    }

    public Block thenBlock() {
        return thenBlock;
    }

    public Block elseBlock() {
        return elseBlock;
    }

    @Override
    public Location location() {
        return location;
    }
}
