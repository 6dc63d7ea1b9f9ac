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
        assertEquals(List.of("leaf.sv", "with_child.sv", "with_child.f", "with_child.json"),
                written.stream().map(p -> p.getFileName().toString()).toList());
        assertEquals("leaf.sv\nwith_child.sv\n", Files.readString(dir.resolve("with_child.f")));
        assertTrue(Files.readString(dir.resolve("with_child.json")).endsWith("}\n"));
    }

    @Test
    void aNewRunRemovesTheOutputsOfTheLastRunButNothingElse(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("handwritten.sv"), "module handwritten; endmodule\n");
        Files.writeString(dir.resolve("notes.json"), "{}\n");
        Files.writeString(dir.resolve("sim.f"), "handwritten.sv\n");
        new DesignWriter().write(Emit.design(WithChild::new), dir);
        new DesignWriter().write(Emit.design(Alone::new), dir);
        assertEquals(List.of("alone.f", "alone.json", "alone.sv", "handwritten.sv", "notes.json", "sim.f"), files(dir));
    }
}
