// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * One operation on the per-queue linked lists ({@link QueueLists}): {@code op} (see the
 * {@code OP_*} constants), the {@code queue} it applies to ({@code dest * vcs + vc}) and, for an
 * append, the {@code cell} to link at the tail (ignored by the other operations).
 */
public final class QueueCmd extends Bundle {
    /** Link {@code cell} at the tail of {@code queue} (refused when the destination is at its limit). */
    public static final int OP_APPEND = 0;
    /** Unlink the head cell of {@code queue} and return it with its successor. */
    public static final int OP_POP = 1;
    /** Return the head cell of {@code queue}, its successor and the length, changing nothing. */
    public static final int OP_PEEK = 2;
    /** Reserved: answered with {@code ok = 0}, changes nothing. */
    public static final int OP_RESERVED = 3;

    public final UInt op = uint(2);
    public final UInt queue;
    public final UInt cell;
    private final int queueWidth;
    private final int cellWidth;

    public QueueCmd(int queueWidth, int cellWidth) {
        this.queueWidth = queueWidth;
        this.cellWidth = cellWidth;
        queue = uint(queueWidth);
        cell = uint(cellWidth);
    }

    @Override
    public QueueCmd copyType() {
        return new QueueCmd(queueWidth, cellWidth);
    }
}
