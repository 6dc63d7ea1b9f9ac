// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import dev.sue.hdl.Location;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** {@code case (selector)}; each case matches one or more constants; optional default block. */
public final class SwitchStmt implements Stmt {
    /** One case item: the constants it matches and its body. */
    public record Case(List<Const> values, Block body, Location location) {
    }

    private final Node selector;
    private final List<Case> cases = new ArrayList<>();
    private Block defaultBlock;
    private final Location location;

    public SwitchStmt(Node selector, Location location) {
        this.selector = selector;
        this.location = location;
    }

    public Node selector() {
        return selector;
    }

    public List<Case> cases() {
        return Collections.unmodifiableList(cases);
    }

    public void addCase(Case c) {
        cases.add(c);
    }

    /** The default block, or null when the switch has none. */
    public Block defaultBlock() {
        return defaultBlock;
    }

    public Block createDefault() {
        if (defaultBlock == null) {
            defaultBlock = new Block();
        }
        return defaultBlock;
    }

    @Override
    public Location location() {
        return location;
    }

    /** True when the case items cover every selector value, so no default is needed. */
    public boolean isFull() {
        if (selector.width() > 20) {
            return false;
        }
        java.util.BitSet seen = new java.util.BitSet(1 << selector.width());
        for (Case c : cases) {
            for (Const v : c.values()) {
                seen.set(v.value().intValueExact());
            }
        }
        return seen.cardinality() == BigInteger.ONE.shiftLeft(selector.width()).intValueExact();
    }
}
