// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * A PDU stored in the RX buffer, as it travels from the buffer writer to the op validator and
 * from there to the per-VC delivery queues of {@link RxDeliver}.
 *
 * <ul>
 *   <li>{@code vc} (2): the PDU's virtual channel (its buffer partition).</li>
 *   <li>{@code start} (wordBits): index of its first word in the VC's ring of words.</li>
 *   <li>{@code length} (13): op-region bytes (0..4096).</li>
 *   <li>{@code words} (wordBits + 1): ring words it occupies, ceil(length / B) and at least 1
 *       ({@link RxBuffer#words}), computed before it is queued so the deliverer's free and
 *       next-PDU address take no add after the queue head.</li>
 *   <li>{@code reachUnits} (12): (length - 1) / 2 (all ones for an empty PDU): an op whose
 *       op-map end ({@link RxOpMap.Lane}, 2-byte units from the PDU's first byte) is above it
 *       reaches the end ({@link RxCodeBounds}), the validator's bound when it walks a stored PDU;
 *       the deliverer takes only its top bit (the PDU is empty).</li>
 *   <li>{@code lastOp} (14): set by the validator: the PDU byte position of its last op, the one
 *       that reaches its end (for a PDU cut short by a PAD, the PAD's position: no op starts
 *       there). The deliverer's last-op test is then its op position against this register, with
 *       no op-map lane compared or picked for it.</li>
 *   <li>{@code src} (10): the sending XPU (RH xpuid), delivered on {@code xpuid}.</li>
 *   <li>{@code bad} (1): set by the validator: an op is malformed, none is delivered.</li>
 * </ul>
 * The descriptor is not stored per op: ops are found again by walking the stored bytes, so
 * nothing here scales with the number of ops.
 */
public final class RxPduDesc extends Bundle {
    public final UInt vc = uint(2);
    public final UInt start;
    public final UInt length = uint(13);
    public final UInt words;
    public final UInt reachUnits = uint(12);
    public final UInt lastOp = uint(14);
    public final UInt src = uint(10);
    public final Bool bad = bool();
    private final int wordBits;

    public RxPduDesc(int wordBits) {
        this.wordBits = wordBits;
        this.start = uint(wordBits);
        this.words = uint(wordBits + 1);
    }

    @Override
    public RxPduDesc copyType() {
        return new RxPduDesc(wordBits);
    }
}
