// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.dsltest.Sv.assertLine;
import static dev.sue.dsltest.Sv.assertNotContains;
import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import org.junit.jupiter.api.Test;

/** Bundles: flattened names, flipped fields with master/slave, inlined fields, connect. */
class BundleTest {
    static final class Req extends Bundle {
        final UInt addr = uint(8);
        final Bool valid = bool();
        final Bool ready = flipped(bool());

        @Override
        public Req copyType() {
            return new Req();
        }
    }

    static final class Outer extends Bundle {
        final Req req = new Req();
        final Bits tag = bits(3);
    }

    static final class Passthrough extends Component {
        final Req inReq = slave(new Req());
        final Req outReq = master(new Req());

        Passthrough() {
            connect(outReq, inReq);
        }
    }

    @Test
    void fieldsFlattenToPrefixFieldAndFlippedFieldsRunBackwards() {
        String sv = Emit.sv(Passthrough::new);
        assertLine(sv, "input  wire logic [7:0] in_req_addr,");
        assertLine(sv, "input  wire logic       in_req_valid,");
        assertLine(sv, "output logic            in_req_ready,");
        assertLine(sv, "output logic      [7:0] out_req_addr,");
        assertLine(sv, "output logic            out_req_valid,");
        assertLine(sv, "input  wire logic       out_req_ready");
        assertLine(sv, "assign out_req_addr = in_req_addr;");
        assertLine(sv, "assign out_req_valid = in_req_valid;");
        assertLine(sv, "assign in_req_ready = out_req_ready;");
    }

    static final class Nested extends Component {
        final Outer o = slave(new Outer());
        final Bits y = out(bits(12));

        Nested() {
            o.req.ready.set(o.tag.orR());
            y.set(cat(o.req.addr, o.req.valid, o.tag));
        }
    }

    @Test
    void nestedBundlesJoinEveryLevelWithUnderscores() {
        String sv = Emit.sv(Nested::new);
        assertLine(sv, "input  wire logic [7:0] o_req_addr,");
        assertLine(sv, "output logic            o_req_ready,");
        assertLine(sv, "input  wire logic [2:0] o_tag,");
        assertLine(sv, "assign o_req_ready = |o_tag;");
    }

    static final class Streams extends Component {
        final Stream<PacketBeat> s = slave(Stream.of(() -> new PacketBeat(32)));
        final Stream<PacketBeat> m = master(Stream.of(() -> new PacketBeat(32)));
        final Stream<UInt> leaf = slave(Stream.of(() -> uint(4)));
        final UInt leafOut = out(uint(4));

        Streams() {
            m.connectFrom(s);
            leaf.ready.set(true);
            leafOut.set(leaf.payload);
        }
    }

    @Test
    void inlinedPayloadFieldsLoseThePayloadPrefix() {
        String sv = Emit.sv(Streams::new);
        assertLine(sv, "input  wire logic        s_valid,");
        assertLine(sv, "output logic             s_ready,");
        assertLine(sv, "input  wire logic [31:0] s_data,");
        assertLine(sv, "input  wire logic [3:0]  s_keep,");
        assertLine(sv, "input  wire logic        s_last,");
        assertLine(sv, "output logic      [31:0] m_data,");
        assertLine(sv, "input  wire logic        m_ready,");
        assertLine(sv, "assign m_data = s_data;");
        assertLine(sv, "assign s_ready = m_ready;");
        // A leaf payload keeps its field name.
        assertLine(sv, "input  wire logic [3:0]  leaf_payload,");
        assertNotContains(sv, "s_payload");
    }

    static final class BundleWireAndReg extends Component {
        final Req in = slave(new Req());
        final UInt addrOut = out(uint(8));
        final Bool validOut = out(bool());

        BundleWireAndReg() {
            in.ready.set(true);
            Req w = wire(new Req()).named("mid");
            assignLeaves(w, in);
            Req r = regNext(w);
            addrOut.set(r.addr);
            validOut.set(r.valid.and(r.ready));
        }
    }

    @Test
    void bundleWiresAndRegistersAreNamedPerLeaf() {
        String sv = Emit.sv(BundleWireAndReg::new);
        assertLine(sv, "logic [7:0] mid_addr;");
        assertLine(sv, "assign mid_ready = in_ready;");
        assertLine(sv, "mid_d1_addr <= mid_addr;");
        assertLine(sv, "assign addr_out = mid_d1_addr;");
    }

    static final class Word extends Bundle {
        final UInt addr = uint(8);
        final Bits tag = bits(3);

        @Override
        public Word copyType() {
            return new Word();
        }
    }

    static final class BundleMux extends Component {
        final Word a = in(new Word());
        final Word b = in(new Word());
        final Bool pick = in(bool());
        final Word y = out(new Word());

        BundleMux() {
            assignLeaves(y, mux("picked", pick, a, b));
        }
    }

    @Test
    void aBundleMuxIsANamedWireChosenFieldByField() {
        String sv = Emit.sv(BundleMux::new);
        assertLine(sv, "assign picked_addr = pick ? a_addr : b_addr;");
        assertLine(sv, "assign picked_tag = pick ? a_tag : b_tag;");
        assertLine(sv, "assign y_addr = picked_addr;");
    }

    static final class MixedMux extends Component {
        final Word a = in(new Word());
        final Outer b = in(new Outer());
        final Bool pick = in(bool());
        final Bool y = out(bool());

        MixedMux() {
            b.req.ready.set(false);
            Bundle m = mux("mixed", pick, (Bundle) a, (Bundle) b); // MARK:mixed-mux
            y.set(m.leaves().size() == 2 ? a.tag.orR() : b.tag.orR());
        }
    }

    @Test
    void aMuxOfDifferentShapesIsAnErrorAtTheCallersLine() {
        Errors.expect(Errors.of(MixedMux::new), "mixed-mux", "mux() values have different shapes: Word (2 leaves) and Outer (4 leaves)");
    }
}
