// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.bench;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;

/**
 * Benchmark filler: a chain of register stages mixing XOR, add, shift, compare and mux,
 * each under a when/otherwise. {@code seed} changes the constants so no two lanes emit the
 * same module (emission then scales with the design instead of being deduplicated away).
 */
public final class SyntheticLane extends Component {
    public final Bool valid = in(bool());
    public final UInt data;
    public final UInt result;

    public SyntheticLane(int seed, int width, int stages) {
        param("seed", seed);
        param("stages", stages);
        data = in(uint(width));
        result = out(uint(width));
        long mask = width == 64 ? -1L >>> 1 : (1L << width) - 1;
        UInt prev = data;
        for (int i = 0; i < stages; i++) {
            long k = ((seed * 0x9E3779B1L) ^ (i * 0x85EBCA77L)) & mask;
            UInt stage = reg("s" + i, uint(width)).init(0);
            UInt mixed = prev.xor(U(k, width)).add(prev.shl(1));
            UInt current = prev;
            when(valid, () -> stage.set(mux(mixed.gt(current), mixed, current)))
                    .otherwise(() -> stage.set(stage.sub(1)));
            prev = stage;
        }
        result.set(prev);
    }
}
