// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * One connection's transmit state, the word of {@link ConnectionTable}'s RAM (the PSN table):
 * read and written by field, never sliced by hand (DESIGN-RELIABILITY.md "Transmit side").
 * PSNs are 16-bit serial numbers; the PDUs {@code una .. nextPsn - 1} are outstanding and
 * listed from {@code head} to {@code tail} in the descriptor pool (named by their first cell).
 */
public final class ConnState extends Bundle {
    /** PSN of the next new PDU. */
    public final UInt nextPsn = uint(16);
    /** Oldest unacknowledged PSN. */
    public final UInt una = uint(16);
    /** First cell of the oldest outstanding PDU (valid while one is outstanding). */
    public final UInt head;
    /** First cell of the newest outstanding PDU. */
    public final UInt tail;
    /** First cell of the next PDU a rewind resends. */
    public final UInt resend;
    /** PSN of {@code resend}. */
    public final UInt resendPsn = uint(16);
    /** Go-back-N in progress: the rewind walk resends from {@code resend} up to {@code nextPsn}. */
    public final Bool rewinding = bool();
    /** Retry limit reached: sticky until a CONN configuration write. */
    public final Bool error = bool();
    /** Timeouts since the last acknowledgement progress. */
    public final UInt retries = uint(8);
    /** Cycle (of the free-running 24-bit time) at which the retransmit timer expires. */
    public final UInt deadline = uint(TxReliability.TW);
    /** A multi-port plane's connection: its own port move ({@link ConnMove}); null with one port. */
    public final ConnMove move;
    private final int cellBits;

    /** @param cellBits width of a cell number (log2 of the queue manager's cell count) */
    public ConnState(int cellBits) {
        this(cellBits, false);
    }

    /** @param moves the word carries the connection's port move (a multi-port endpoint's plane) */
    public ConnState(int cellBits, boolean moves) {
        this.cellBits = cellBits;
        move = moves ? new ConnMove() : null;
        head = uint(cellBits);
        tail = uint(cellBits);
        resend = uint(cellBits);
    }

    /** PDUs outstanding ({@code nextPsn - una}, modulo 2^16). */
    public UInt outstanding() {
        return nextPsn.sub(una);
    }

    /**
     * Exactly one PDU outstanding: {@code nextPsn == una + 1} (modulo 2^16), tested without an
     * adder. {@code una + 1} flips una's trailing ones and the 0 above them, so {@code nextPsn ^
     * una} must be a run of ones from bit 0, with una 1 (nextPsn 0) under the run's top bit and
     * una 0 (nextPsn 1) at it, or 1 at the top bit on a wrap. Bit i's test reads bits i and i+1
     * of both (one LUT), then the tests are ANDed. An adder in front of the compare was mapped
     * by ABC as a chain of LUTs (it sees a carry chain's output at time 0): {@code job_last_pop}
     * 8.75 levels in {@code sue_tx} at 512 bits x 1024 XPUs (issue 13).
     */
    public Bool oneOutstanding() {
        int w = nextPsn.width();
        Bool ok = nextPsn.bit(0).xor(una.bit(0));
        for (int i = 0; i + 1 < w; i++) {
            Bool inRunBelowTop = nextPsn.bit(i + 1).xor(una.bit(i + 1));
            ok = ok.and(mux(inRunBelowTop, una.bit(i).andNot(nextPsn.bit(i)), nextPsn.bit(i).or(una.bit(i).not())));
        }
        return ok;
    }

    /** {@code whenTrue} if {@code c}, else {@code whenFalse}, field by field (one LUT level). */
    public static ConnState select(String name, Bool c, ConnState whenTrue, ConnState whenFalse) {
        ConnState w = wire(name, whenFalse.copyType());
        assignLeaves(w, whenFalse);
        when(c, () -> assignLeaves(w, whenTrue));
        return w;
    }

    @Override
    public ConnState copyType() {
        return new ConnState(cellBits, move != null);
    }
}
