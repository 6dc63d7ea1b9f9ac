// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** An ordered list of statements; later assignments to the same signal win. */
public final class Block {
    private final List<Stmt> statements = new ArrayList<>();

    public void add(Stmt statement) {
        statements.add(statement);
    }

    public List<Stmt> statements() {
        return Collections.unmodifiableList(statements);
    }

    public boolean isEmpty() {
        return statements.isEmpty();
    }
}
