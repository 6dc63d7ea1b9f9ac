// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.rtl.pdu.RhDesc;

/**
 * ACK information {op, rpsn} as one RAM word: a peer's message waiting for the engine
 * ({@link PeerAckQueue}) or ACK information waiting for a PDU to a peer ({@link AckInfoTable}).
 */
final class AckInfo extends Bundle {
    /** {@link RhDesc#OP_ACK} or {@link RhDesc#OP_NACK}. */
    final UInt op = uint(1);
    /**
     * The last PSN acknowledged: an ACK's rpsn, a NACK's rpsn - 1 (a NACK names the next expected
     * PSN). Kept instead of rpsn so that the merge compare needs no subtraction on the RAM's side.
     */
    final UInt upTo = uint(16);

    @Override
    public AckInfo copyType() {
        return new AckInfo();
    }

    /** Sets this word from a message {op, rpsn}. */
    void setFrom(UInt msgOp, UInt rpsn) {
        op.set(msgOp);
        upTo.set(mux(msgOp.eq(RhDesc.OP_NACK), rpsn.sub(1), rpsn));
    }

    /** The message's rpsn again. */
    UInt rpsn() {
        return upTo.add(op.resize(16));
    }

    /**
     * Whether {@code newer} (the incoming message, built by {@link #setFrom}) replaces this one: it
     * acknowledges more (serial arithmetic over half the PSN space), or as much and is a NACK
     * (which also asks for a resend). Peers merge what they receive by the same rule.
     */
    Bool supersededBy(AckInfo newer) {
        UInt ahead = newer.upTo.sub(upTo);
        Bool same = newer.upTo.eq(upTo);
        return mux(same, newer.op.eq(RhDesc.OP_NACK), ahead.bit(15).not());
    }

    /** Whether {@code dest} names one of {@code xpus} connections. */
    static Bool inRange(UInt dest, int xpus) {
        return xpus >= 1024 ? TRUE : dest.lt(xpus);
    }
}
