// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.dsltest.Sv.assertLines;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Vec: element naming, static and run-time indexing, packing. */
class VecTest {
    static final class VecPorts extends Component {
        final Vec<UInt> v = in(Vec.of(4, i -> uint(8)));
        final UInt idx = in(uint(2));
        final Vec<UInt> w = out(Vec.of(2, i -> uint(8)));
        final UInt picked = out(uint(8));
        final UInt dyn = out(uint(8));
        final Bits flat = out(bits(32));

        VecPorts() {
            w.get(0).set(v.get(3));
            w.get(1).set(v.get(0).add(v.get(1)));
            picked.set(v.get(2));
            dyn.set(v.get(idx));
            flat.set(asBits(v));
        }
    }

    @Test
    void elementsAreNamedByIndex() {
        String sv = Emit.sv(VecPorts::new);
        assertLine(sv, "input  wire logic [7:0] v_0,");
        assertLine(sv, "input  wire logic [7:0] v_3,");
        assertLine(sv, "output logic      [7:0] w_1,");
        assertLine(sv, "assign w_0 = v_3;");
        assertLine(sv, "assign w_1 = v_0 + v_1;");
        assertLine(sv, "assign picked = v_2;");
    }

    @Test
    void runTimeIndexIsACaseStatement() {
        String sv = Emit.sv(VecPorts::new);
        assertLines(sv,
                "always_comb begin",
                "case (idx)",
                "2'd0: vec_index_0 = v_0;",
                "2'd1: vec_index_0 = v_1;",
                "2'd2: vec_index_0 = v_2;",
                "2'd3: vec_index_0 = v_3;",
                "endcase",
                "end");
        assertLine(sv, "assign dyn = vec_index_0;");
    }

    @Test
    void elementZeroIsTheLeastSignificantWhenPacked() {
        assertLine(Emit.sv(VecPorts::new), "assign flat = {v_3, v_2, v_1, v_0};");
    }

    static final class OddVec extends Component {
        final UInt idx = in(uint(2));
        final UInt y = out(uint(4));

        OddVec() {
            Vec<UInt> table = Vec.of(List.of(U(1, 4), U(2, 4), U(9, 4)));
            y.set(table.get(idx));
            assertEquals(3, table.size());
        }
    }

    @Test
    void runTimeIndexBeyondTheLastElementSelectsElementZero() {
        String sv = Emit.sv(OddVec::new);
        assertLines(sv,
                "case (idx)",
                "2'd0: vec_index_0 = 4'd1;",
                "2'd1: vec_index_0 = 4'd2;",
                "2'd2: vec_index_0 = 4'd9;",
                "default: vec_index_0 = 4'd1;",
                "endcase");
    }

    static final class VecRegs extends Component {
        final UInt d = in(uint(4));
        final UInt q = out(uint(4));

        VecRegs() {
            Vec<UInt> stages = reg(Vec.of(3, i -> uint(4))).named("stage");
            stages.get(0).set(d);
            stages.get(1).set(stages.get(0));
            stages.get(2).set(stages.get(1));
            q.set(stages.get(2));
        }
    }

    @Test
    void aNamedVecOfRegisters() {
        String sv = Emit.sv(VecRegs::new);
        assertLine(sv, "logic [3:0] stage_0;");
        assertLine(sv, "stage_1 <= stage_0;");
        assertLine(sv, "assign q = stage_2;");
    }
}
