// SPDX-License-Identifier: Apache-2.0
package dev.sue.regress;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Elaboration;
import dev.sue.hdl.emit.SvEmitter;
import dev.sue.hdl.lib.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Naming a value that merely aliases a declared signal (a one-input reduction, a conversion,
 * cat of one part) must not rename the declared signal: a one-input join once renamed its
 * input port {@code s_0_valid} to {@code all_valid}.
 */
class AliasNamingTest {
    static final class Aliases extends Component {
        public final Stream<Bits> s = slave(Stream.of(() -> bits(8)));
        public final Bool plain = in(bool());
        public final Bool y = out(bool());

        Aliases() {
            Bool memberAlias = s.valid;
            memberAlias.named("all_valid");
            Bits converted = cat(plain).named("plain_bits");
            s.ready.set(TRUE);
            y.set(memberAlias.and(converted.asBool()).or(s.payload.orR()));
        }
    }

    static final class LocalPort extends Component {
        LocalPort() {
            Bool a = in(bool()).named("local_in");
            Bool b = out(bool()).named("local_out");
            b.set(a);
        }
    }

    @Test
    void aliasesDoNotRenameDeclaredSignals() {
        String sv = new SvEmitter().emit(Elaboration.elaborate(Aliases::new)).modules().get(0).text();
        assertTrue(sv.contains("input  wire logic       s_valid,"), sv);
        assertTrue(sv.contains(" plain,"), sv);
        assertFalse(sv.contains("all_valid") || sv.contains("plain_bits"), sv);
    }

    @Test
    void namingTheDeclaringValueStillNamesIt() {
        String sv = new SvEmitter().emit(Elaboration.elaborate(LocalPort::new)).modules().get(0).text();
        assertTrue(sv.contains("local_in") && sv.contains("local_out"), sv);
    }
}
