// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.rtl.pdu.PduDesc;

/**
 * Header requests into {@link SueFramer}: grants {@code hdr_room} while fewer than
 * {@link SueFramer#HEADER_SLOTS} PDUs are between their request and their frame's last assembled
 * beat, pads the length to the minimum body and starts the header builder, ahead of the RH
 * fields, so the header is built while transmit reliability assigns the PSN. The slot count
 * ({@link #outstanding}) is kept by {@link HeaderQueue}, which sees frames end and headers
 * withdrawn.
 */
final class FrameRequest {
    /** PDUs between their request and their frame's last beat leaving the assembler. */
    final UInt outstanding;
    /** A header request this cycle. */
    final Bool take;
    final PduDesc desc;
    /** L + P: the PDU length padded to the minimum body. */
    final UInt body;

    FrameRequest(Flow<PduDesc> hdrReq, Bool hdrRoom, UInt minBody, SueHeaderBuilder hb) {
        outstanding = reg("outstanding", uint(bitsFor(SueFramer.HEADER_SLOTS))).init(0);
        hdrRoom.set(outstanding.lt(SueFramer.HEADER_SLOTS));
        take = hdrReq.valid;
        assertThat(take.not().or(hdrRoom), "hdr_req: a header request while hdr_room is low");
        desc = hdrReq.payload;
        body = mux(desc.length.ge(minBody), desc.length, minBody).named("body_len");
        hb.reqValid.set(take);
        hb.reqDest.set(desc.dest);
        hb.reqVc.set(desc.vc);
        hb.reqLength.set(body.resize(14).add(12));
        hb.reqEntropy.set(SueFramer.entropy(desc.dest, desc.vc));
    }
}
