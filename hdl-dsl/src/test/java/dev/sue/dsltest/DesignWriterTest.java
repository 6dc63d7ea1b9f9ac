// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.emit.DesignWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files written for a design: one .sv per module, the filelist, the report; stale outputs removed. */
class DesignWriterTest {
    static final class Leaf extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        Leaf() {
            y.set(a.not());
        }
    }

    static final class WithChild extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        WithChild() {
            Leaf l = instance("leaf", Leaf::new);
            l.a.set(a);
            y.set(l.y);
        }
    }

    static final class Alone extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        Alone() {
            y.set(a);
        }
    }

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void writesModulesFilelistAndReport(@TempDir Path dir) throws IOException {
        List<Path> written = new DesignWriter().write(Emit.design(WithChild::new), dir);
        assertEquals(List.of("leaf.sv", "with_child.sv", "with_child.f", "with_child_inst.svh", "with_child.core",
                "with_child.json"), written.stream().map(p -> p.getFileName().toString()).toList());
        assertEquals("leaf.sv\nwith_child.sv\n", Files.readString(dir.resolve("with_child.f")));
        assertTrue(Files.readString(dir.resolve("with_child.json")).endsWith("}\n"));
    }

    @Test
    void theTemplateConnectsEveryPortAndTheCoreListsEveryFile(@TempDir Path dir) throws IOException {
        new DesignWriter().write(Emit.design(WithChild::new), dir);
        String template = Files.readString(dir.resolve("with_child_inst.svh"));
        assertTrue(template.contains("with_child u_with_child (\n"), template);
        assertTrue(template.contains("    .a (a), // input\n"), template);
        assertTrue(template.contains("    .y (y)  // output\n);\n"), template);
        assertTrue(template.contains("any terms"), template);
        String core = Files.readString(dir.resolve("with_child.core"));
        assertTrue(core.startsWith("CAPI=2:\n"), core);
        assertTrue(core.contains("name: hdl-dsl:generated:with_child:"), core);
        assertTrue(core.contains("    files:\n      - leaf.sv\n      - with_child.sv\n"), core);
        assertTrue(core.contains("toplevel: with_child\n"), core);
    }

    @Test
    void filesAreNamedAfterTheDesignNotTheModule(@TempDir Path dir) throws IOException {
        new DesignWriter().write(Emit.design(WithChild::new), dir, "my_design");
        assertEquals(List.of("leaf.sv", "my_design.core", "my_design.f", "my_design.json", "my_design_inst.svh",
                "with_child.sv"), files(dir));
        new DesignWriter().write(Emit.design(Alone::new), dir, "my_design");
        assertEquals(List.of("alone.sv", "my_design.core", "my_design.f", "my_design.json", "my_design_inst.svh"),
                files(dir));
    }

    @Test
    void aNewRunRemovesTheOutputsOfTheLastRunButNothingElse(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("handwritten.sv"), "module handwritten; endmodule\n");
        Files.writeString(dir.resolve("notes.json"), "{}\n");
        Files.writeString(dir.resolve("sim.f"), "handwritten.sv\n");
        new DesignWriter().write(Emit.design(WithChild::new), dir);
        new DesignWriter().write(Emit.design(Alone::new), dir);
        assertEquals(List.of("alone.core", "alone.f", "alone.json", "alone.sv", "alone_inst.svh", "handwritten.sv",
                "notes.json", "sim.f"), files(dir));
    }
}
