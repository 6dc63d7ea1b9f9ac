// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.check;

import dev.sue.hdl.Component;
import dev.sue.hdl.Location;
import dev.sue.hdl.ir.Assign;
import dev.sue.hdl.ir.Block;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;
import dev.sue.hdl.ir.Stmt;
import dev.sue.hdl.ir.SwitchStmt;
import dev.sue.hdl.ir.WhenStmt;
import java.util.Map;
import java.util.Set;

/**
 * A combinational signal (wire, output, sub-component input) must be assigned on every
 * path through its component's statements; otherwise it would have to remember its value,
 * which is a latch. Registers are exempt: keeping the value is what they do.
 */
final class LatchCheck {
    private final DesignIndex index;
    private final ErrorSink errors;

    LatchCheck(DesignIndex index, ErrorSink errors) {
        this.index = index;
        this.errors = errors;
    }

    void run() {
        for (Component c : index.components) {
            // Ordered by node id (declaration order), so errors come out in the same order every run.
            Map<Signal, Location> firstGap = new java.util.TreeMap<>(java.util.Comparator.comparingInt(Signal::id));
            Set<Signal> covered = covered(c.ir().body(), firstGap);
            for (Map.Entry<Signal, Location> gap : firstGap.entrySet()) {
                Signal s = gap.getKey();
                if (!covered.contains(s) && isCombinational(s)) {
                    errors.error(index.assigns(s).get(0).location(), s.describe() + " is not assigned on every path "
                            + "(the branch at " + gap.getValue() + " can leave it unassigned), which would infer a latch; "
                            + "assign a default value before the conditional or cover every branch");
                }
            }
        }
    }

    private static boolean isCombinational(Signal s) {
        return s.kind() == SignalKind.WIRE || s.kind() == SignalKind.OUT || s.kind() == SignalKind.IN;
    }

    /** Signals assigned on every path through {@code block}; records conditionals that leave others unassigned. */
    private Set<Signal> covered(Block block, Map<Signal, Location> gaps) {
        Set<Signal> done = DesignIndex.identitySet();
        // Gaps opened inside this block: an assignment later in the block closes them.
        Map<Signal, Location> open = new java.util.LinkedHashMap<>();
        for (Stmt s : block.statements()) {
            if (s instanceof Assign a) {
                done.add(a.target());
                open.remove(a.target());
            } else if (s instanceof WhenStmt w) {
                Set<Signal> t = covered(w.thenBlock(), open);
                Set<Signal> e = covered(w.elseBlock(), open);
                merge(done, open, w.location(), t, e);
            } else if (s instanceof SwitchStmt sw) {
                Set<Signal>[] branches = branchSets(sw, open);
                merge(done, open, sw.location(), branches);
            }
        }
        for (Map.Entry<Signal, Location> gap : open.entrySet()) {
            gaps.putIfAbsent(gap.getKey(), gap.getValue());
        }
        return done;
    }

    @SuppressWarnings("unchecked")
    private Set<Signal>[] branchSets(SwitchStmt sw, Map<Signal, Location> gaps) {
        int n = sw.cases().size() + 1;
        Set<Signal>[] sets = new Set[n];
        for (int i = 0; i < sw.cases().size(); i++) {
            sets[i] = covered(sw.cases().get(i).body(), gaps);
        }
        if (sw.defaultBlock() != null) {
            sets[n - 1] = covered(sw.defaultBlock(), gaps);
        } else if (sw.isFull()) {
            sets[n - 1] = null;
        } else {
            sets[n - 1] = DesignIndex.identitySet();
        }
        return sets;
    }

    @SafeVarargs
    private static void merge(Set<Signal> done, Map<Signal, Location> gaps, Location where, Set<Signal>... branches) {
        Set<Signal> all = DesignIndex.identitySet();
        for (Set<Signal> b : branches) {
            if (b != null) {
                all.addAll(b);
            }
        }
        for (Signal s : all) {
            boolean everywhere = true;
            for (Set<Signal> b : branches) {
                if (b != null && !b.contains(s)) {
                    everywhere = false;
                    break;
                }
            }
            if (everywhere) {
                done.add(s);
            } else if (!done.contains(s)) {
                gaps.putIfAbsent(s, where);
            }
        }
    }
}
