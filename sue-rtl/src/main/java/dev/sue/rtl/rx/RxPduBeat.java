// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * One beat of the receive PDU stream of {@link RxFrameParser} (the mirror of the TX PDU stream of
 * DESIGN-TX.md): the PDU descriptor travels beside every data beat.
 *
 * <ul>
 *   <li>{@code src} (10): the sending XPU (RH {@code xpuid}); {@code vc} (2), {@code psn} (16),
 *       {@code op} (2: 0 ACK, 1 NACK, 2 no ack info), {@code rpsn} (16), {@code partition} (10):
 *       the RH fields. Constant over the beats of a PDU.</li>
 *   <li>{@code length} (13): op-region bytes (packed ops plus any zero padding, RH and R-CRC
 *       excluded), 0..4096; valid on the {@code last} beat only.</li>
 *   <li>{@code data}, {@code keep}: op-region bytes, byte 0 of the op region in byte 0 of the first
 *       beat, {@code keep} all ones but on the last beat (contiguous from bit 0; all zeros on the
 *       single beat of an empty op region, i.e. a pure ACK/NACK PDU).</li>
 *   <li>{@code last}: final beat of the PDU; {@code commit} (on the last beat only): 1 = the PDU
 *       passed every check, keep it; 0 = discard everything received for this PDU.</li>
 * </ul>
 */
public final class RxPduBeat extends Bundle {
    public final UInt src = uint(10);
    public final UInt vc = uint(2);
    public final Bits psn = bits(16);
    public final UInt op = uint(2);
    public final Bits rpsn = bits(16);
    public final Bits partition = bits(10);
    public final UInt length = uint(13);
    public final Bits data;
    public final Bits keep;
    public final Bool last = bool();
    public final Bool commit = bool();
    private final int dataWidth;

    public RxPduBeat(int dataWidth) {
        this.dataWidth = dataWidth;
        this.data = bits(dataWidth);
        this.keep = bits(dataWidth / 8);
    }

    public int dataWidth() {
        return dataWidth;
    }

    @Override
    public RxPduBeat copyType() {
        return new RxPduBeat(dataWidth);
    }
}
