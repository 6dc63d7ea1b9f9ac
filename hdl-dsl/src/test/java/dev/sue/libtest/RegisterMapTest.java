// SPDX-License-Identifier: Apache-2.0
package dev.sue.libtest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.*;

import dev.sue.hdl.Component;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.ElaborationException;
import dev.sue.hdl.UInt;
import dev.sue.hdl.demo.RegisterDemo;
import dev.sue.hdl.emit.DesignWriter;
import dev.sue.hdl.emit.SvEmitter;
import dev.sue.hdl.lib.regif.RegBus;
import dev.sue.hdl.lib.regif.RegisterFile;
import dev.sue.hdl.regmap.Access;
import dev.sue.hdl.regmap.FieldSpec;
import dev.sue.hdl.regmap.MarkdownRegsWriter;
import dev.sue.hdl.regmap.PythonRegsWriter;
import dev.sue.hdl.regmap.RegisterBlockSpec;
import dev.sue.hdl.regmap.RegisterMap;
import dev.sue.hdl.regmap.RegisterSpec;
import dev.sue.hdl.regmap.SystemRdlWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The register map model, its exports, and the register-map builder's errors. */
class RegisterMapTest {
    private static FieldSpec rw(String name, int lsb, int width, long reset) {
        return FieldSpec.of(name, lsb, width, Access.RW, reset, "a field");
    }

    private static String message(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    @Test
    void badFieldsAreRefusedWithTheReason() {
        assertTrue(message(() -> rw("x", 30, 4, 0)).contains("does not fit a 32-bit word"));
        assertTrue(message(() -> rw("x", 0, 8, 0).range(5, 300)).contains("not inside 0..255"));
        assertTrue(message(() -> new FieldSpec("x", 0, 8, Access.RW, 0L, 1, 10, "d")).contains("resets to 0, outside"));
        assertTrue(message(() -> rw("1x", 0, 8, 0)).contains("must be a letter"));
        assertTrue(message(() -> rw("class", 0, 8, 0)).contains("Python or C keyword"));
        assertTrue(message(() -> FieldSpec.of("x", 0, 1, Access.RW, 0L, " ")).contains("needs a description"));
    }

    @Test
    void overlapsAreRefused() {
        assertTrue(message(() -> new RegisterSpec("R", 0, 1, "d", List.of(rw("a", 0, 8, 0), rw("b", 4, 8, 0))))
                .contains("field b of register R overlaps"));
        RegisterSpec a = RegisterSpec.single("A", 4, rw("value", 0, 8, 0));
        RegisterSpec t = new RegisterSpec("T", 0, 8, "table", List.of(rw("value", 0, 8, 0)));
        assertTrue(message(() -> new RegisterBlockSpec("blk", "d", 4, List.of(a, t)))
                .contains("registers blk.T and blk.A overlap at word 0x4"));
        assertTrue(message(() -> new RegisterBlockSpec("blk", "d", 2, List.of(a)))
                .contains("outside the block's 2 address bits"));
        RegisterBlockSpec b = new RegisterBlockSpec("blk", "d", 4, List.of(a));
        assertTrue(message(() -> new RegisterMap("m", "d", 8, List.of(new RegisterMap.Placement(8, b))))
                .contains("not aligned to its 16 words"));
        RegisterSpec even = new RegisterSpec("EVEN", 0, 4, 2, "interleaved", List.of(rw("value", 0, 8, 0)));
        RegisterSpec odd = new RegisterSpec("ODD", 1, 4, 2, "interleaved", List.of(rw("value", 0, 8, 0)));
        assertEquals(8, new RegisterBlockSpec("blk", "d", 3, List.of(even, odd)).registers().get(1).end());
        RegisterSpec late = new RegisterSpec("LATE", 5, 1, "d", List.of(rw("value", 0, 8, 0)));
        assertTrue(message(() -> new RegisterBlockSpec("blk", "d", 3, List.of(even, odd, late)))
                .contains("registers blk.ODD and blk.LATE overlap at word 0x5"));
        assertTrue(message(() -> new RegisterSpec("S", 0, 2, 0, "d", List.of(rw("value", 0, 8, 0))))
                .contains("stride >= 1"));
        RegisterBlockSpec c = new RegisterBlockSpec("other", "d", 5, List.of(a));
        assertTrue(message(() -> new RegisterMap("m", "d", 8,
                List.of(new RegisterMap.Placement(16, b), new RegisterMap.Placement(0, c)))).contains("overlap at word 0x10"));
    }

    @Test
    void systemRdlEscapesKeywordsAndListsTables() {
        RegisterSpec mode = new RegisterSpec("MODE", 1, 1, "mode", List.of(rw("level", 0, 4, 3).range(0, 9)));
        RegisterSpec table = new RegisterSpec("PSN", 16, 16, "sequence numbers",
                List.of(FieldSpec.of("psn", 0, 16, Access.RW, null, "next PSN")));
        RegisterSpec column = new RegisterSpec("COL", 2, 2, 8, "a column of a table of records",
                List.of(FieldSpec.of("v", 0, 8, Access.RW, null, "a value")));
        RegisterMap map = new RegisterMap("m", "a map", 10, List.of(new RegisterMap.Placement(64,
                new RegisterBlockSpec("blk", "a block", 6, List.of(mode, table, column)))));
        String rdl = SystemRdlWriter.write(map, "header");
        assertTrue(rdl.contains("} \\level[3:0] = 0x3;"), rdl);
        assertTrue(rdl.contains("Legal values 0..9"), rdl);
        assertTrue(rdl.contains("} PSN[16] @ 0x40 += 0x4;"), rdl);
        assertTrue(rdl.contains("} blk @ 0x100;"), rdl);
        assertTrue(rdl.contains("} COL @ 0x0;\n        } record_2[2] @ 0x8 += 0x20;"), rdl);
        assertTrue(rdl.startsWith("// header\naddrmap m {"), rdl);
        String py = PythonRegsWriter.write(map, "header");
        assertTrue(py.contains("MODE = Register(\"blk_MODE\", 0x104, 1,"), py);
        assertTrue(py.contains("Field(\"level\", 0, 4, \"rw\", 3, 0, 9),"), py);
        assertTrue(py.contains("PSN = Register(\"blk_PSN\", 0x140, 16,"), py);
        assertTrue(py.contains("    ), stride=32)"), py);
        String md = MarkdownRegsWriter.write(map, "header");
        assertTrue(md.contains("| 0x0108 + 32i, i < 2 | `COL`[i] |"), md);
        assertTrue(md.contains("| 0x0140 + 4i, i < 16 | `PSN`[i] |"), md);
    }

    /** A block whose registers overlap: the builder reports it at the user's line. */
    static final class Overlapping extends Component {
        Overlapping() {
            RegBus bus = slave(new RegBus(4));
            RegisterFile regs = new RegisterFile("blk", "a block", bus);
            regs.rw("A", 1, 8, 0, "a");
            regs.rw("B", 1, 8, 0, "b");
            regs.build();
        }
    }

    /** A field wider than the word. */
    static final class TooWide extends Component {
        final UInt v = in(uint(40));

        TooWide() {
            RegBus bus = slave(new RegBus(4));
            RegisterFile regs = new RegisterFile("blk", "a block", bus);
            regs.ro("A", 0, v, "a");
            regs.build();
        }
    }

    @Test
    void builderErrorsNameTheUsersLine() {
        ElaborationException e = assertThrows(ElaborationException.class, () -> Elaboration.elaborate(Overlapping::new));
        assertTrue(e.getMessage().contains("registers blk.A and blk.B overlap at word 0x1"), e.getMessage());
        assertTrue(e.getMessage().contains("RegisterMapTest.java"), e.getMessage());
        e = assertThrows(ElaborationException.class, () -> Elaboration.elaborate(TooWide::new));
        assertTrue(e.getMessage().contains("does not fit a 32-bit word"), e.getMessage());
        assertTrue(e.getMessage().contains("RegisterMapTest.java"), e.getMessage());
    }

    @Test
    void designWriterExportsTheMapAndRemovesStaleExports(@TempDir Path dir) throws Exception {
        var design = Elaboration.elaborate(() -> new RegisterDemo(100));
        new DesignWriter().write(new SvEmitter().emit(design), dir, "regs");
        for (String f : List.of("regs.rdl", "regs_regs.py", "regs_regs.md")) {
            assertTrue(Files.isRegularFile(dir.resolve(f)), f);
        }
        String json = Files.readString(dir.resolve("regs.json"));
        assertTrue(json.contains("\"register_map_spec\""), json);
        assertTrue(Files.readString(dir.resolve("regs.rdl")).contains("may be used, modified and distributed under any terms"));
        var plain = Elaboration.elaborate(() -> new dev.sue.hdl.demo.DemoAccumulator(8, 16));
        new DesignWriter().write(new SvEmitter().emit(plain), dir, "regs");
        assertFalse(Files.exists(dir.resolve("regs.rdl")), "a rewrite without a map leaves no stale export");
    }
}
