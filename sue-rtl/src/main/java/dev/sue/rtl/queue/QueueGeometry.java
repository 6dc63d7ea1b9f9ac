// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.UInt;
import dev.sue.rtl.xpu.XpuTxBus;

/**
 * The sizes every stage of {@link TxQueueManager} derives from its parameters (validated there),
 * computed once.
 *
 * @param bytes B, bytes per beat and per cell
 * @param kMax the most cells one op can take: ceil(largest op / B) + 1
 */
record QueueGeometry(int dataWidth, int xpus, int vcs, int cells, int bytes, int kMax) {
    static QueueGeometry of(int dataWidth, int xpus, int vcs, int cells) {
        int bytes = dataWidth / 8;
        return new QueueGeometry(dataWidth, xpus, vcs, cells, bytes, (XpuTxBus.MAX_OP_BYTES + bytes - 1) / bytes + 1);
    }

    int queues() {
        return xpus * vcs;
    }

    /** Bits of a byte offset within a cell. */
    int lb() {
        return log2Up(bytes);
    }

    /** Bits of a cell index. */
    int cw() {
        return log2Up(cells);
    }

    /** Bits of a destination. */
    int xw() {
        return log2Up(xpus);
    }

    /** Bits of a VC within a queue id (0 with one VC). */
    int vw() {
        return Integer.numberOfTrailingZeros(vcs);
    }

    /** Bits of a queue id ({@code dest * vcs + vc}). */
    int qw() {
        return log2Up(queues());
    }

    /** Bits of a cell count 0..cells. */
    int dw() {
        return bitsFor(cells);
    }

    /** Bits of the per-destination allocated / freed counters (modulo 2^(dw+1)). */
    int ow() {
        return dw() + 1;
    }

    /** The queue of {@code dest} and {@code vc}. */
    UInt queueOf(UInt dest, UInt vc) {
        return (vw() == 0 ? dest : cat(dest, vc.resize(vw())).asUInt()).resize(qw());
    }

    /** The destination of queue {@code q}. */
    UInt destOf(UInt q) {
        return q.shr(vw()).resize(xw());
    }

    /** The VC of queue {@code q}, 2 bits. */
    UInt vcOf(UInt q) {
        return vw() == 0 ? U(0, 2) : q.resize(vw()).resize(2);
    }
}
