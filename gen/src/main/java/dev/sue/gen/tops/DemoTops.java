// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.hdl.demo.ClockingZoo;
import dev.sue.hdl.demo.DemoAccumulator;
import dev.sue.hdl.demo.OperatorZoo;
import dev.sue.hdl.demo.StreamFilterDemo;
import java.util.List;
import java.util.Map;

/**
 * The DSL's demo and semantics designs ({@code dev.sue.hdl.demo}): small tops whose cocotb
 * tests prove the Java -> SystemVerilog -> Verilator chain and pin down what each DSL
 * construct means in the emitted SystemVerilog.
 */
final class DemoTops {
    private DemoTops() {
    }

    static void register(Catalog c) {
        c.add(new TopSpec("demo_accumulator",
                "small demo: ALU sub-component, enum, history RAM; proves the Java -> SV -> Verilator chain",
                List.of(ParamSpec.integer("width", "accumulator width in bits", 8, 1, 64),
                        ParamSpec.oneOf("historyDepth", "entries of the history RAM", 16, 2L, 4L, 8L, 16L, 32L, 64L,
                                128L, 256L, 512L, 1024L)),
                v -> () -> new DemoAccumulator(v.integer("width"), v.integer("historyDepth"))));
        c.add(new Preset("demo", "demo_accumulator", Map.of(), "the demo accumulator with default parameters"));
        c.add(new Preset("demo_wide", "demo_accumulator", Map.of("width", "64", "historyDepth", "1024"),
                "the demo accumulator at its largest"));

        // 1..256: narrow enough to simulate quickly, wide enough to cover literals and
        // products beyond 64 bits (a 256-bit product is 512 bits wide).
        c.add(new TopSpec("operator_zoo",
                "every DSL operator on random inputs, one output each: checks the emitter's semantics",
                List.of(ParamSpec.integer("width", "data width in bits", 8, 1, 256)),
                v -> () -> new OperatorZoo(v.integer("width"))));

        // memDepth defaults to 12, not a power of two, so the default lint covers a partial address space.
        c.add(new TopSpec("clocking_zoo",
                "two clock domains (sync reset; async active-low reset with clock enable), registers with and "
                        + "without reset, byte-enable RAM with sync and async reads, two-flop synchronisers",
                List.of(ParamSpec.oneOf("width", "data width in bits", 16, 8L, 16L, 24L, 32L, 64L, 72L, 128L),
                        ParamSpec.integer("memDepth", "words of the byte-enable memory", 12, 2, 1024)),
                v -> () -> new ClockingZoo(v.integer("width"), v.integer("memDepth"))));

        c.add(new TopSpec("stream_filter_demo",
                "the inline stream operations throwWhen, haltWhen and map chained on a UInt stream",
                List.of(ParamSpec.integer("width", "payload width in bits", 16, 1, 64),
                        ParamSpec.flag("haltFirst", "haltWhen before throwWhen (halt stops every transfer)", true)),
                v -> () -> new StreamFilterDemo(v.integer("width"), v.flag("haltFirst"))));
    }
}
