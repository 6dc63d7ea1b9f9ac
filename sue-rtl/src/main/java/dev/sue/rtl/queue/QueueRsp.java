// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * The answer to one {@link QueueCmd}, in command order (see {@link QueueLists} for timing).
 * <ul>
 * <li>{@code op}, {@code queue}: copied from the command.
 * <li>{@code ok}: the operation took effect (append: linked; pop: a cell was unlinked; peek: the
 *     queue is not empty). Low for a refused append, a pop or peek of an empty queue, and the
 *     reserved op.
 * <li>{@code limitReached}: append refused because the destination already holds
 *     {@code destLimit} cells; the caller still owns the cell.
 * <li>{@code cell}: append: the appended cell; pop/peek: the head cell (valid when {@code ok}).
 * <li>{@code next}: pop/peek: the cell after the head (meaningful when {@code length} after a pop
 *     is non-zero, or {@code length >= 2} for a peek).
 * <li>{@code length}: cells in the queue after the operation.
 * <li>{@code becameNonEmpty} / {@code becameEmpty}: the queue went from 0 to 1 cell (append) /
 *     from 1 to 0 cells (pop): the events a scheduler's active lists consume.
 * </ul>
 */
public final class QueueRsp extends Bundle {
    public final UInt op = uint(2);
    public final UInt queue;
    public final Bool ok = bool();
    public final Bool limitReached = bool();
    public final UInt cell;
    public final UInt next;
    public final UInt length;
    public final Bool becameNonEmpty = bool();
    public final Bool becameEmpty = bool();
    private final int queueWidth;
    private final int cellWidth;
    private final int lengthWidth;

    public QueueRsp(int queueWidth, int cellWidth, int lengthWidth) {
        this.queueWidth = queueWidth;
        this.cellWidth = cellWidth;
        this.lengthWidth = lengthWidth;
        queue = uint(queueWidth);
        cell = uint(cellWidth);
        next = uint(cellWidth);
        length = uint(lengthWidth);
    }

    @Override
    public QueueRsp copyType() {
        return new QueueRsp(queueWidth, cellWidth, lengthWidth);
    }
}
