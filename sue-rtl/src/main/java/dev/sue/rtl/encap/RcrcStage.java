// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.lib.crc.CrcAppender;
import dev.sue.hdl.lib.crc.CrcSpec;
import dev.sue.hdl.lib.crc.CrcWindow;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import java.util.ArrayList;
import java.util.List;

/**
 * The R-CRC stage: appends the CRC-32 over RH..padding to each assembled frame ({@link #framed},
 * registered). Frames of two or more beats take it from the appender's engine; with
 * {@link FrameGeometry#fastPath} a one-beat frame takes it from a {@link CrcWindow} over RH ||
 * the data beat, ready one cycle after the beat, so it need not wait for the engine.
 */
final class RcrcStage {
    final Stream<PacketBeat> framed;

    RcrcStage(FrameAssembler a, SueFramer.Entry head, Stream<PacketBeat> data, FrameGeometry g) {
        int c = g.c;
        int hBytes = g.hBytes;
        int wd = g.wd;
        CrcAppender rcrc = instance(() -> new CrcAppender(CrcSpec.CRC32, g.dataWidth, hBytes, false, g.fastPath));
        rcrc.enable.set(TRUE);
        rcrc.s.connectFrom(a.asm);
        if (g.fastPath) {
            // window = RH (the head's prefix bytes H..H+7) || data bytes 0..wd-1 (zero beyond the
            // PDU by the data contract; all zero when the PDU is empty and has no data beat). A
            // fast frame's one beat takes the PDU's first data beat, so "a data beat belongs to
            // it" is the entry's flag, not the beat count compare (moreIn): a level less before
            // the window's XOR network.
            CrcWindow win = instance(() -> new CrcWindow(CrcSpec.CRC32, 8 + wd, wd));
            List<Bits> wb = new ArrayList<>();
            for (int i = wd - 1; i >= 0; i--) {
                wb.add(mux(head.hasData, data.payload.data.byteAt(i), B(0, 8)));
            }
            win.valid.set(a.asmFire.and(head.fast));
            win.window.set(cat(cat(wb), head.prefix.slice(8 * c - 1, 8 * hBytes)));
            win.trail.set(head.trail);
            rcrc.sFast.set(head.fast);
            rcrc.fastCrc.valid.set(win.crcValid);
            rcrc.fastCrc.payload.set(win.crcValue);
        }
        // The R-CRC stage's output logic (its queue head, the CRC select, the lane multiplexers) is
        // most of a cycle: a forward register ends it, so the merge, the FCS stage and the MAC
        // port start from flip-flops (one cycle on every frame).
        framed = rcrc.m.m2sPipe();
    }
}
