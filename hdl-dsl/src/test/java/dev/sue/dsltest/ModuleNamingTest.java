// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.emit.EmitOptions;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.EmittedModule;
import dev.sue.hdl.emit.SvEmitter;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** Module names for integration: prefix, content suffix below the top, top name. */
class ModuleNamingTest {
    static final class Stage extends Component {
        final UInt a;
        final UInt y;

        Stage(int width) {
            param("width", width);
            a = in(uint(width));
            y = out(uint(width));
            y.set(regNext(a));
        }
    }

    static final class Pipe extends Component {
        final UInt a = in(uint(8));
        final UInt y = out(uint(8));

        Pipe(int middle) {
            Stage first = instance("first", () -> new Stage(8));
            Stage second = instance("second", () -> new Stage(8));
            first.a.set(a);
            second.a.set(first.y);
            if (middle == 8) {
                y.set(second.y);
            } else {
                Stage other = instance("other", () -> new Stage(middle));
                other.a.set(second.y.resize(middle));
                y.set(other.y.resize(8));
            }
        }
    }

    private static List<String> names(Supplier<? extends Component> top, EmitOptions options) {
        EmittedDesign d = new SvEmitter(options).emit(Emit.elaborate(top));
        return d.modules().stream().map(EmittedModule::name).toList();
    }

    @Test
    void plainNamesNumberTheVariantsOfAClass() {
        assertEquals(List.of("stage", "stage_2", "pipe"), names(() -> new Pipe(4), EmitOptions.PLAIN));
    }

    @Test
    void integrationNamesCarryThePrefixAndAContentSuffixBelowTheTop() {
        List<String> names = names(() -> new Pipe(4), EmitOptions.integration("acme_", null));
        assertEquals(3, names.size());
        assertTrue(names.get(0).matches("acme_stage_[0-9a-f]{8}"), names.toString());
        assertTrue(names.get(1).matches("acme_stage_[0-9a-f]{8}"), names.toString());
        assertNotEquals(names.get(0), names.get(1));
        assertEquals("acme_pipe", names.get(2));
    }

    @Test
    void equalContentGetsTheSameNameInEveryDesign() {
        String alone = names(() -> new Pipe(8), EmitOptions.integration("sue_", "pipe_a")).get(0);
        List<String> withOther = names(() -> new Pipe(4), EmitOptions.integration("sue_", "pipe_b"));
        assertEquals(alone, withOther.get(0), "the 8-bit stage is the same module in both designs");
        assertEquals("pipe_b", withOther.get(2));
    }

    @Test
    void aPrefixIsNotDoubled() {
        assertEquals("pipe", names(() -> new Pipe(8), EmitOptions.integration("pi", null)).get(1));
    }

    @Test
    void badPrefixesAndTopNamesAreRejectedWithTheRule() {
        assertTrue(EmitOptions.prefixProblem("1x").contains("cannot start a SystemVerilog identifier"));
        assertTrue(EmitOptions.prefixProblem("a b").contains("cannot start a SystemVerilog identifier"));
        assertTrue(EmitOptions.prefixProblem("wire").contains("keyword"));
        assertEquals(null, EmitOptions.prefixProblem(""));
        assertEquals(null, EmitOptions.prefixProblem("sue_"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EmitOptions.integration("sue_", "module"));
        assertTrue(e.getMessage().contains("not a plain SystemVerilog identifier"), e.getMessage());
    }

    /** The same logic written from two different Java lines (a refactor moving code). */
    static final class Moved extends Component {
        final UInt a = in(uint(8));
        final UInt y = out(uint(8));

        Moved(boolean here) {
            if (here) {
                y.set(regNext(a.add(1)).named("next"));
                assertThat(a.ne(255), "a below its maximum");
            } else {
                y.set(regNext(a.add(1)).named("next"));
                assertThat(a.ne(255), "a below its maximum");
            }
        }
    }

    static final class TwoMoved extends Component {
        final UInt a = in(uint(8));
        final UInt y = out(uint(8));

        TwoMoved() {
            Moved first = instance("first", () -> new Moved(true));
            Moved second = instance("second", () -> new Moved(false));
            first.a.set(a);
            second.a.set(first.y);
            y.set(second.y);
        }
    }

    @Test
    void theContentNameIgnoresJavaSourceLines() {
        List<String> names = names(TwoMoved::new, EmitOptions.integration("sue_", null));
        assertEquals(2, names.size(), "one module for both instances: " + names);
        EmittedDesign d = new SvEmitter(EmitOptions.integration("sue_", null)).emit(Emit.elaborate(TwoMoved::new));
        String moved = d.modules().get(0).text();
        assertTrue(moved.contains("ModuleNamingTest.java:"), "the emitted text keeps its source locations");
        assertTrue(moved.contains("a below its maximum (ModuleNamingTest.java:"), moved);
    }
}
