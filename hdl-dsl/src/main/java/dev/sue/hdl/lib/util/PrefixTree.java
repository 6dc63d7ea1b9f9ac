// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.util;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * A Sklansky parallel prefix: element {@code i} of the result is {@code x[i] o x[i-1] o ... o x[0]}
 * for an associative {@code o}, in {@code log2(N)} steps ({@code N log2 N / 2} operators). The
 * shared structure of the gate-built {@link LutAdder} (generate / propagate pairs) and
 * {@link OneHot}'s prefix ORs.
 */
final class PrefixTree {
    private PrefixTree() {
    }

    /**
     * The prefixes of {@code x}, {@code combine.apply(upper, lower)} joining a group with the group
     * below it.
     */
    static <T> List<T> sklansky(List<T> x, BinaryOperator<T> combine) {
        List<T> prefix = new ArrayList<>(x);
        // at each step every element in the upper half of a 2 * span block takes in the group
        // term of the lower half's top element
        for (int span = 1; span < x.size(); span <<= 1) {
            List<T> next = new ArrayList<>(prefix);
            for (int i = 0; i < x.size(); i++) {
                if ((i & span) != 0) {
                    next.set(i, combine.apply(prefix.get(i), prefix.get((i & ~(span - 1)) - 1)));
                }
            }
            prefix = next;
        }
        return prefix;
    }
}
