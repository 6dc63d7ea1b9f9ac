// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;

/**
 * One bit of a per-peer bit vector, selected by a message's peer a stage before the message is
 * used ({@link PeerAckQueue}, {@link AckInfoTable}): a 1024-wide select is five LUT levels, too
 * many in front of the decision that sets or clears the vector and the FIFO push behind it. The
 * message passes one more register; in the cycle before, its bit is read and corrected for that
 * cycle's own clear and set, so the result equals the vector's bit of the message's peer as the
 * vector stands when the message is used.
 */
final class BitAhead {
    private BitAhead() {
    }

    /**
     * The register {@code <name>}: next cycle, {@code vector.bit(peerAhead)} as updated at this
     * cycle's edge.
     *
     * @param peerAhead the peer of the message one stage ahead of its use (from registers)
     * @param vector the bit vector (a register, cleared and set only as below)
     * @param clear this cycle's clear of bit {@code clearIdx} (the user's pop / take)
     * @param set this cycle's set of bit {@code setIdx} (the decision for the message in use)
     */
    static Bool of(String name, UInt peerAhead, Bits vector, Bool clear, UInt clearIdx, Bool set, UInt setIdx) {
        Bool read = vector.bit(peerAhead).andNot(clear.and(clearIdx.eq(peerAhead)));
        Bool bit = reg(name, bool()).init(false);
        bit.set(read.or(set.and(setIdx.eq(peerAhead))));
        return bit;
    }
}
