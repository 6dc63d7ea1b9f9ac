// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.Mem;
import dev.sue.hdl.SInt;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Smaller checks of the API: memories, conversions, helpers, bundles without copyType. */
class ApiMisuseTest {
    static final class MemErrors extends Component {
        final UInt addr = in(uint(3));
        final Bits data = in(bits(16));
        final Bool we = in(bool());
        final Bits q = out(bits(16));
        final Bits r = out(bits(12));

        MemErrors() {
            Mem<Bits> m = Mem.of(16, 16).named("m");
            m.write(addr, data, we); // MARK:mem-addr
            m.write(addr.resize(4), data.resize(8), we); // MARK:mem-data
            m.write(addr.resize(4), data, we, B(1, 1)); // MARK:mem-be-width
            q.set(m.readSync(addr.resize(4)));
            Mem<Bits> odd = Mem.of(4, 12).named("odd");
            odd.write(addr.resize(2), data.resize(12), we, B(1, 1)); // MARK:mem-be-lanes
            r.set(odd.readAsync(addr.resize(2)));
        }
    }

    @Test
    void memoryPortsCheckTheirWidths() {
        List<HdlError> errors = Errors.of(MemErrors::new);
        Errors.expect(errors, "mem-addr", "address of a 16-word memory must be 4 bit(s) wide, got 3");
        Errors.expect(errors, "mem-data", "value is Bits(8), the word needs Bits(16)");
        Errors.expect(errors, "mem-be-width", "byte enable must be 2 bit(s) wide, got 1");
        Errors.expect(errors, "mem-be-lanes", "byte enables need a width that is a multiple of 8, this memory is 12 bits wide");
    }

    static final class TinyMem extends Component {
        TinyMem() {
            Mem.of(1, 8); // MARK:mem-depth
        }
    }

    @Test
    void aMemoryNeedsTwoWords() {
        Errors.only(Errors.of(TinyMem::new), "mem-depth", "a memory needs depth >= 2 and width >= 1, got depth 1, width 8");
    }

    static final class Helpers extends Component {
        final Bits p = in(bits(4));
        final UInt u = in(uint(4));
        final SInt s = in(sint(4));
        final Bool c = in(bool());
        final Bool y = out(bool());
        final Bits z = out(bits(4));

        Helpers() {
            Bool b = p.asBool(); // MARK:as-bool
            Bits none = cat(); // MARK:cat-empty
            Bits rep = repeat(p, 0); // MARK:repeat-zero
            z.set(mux(c, u.asBits(), s.asBits()));
            mux(c, u, u).asBits();
            p.asUInt().add(u).init(1); // MARK:init-expression
            Vec<UInt> v = Vec.of(3, i -> u);
            UInt w = wire("w", uint(4)).init(2); // MARK:init-wire
            w.set(v.get(1));
            inDomain(ClockDomain.external("rx"), w); // MARK:in-domain
            y.set(b.or(none.lsb()).or(rep.lsb()).or(w.msb()));
        }
    }

    @Test
    void helperMisuse() {
        List<HdlError> errors = Errors.of(Helpers::new);
        Errors.expect(errors, "as-bool", "asBool() needs a 1-bit value, this one has 4 bits; select a bit with bit(i)");
        Errors.expect(errors, "cat-empty", "cat() needs at least one value");
        Errors.expect(errors, "repeat-zero", "repeat() count must be at least 1, got 0");
        Errors.expect(errors, "init-expression", "init() applies to registers only; declare this value with reg(...)");
        Errors.expect(errors, "init-wire", "init() applies to registers only");
        Errors.expect(errors, "in-domain", "inDomain() applies to input ports");
    }

    static final class MixedMux extends Component {
        final UInt u = in(uint(4));
        final SInt s = in(sint(4));
        final Bool c = in(bool());
        final Bits y = out(bits(4));

        MixedMux() {
            y.set(mux(c, u.asBits(), s.asBits()));
            dev.sue.hdl.BaseType m = mux(c, (dev.sue.hdl.BaseType) u, (dev.sue.hdl.BaseType) s); // MARK:mux-types
        }
    }

    @Test
    void muxNeedsOneType() {
        Errors.only(Errors.of(MixedMux::new), "mux-types", "mux() values have different types: UInt(4) and SInt(4)");
    }

    static final class NoCopy extends Bundle {
        final Bool v = bool();
        final UInt d;

        NoCopy(int w) {
            d = uint(w);
        }
    }

    static final class RegNextOfBundle extends Component {
        final NoCopy in = slave(new NoCopy(4));
        final UInt y = out(uint(4));

        RegNextOfBundle() {
            NoCopy r = regNext(in); // MARK:copy-type
            y.set(r.d);
        }
    }

    @Test
    void regNextOfABundleNeedsCopyType() {
        Errors.only(Errors.of(RegNextOfBundle::new), "copy-type", "NoCopy does not override copyType(); add one (return "
                + "new NoCopy(...)) to use it with regNext and similar helpers");
    }

    static final class VecOfBundlesIndex extends Component {
        final Vec<BundleTest.Req> v = slave(Vec.of(2, i -> new BundleTest.Req()));
        final UInt i = in(uint(1));

        VecOfBundlesIndex() {
            v.get(i); // MARK:vec-bundle
        }
    }

    @Test
    void runTimeIndexNeedsLeafElements() {
        Errors.expect(Errors.of(VecOfBundlesIndex::new), "vec-bundle",
                "run-time indexing needs a Vec of Bool/Bits/UInt/SInt; index the leaves instead");
    }
}
