// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.hdl.demo.RegisterDemo;
import dev.sue.hdl.lib.regs.WordReadMux;
import java.util.List;

/** Tops for the register helpers of the hardware library ({@code dev.sue.hdl.lib.regs}). */
public final class RegsTops {
    private RegsTops() {
    }

    public static void register(Catalog c) {
        c.add(new TopSpec("word_read_mux",
                "read port over n status words: index in, value out two cycles later",
                List.of(ParamSpec.integer("n", "number of words", 40, 1, 65536),
                        ParamSpec.integer("width", "bits per word", 32, 1, 64)),
                v -> {
                    int n = v.integer("n");
                    int w = v.integer("width");
                    return () -> new WordReadMux(n, w);
                }));
        c.add(new TopSpec("register_demo",
                "every register kind of the register-map builder behind an AXI4-Lite target; exports SystemRDL, Python, Markdown",
                List.of(ParamSpec.integer("tableEntries", "entries of the RAM table", 100, 2, 256)),
                v -> {
                    int n = v.integer("tableEntries");
                    return () -> new RegisterDemo(n);
                }));
    }
}
