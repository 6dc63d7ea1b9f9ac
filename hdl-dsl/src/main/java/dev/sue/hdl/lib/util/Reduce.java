// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.util;

import dev.sue.hdl.Bool;
import java.util.List;

/** AND/OR over a list of {@link Bool}s (for a vector use {@code andR()}/{@code orR()}). */
public final class Reduce {
    private Reduce() {
    }

    /** True when every element is; {@code bools} must not be empty. */
    public static Bool all(List<Bool> bools) {
        Bool acc = bools.get(0);
        for (int i = 1; i < bools.size(); i++) {
            acc = acc.and(bools.get(i));
        }
        return acc;
    }

    /** True when any element is; {@code bools} must not be empty. */
    public static Bool any(List<Bool> bools) {
        Bool acc = bools.get(0);
        for (int i = 1; i < bools.size(); i++) {
            acc = acc.or(bools.get(i));
        }
        return acc;
    }
}
