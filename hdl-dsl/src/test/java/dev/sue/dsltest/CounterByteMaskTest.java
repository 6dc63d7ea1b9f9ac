// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.emit.DesignWriter;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.lib.util.ByteMask;
import dev.sue.hdl.lib.util.Counter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** lib.util.Counter and lib.util.ByteMask against Java models, simulated in Icarus. */
class CounterByteMaskTest {
    static final class Dut extends Component {
        final Bool tick = in(bool());
        final UInt sat = out(uint(3));
        final UInt wrap = out(uint(3));
        final UInt sat1 = out(uint(1));
        final UInt count = in(uint(4));
        final Bits first = out(bits(8));
        final UInt rem = in(uint(3));
        final Bits last = out(bits(8));
        final Bits keep = in(bits(8));
        final UInt kept = out(uint(4));
        final Bits expanded = out(bits(64));

        Dut() {
            sat.set(Counter.saturating("sat_count", 3, tick));
            wrap.set(Counter.wrapping("wrap_count", 3, tick));
            sat1.set(Counter.saturating("sat1_count", 1, tick));
            first.set(ByteMask.firstBytes(count, 8));
            last.set(ByteMask.lastBeat(rem, 8));
            kept.set(ByteMask.count(keep));
            expanded.set(ByteMask.expand(keep));
        }
    }

    @Test
    void matchTheirModelsInIcarus(@TempDir Path dir) throws Exception {
        if (Boolean.getBoolean("hdl.requireTools")) {
            assertTrue(SimulationSemanticsTest.haveIcarus(), "hdl.requireTools: iverilog is not installed");
        }
        assumeTrue(SimulationSemanticsTest.haveIcarus(), "iverilog is not installed");
        EmittedDesign d = Emit.design(Dut::new);
        new DesignWriter().write(d, dir);
        Random rnd = new Random(5);
        int cycles = 64;
        StringBuilder hex = new StringBuilder();
        List<int[]> stim = new ArrayList<>();
        for (int i = 0; i < cycles; i++) {
            // event, count 0..9, rem, keep contiguous from byte 0 (0..8 bytes)
            int[] s = {rnd.nextInt(4) != 0 ? 1 : 0, rnd.nextInt(10), rnd.nextInt(8), (1 << rnd.nextInt(9)) - 1};
            stim.add(s);
            hex.append(Integer.toHexString(s[0] << 15 | s[1] << 11 | s[2] << 8 | s[3])).append('\n');
        }
        Files.writeString(dir.resolve("vectors.hex"), hex);
        Files.writeString(dir.resolve("tb.sv"), """
                module tb;
                    logic clk = 0, rst = 1, tick;
                    logic [2:0] sat, wrap, rem;
                    logic sat1;
                    logic [3:0] count, kept;
                    logic [7:0] first, last, keep;
                    logic [63:0] expanded;
                    logic [15:0] stimulus [0:%d];
                    %s dut (.*);
                    initial begin
                        $readmemh("vectors.hex", stimulus);
                        #1 clk = 1; #1 clk = 0; rst = 0;
                        for (int i = 0; i < %d; i++) begin
                            {tick, count, rem, keep} = stimulus[i];
                            #1;
                            $display("%%0d %%0d %%0d %%0h %%0h %%0d %%0h", sat, wrap, sat1, first, last, kept, expanded);
                            clk = 1; #1; clk = 0;
                        end
                        $finish;
                    end
                endmodule
                """.formatted(cycles - 1, d.topModule(), cycles));
        List<String> lines = SimulationSemanticsTest.simulate(d, dir);
        assertEquals(cycles, lines.size(), String.join("\n", lines));
        int events = 0;
        for (int i = 0; i < cycles; i++) {
            int[] s = stim.get(i);
            int keepBytes = Integer.bitCount(s[3]);
            long expanded = 0;
            for (int b = 0; b < 8; b++) {
                if ((s[3] >> b & 1) != 0) {
                    expanded |= 0xFFL << (8 * b);
                }
            }
            String want = Math.min(events, 7) + " " + (events & 7) + " " + Math.min(events, 1) + " "
                    + Integer.toHexString((1 << Math.min(s[1], 8)) - 1) + " "
                    + Integer.toHexString(s[2] == 0 ? 0xFF : (1 << s[2]) - 1) + " " + keepBytes + " "
                    + Long.toHexString(expanded);
            assertEquals(want, lines.get(i).strip(), "cycle " + i);
            events += s[0];
        }
        assertTrue(events > 8, "the run saturates the 3-bit counter");
    }
}
