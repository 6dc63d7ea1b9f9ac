// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.lib.crc.CrcAppender;
import dev.sue.hdl.lib.crc.CrcSpec;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;

/**
 * The FCS stage, driving {@code m}: with FCS_BY_SUE = 1 every frame goes through an appender of
 * the CRC-32 over the whole frame and its output register; with 0 frames bypass it (the MAC
 * appends the FCS) and the stage idles, so they pay neither its latency nor its register.
 */
final class FcsStage {
    FcsStage(Stream<PacketBeat> sue, Bool fcsBySue, Stream<PacketBeat> m, int dataWidth) {
        // FCS_BY_SUE = 1: through the FCS stage and its output register (the FCS stage's output
        // logic is as deep as the R-CRC stage's); 0: straight to m, the FCS stage idle
        CrcAppender fcs = instance(() -> new CrcAppender(CrcSpec.CRC32, dataWidth, 0, true));
        fcs.enable.set(fcsBySue);
        Stream<PacketBeat> toFcs = sue.newWire("to_fcs");
        toFcs.valid.set(sue.valid.and(fcsBySue));
        assignLeaves(toFcs.payload, sue.payload);
        fcs.s.connectFrom(toFcs);
        Stream<PacketBeat> withFcs = fcs.m.m2sPipe();
        sue.ready.set(mux(fcsBySue, toFcs.ready, m.ready));
        m.valid.set(mux(fcsBySue, withFcs.valid, sue.valid));
        m.payload.data.set(mux(fcsBySue, withFcs.payload.data, sue.payload.data));
        m.payload.keep.set(mux(fcsBySue, withFcs.payload.keep, sue.payload.keep));
        m.payload.last.set(mux(fcsBySue, withFcs.payload.last, sue.payload.last));
        withFcs.ready.set(m.ready);
    }
}
