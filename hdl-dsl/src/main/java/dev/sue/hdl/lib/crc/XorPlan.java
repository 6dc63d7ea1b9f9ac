// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A LUT-friendly XOR network for {@code y = M x} over GF(2): XOR gates of at most {@code k}
 * inputs (the LUT size, 6 for current FPGAs), sharing common sub-sums between outputs.
 *
 * <p>A flat network XORs each row's inputs separately; for a CRC's data matrix most of that
 * work is duplicated, because the rows are dense and highly correlated. The plan is built in
 * two steps:
 * <ol>
 *   <li><b>Sharing (greedy common-subexpression elimination).</b> Repeatedly take the pair of
 *       operands used together by the most rows, grow it to at most {@code k} operands that
 *       those rows still share, and replace it by one new shared node in each of them. A node
 *       is kept when it saves input slots: {@code rows * (size - 1) > k - 1}. Sharing runs in
 *       rounds: round {@code r} only groups operands of logic level {@code r}, so shared
 *       nodes stay shallow.</li>
 *   <li><b>Trees.</b> Each row XORs its remaining operands with {@code k}-input gates,
 *       always combining the shallowest operands first (k-ary Huffman by level, the first
 *       gate taking just enough operands that all later ones take {@code k}), which gives the
 *       least depth for the operands' levels with the fewest gates.</li>
 * </ol>
 * The pair search uses a bucket queue over pair counts with lazy re-bucketing (counts only
 * fall as operands are consumed), so planning a 2048-bit CRC-32 takes well under a second.
 * Everything is deterministic (ties go to the lowest index), so the emitted SV is stable.
 *
 * <p>Operands are numbered: {@code 0..inputs-1} are the matrix columns, {@code inputs + j} is
 * node {@code j}. Rows are at most 32 (a CRC's width).
 */
public final class XorPlan {
    private final int inputs;
    private final int rows;
    private final List<int[]> nodes;
    private final int[] nodeLevel;
    private final int[][] rowOperands;
    private final int shared;

    private XorPlan(int inputs, int rows, List<int[]> nodes, int[] nodeLevel, int[][] rowOperands, int shared) {
        this.inputs = inputs;
        this.rows = rows;
        this.nodes = nodes;
        this.nodeLevel = nodeLevel;
        this.rowOperands = rowOperands;
        this.shared = shared;
    }

    /** Number of inputs (matrix columns). */
    public int inputs() {
        return inputs;
    }

    public int rows() {
        return rows;
    }

    /** Internal XOR gates, in dependency order; entry {@code j} is operand {@code inputs + j}. */
    public List<int[]> nodes() {
        return nodes;
    }

    /** Operands whose XOR is output {@code r} (at most {@code k}; one means a plain wire, none means 0). */
    public int[] rowOperands(int r) {
        return rowOperands[r];
    }

    /** Gates needed: internal nodes plus one per row with two or more operands. */
    public int gates() {
        int n = nodes.size();
        for (int[] ops : rowOperands) {
            if (ops.length > 1) {
                n++;
            }
        }
        return n;
    }

    /** Of the internal nodes, how many are shared between rows. */
    public int sharedNodes() {
        return shared;
    }

    /** Logic levels of the deepest output (inputs are level 0). */
    public int depth() {
        int d = 0;
        for (int[] ops : rowOperands) {
            d = Math.max(d, rowLevel(ops));
        }
        return d;
    }

    private int rowLevel(int[] ops) {
        if (ops.length == 0) {
            return 0;
        }
        int l = 0;
        for (int o : ops) {
            l = Math.max(l, level(o));
        }
        return ops.length == 1 ? l : l + 1;
    }

    private int level(int operand) {
        return operand < inputs ? 0 : nodeLevel[operand - inputs];
    }

    /** The plan's output for input bits {@code x} (bit set of {@code inputs} bits): for tests. */
    public long[] evaluate(long[] x) {
        boolean[] v = new boolean[inputs + nodes.size()];
        for (int i = 0; i < inputs; i++) {
            v[i] = (x[i >>> 6] >>> i & 1) != 0;
        }
        for (int j = 0; j < nodes.size(); j++) {
            boolean acc = false;
            for (int o : nodes.get(j)) {
                acc ^= v[o];
            }
            v[inputs + j] = acc;
        }
        long[] y = new long[(rows + 63) >>> 6];
        for (int r = 0; r < rows; r++) {
            boolean acc = false;
            for (int o : rowOperands[r]) {
                acc ^= v[o];
            }
            if (acc) {
                y[r >>> 6] |= 1L << r;
            }
        }
        return y;
    }

    /** A flat plan: no sharing, each row a tree of {@code k}-input gates. */
    public static XorPlan flat(Gf2Matrix m, int k) {
        return build(m, k, 0, k);
    }

    /**
     * The shared plan with the fewest gates among up to {@code maxRounds} sharing rounds that is
     * no deeper than the flat plan (so sharing never lengthens the critical path).
     */
    public static XorPlan shared(Gf2Matrix m, int k, int maxRounds) {
        return shared(m, k, maxRounds, k);
    }

    /**
     * Like {@link #shared(Gf2Matrix, int, int)}, with each output's last gate taking at most
     * {@code rootInputs} operands, leaving {@code k - rootInputs} inputs of its LUT for logic the
     * caller adds around the sum (e.g. a 2:1 mux needs 2 more: the select and the other value).
     */
    public static XorPlan shared(Gf2Matrix m, int k, int maxRounds, int rootInputs) {
        XorPlan best = build(m, k, 0, rootInputs);
        int limit = best.depth();
        for (int rounds = 1; rounds <= maxRounds; rounds++) {
            XorPlan p = build(m, k, rounds, rootInputs);
            if (p.depth() <= limit && p.gates() < best.gates()) {
                best = p;
            }
        }
        return best;
    }

    /** A plan with exactly {@code rounds} sharing rounds (0: flat). */
    public static XorPlan build(Gf2Matrix m, int k, int rounds) {
        return build(m, k, rounds, k);
    }

    /** A plan with exactly {@code rounds} sharing rounds and at most {@code rootInputs} operands per output. */
    public static XorPlan build(Gf2Matrix m, int k, int rounds, int rootInputs) {
        if (k < 2) {
            throw new IllegalArgumentException("gates need at least 2 inputs, got " + k);
        }
        if (rootInputs < 1 || rootInputs > k) {
            throw new IllegalArgumentException("rootInputs must be 1.." + k + ", got " + rootInputs);
        }
        int rows = m.rows();
        if (rows > 32) {
            throw new IllegalArgumentException("at most 32 rows, got " + rows);
        }
        int n = m.cols();
        // mask[c]: rows that (still) use operand c
        int[] mask = new int[n + 64];
        for (int r = 0; r < rows; r++) {
            for (int c : m.rowTerms(r)) {
                mask[c] |= 1 << r;
            }
        }
        int count = n;
        List<int[]> nodes = new ArrayList<>();
        List<Integer> levels = new ArrayList<>();
        int[] level = new int[n + 64];
        for (int round = 0; round < rounds; round++) {
            int[] cand = operandsAtLevel(level, mask, count, round);
            Share s = new Share(mask, cand, k);
            while (true) {
                int[] group = s.next();
                if (group == null) {
                    break;
                }
                int rowsOf = s.lastRows;
                if (count == mask.length) {
                    mask = Arrays.copyOf(mask, mask.length * 2);
                    level = Arrays.copyOf(level, level.length * 2);
                    s.mask = mask;
                }
                for (int c : group) {
                    mask[c] &= ~rowsOf;
                }
                mask[count] = rowsOf;
                level[count] = round + 1;
                nodes.add(group);
                levels.add(round + 1);
                count++;
            }
        }
        int shared = nodes.size();
        // per-row trees, shallowest operands first
        int[][] rowOps = new int[rows][];
        for (int r = 0; r < rows; r++) {
            PriorityQueue<long[]> q = new PriorityQueue<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0])
                    : Long.compare(a[1], b[1]));
            for (int c = 0; c < count; c++) {
                if ((mask[c] >>> r & 1) != 0) {
                    q.add(new long[] {level[c], c});
                }
            }
            // k-ary Huffman by level: the first gate takes just enough operands that every later
            // gate takes exactly k and the root ends with exactly rootInputs; least depth.
            int take = q.size() > rootInputs ? (q.size() - rootInputs) % (k - 1) + 1 : 0;
            if (take == 1) {
                take = k;
            }
            while (q.size() > rootInputs) {
                int[] g = new int[take];
                int lv = 0;
                for (int i = 0; i < take; i++) {
                    long[] e = q.poll();
                    g[i] = (int) e[1];
                    lv = (int) Math.max(lv, e[0]);
                }
                Arrays.sort(g);
                if (count == level.length) {
                    level = Arrays.copyOf(level, level.length * 2);
                    mask = Arrays.copyOf(mask, mask.length * 2);
                }
                level[count] = lv + 1;
                nodes.add(g);
                levels.add(lv + 1);
                q.add(new long[] {lv + 1, count});
                count++;
                take = k;
            }
            int[] ops = new int[q.size()];
            int i = 0;
            while (!q.isEmpty()) {
                ops[i++] = (int) q.poll()[1];
            }
            Arrays.sort(ops);
            rowOps[r] = ops;
        }
        int[] nl = new int[levels.size()];
        for (int j = 0; j < nl.length; j++) {
            nl[j] = levels.get(j);
        }
        return new XorPlan(n, rows, List.copyOf(nodes), nl, rowOps, shared);
    }

    private static int[] operandsAtLevel(int[] level, int[] mask, int count, int lv) {
        int[] out = new int[count];
        int k = 0;
        for (int c = 0; c < count; c++) {
            if (level[c] == lv && Integer.bitCount(mask[c]) >= 2) {
                out[k++] = c;
            }
        }
        return Arrays.copyOf(out, k);
    }

    /** Greedy search for shared groups among one round's candidate operands. */
    private static final class Share {
        int[] mask;
        final int[] cand;
        final int k;
        // buckets[b]: pairs (i, j) of candidate indices whose shared-row count was b when filed
        final ArrayDeque<Long>[] buckets;
        int top;
        int lastRows;

        @SuppressWarnings("unchecked")
        Share(int[] mask, int[] cand, int k) {
            this.mask = mask;
            this.cand = cand;
            this.k = k;
            buckets = new ArrayDeque[33];
            for (int b = 0; b <= 32; b++) {
                buckets[b] = new ArrayDeque<>();
            }
            // File pairs from the highest index down so that popping (LIFO) yields low indices first.
            for (int i = cand.length - 1; i >= 0; i--) {
                int mi = mask[cand[i]];
                for (int j = cand.length - 1; j > i; j--) {
                    int b = Integer.bitCount(mi & mask[cand[j]]);
                    if (b >= 2) {
                        buckets[b].push(((long) i << 32) | j);
                    }
                }
            }
            top = 32;
        }

        /** The next group worth sharing (operand numbers, ascending), or null when none is left. */
        int[] next() {
            while (top >= 2) {
                if (buckets[top].isEmpty()) {
                    top--;
                    continue;
                }
                long p = buckets[top].pop();
                int i = (int) (p >>> 32);
                int j = (int) p;
                int rowsOf = mask[cand[i]] & mask[cand[j]];
                int b = Integer.bitCount(rowsOf);
                if (b < top) {
                    if (b >= 2) {
                        buckets[b].addLast(p); // stale: file it where it belongs now
                    }
                    continue;
                }
                int[] group = grow(i, j, rowsOf);
                if (group != null) {
                    return group;
                }
                // not worth it now; counts only fall, so this pair never will be
            }
            return null;
        }

        private int[] grow(int i, int j, int rowsOf) {
            int[] g = new int[k];
            g[0] = i;
            g[1] = j;
            int size = 2;
            int r = rowsOf;
            int bestSize = 0;
            int bestRows = 0;
            int[] best = null;
            while (true) {
                if (worth(size, Integer.bitCount(r)) && (best == null
                        || saving(size, Integer.bitCount(r)) > saving(bestSize, Integer.bitCount(bestRows)))) {
                    best = Arrays.copyOf(g, size);
                    bestSize = size;
                    bestRows = r;
                }
                if (size == k) {
                    break;
                }
                int pick = -1;
                int pickRows = 0;
                for (int c = 0; c < cand.length; c++) {
                    if (contains(g, size, c)) {
                        continue;
                    }
                    int rc = Integer.bitCount(mask[cand[c]] & r);
                    if (rc > pickRows) {
                        pickRows = rc;
                        pick = c;
                    }
                }
                if (pick < 0 || pickRows < 2) {
                    break;
                }
                g[size++] = pick;
                r &= mask[cand[pick]];
            }
            if (best == null) {
                return null;
            }
            lastRows = bestRows;
            int[] out = new int[bestSize];
            for (int t = 0; t < bestSize; t++) {
                out[t] = cand[best[t]];
            }
            Arrays.sort(out);
            return out;
        }

        /** Input slots saved, net of the shared gate's own {@code k - 1}. */
        private int saving(int size, int nrows) {
            return nrows * (size - 1) - (k - 1);
        }

        private boolean worth(int size, int nrows) {
            return nrows >= 2 && saving(size, nrows) > 0;
        }

        private static boolean contains(int[] g, int size, int c) {
            for (int t = 0; t < size; t++) {
                if (g[t] == c) {
                    return true;
                }
            }
            return false;
        }
    }
}
