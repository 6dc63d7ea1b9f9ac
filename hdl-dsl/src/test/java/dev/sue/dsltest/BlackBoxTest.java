// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLines;
import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.BlackBox;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.emit.EmittedDesign;
import dev.sue.hdl.emit.EmittedModule;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Black boxes: instantiation with parameters, optional source text, no checks on their insides. */
class BlackBoxTest {
    static final String SOURCE = """
            `timescale 1ns / 1ps
            module vendor_add #(parameter WIDTH = 8, parameter MODE = "fast", parameter SIM = 0) (
                input  wire logic [WIDTH-1:0] a,
                input  wire logic [WIDTH-1:0] b,
                output logic      [WIDTH-1:0] y
            );
                assign y = a + b;
                // verilator lint_off UNUSEDPARAM
                localparam UNUSED = MODE == "fast" || SIM;
                // verilator lint_on UNUSEDPARAM
            endmodule
            """;

    static final class VendorAdd extends BlackBox {
        final UInt a = in(uint(8));
        final UInt b = in(uint(8));
        final UInt y = out(uint(8));

        VendorAdd(boolean withSource) {
            super("vendor_add", withSource ? SOURCE : null);
            svParameter("WIDTH", 8);
            svParameter("MODE", "fast");
            svParameter("SIM", true);
        }
    }

    static final class User extends Component {
        final UInt a = in(uint(8));
        final UInt y = out(uint(8));
        final Bool z = out(bool());

        User(boolean withSource) {
            VendorAdd add = instance("u_add", () -> new VendorAdd(withSource));
            add.a.set(a);
            add.b.set(a.not());
            y.set(add.y);
            z.set(add.y.orR());
        }
    }

    @Test
    void instantiatedWithItsParameters() {
        String sv = Emit.sv(() -> new User(true));
        assertLines(sv,
                "vendor_add #(",
                ".WIDTH(8),",
                ".MODE(\"fast\"),",
                ".SIM(1)",
                ") u_add (",
                ".a (a),",
                ".b (u_add_b),",
                ".y (u_add_y)",
                ");");
    }

    @Test
    void itsSourceIsWrittenBeforeTheModulesThatUseIt() {
        EmittedDesign d = Emit.design(() -> new User(true));
        List<String> names = d.modules().stream().map(EmittedModule::name).toList();
        assertEquals(List.of("vendor_add", "user"), names);
        EmittedModule bb = d.modules().get(0);
        assertTrue(bb.blackBox());
        assertEquals(SOURCE, bb.text());
        assertEquals("vendor_add.sv", bb.fileName());
    }

    @Test
    void withoutSourceOnlyTheInstanceIsEmitted() {
        EmittedDesign d = Emit.design(() -> new User(false));
        assertEquals(List.of("user"), d.modules().stream().map(EmittedModule::name).toList());
        assertEquals("vendor_add", d.moduleOf().get(d.design().top().ir().children().get(0)));
    }
}
