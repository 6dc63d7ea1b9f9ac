// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * One event for the {@link ActiveScheduler}: {@code kind} (the {@code KIND_*} constants), the
 * {@code queue} it concerns ({@code dest * vcs + vc}) and, for {@link #KIND_DONE}, whether the
 * queue is still {@code eligible} (its connection window is open).
 */
public final class SchedEvent extends Bundle {
    /** The queue went from empty to non-empty (the queue lists' {@code becameNonEmpty}). */
    public static final int KIND_NON_EMPTY = 0;
    /** The queue went from non-empty to empty (the queue lists' {@code becameEmpty}). */
    public static final int KIND_EMPTY = 1;
    /** Service of a granted queue finished; {@code eligible} says whether it may be sent more. */
    public static final int KIND_DONE = 2;
    /** The queue's window opened again: a parked queue becomes active. */
    public static final int KIND_WAKE = 3;

    public final UInt kind = uint(2);
    public final UInt queue;
    public final Bool eligible = bool();
    private final int queueWidth;

    public SchedEvent(int queueWidth) {
        this.queueWidth = queueWidth;
        queue = uint(queueWidth);
    }

    @Override
    public SchedEvent copyType() {
        return new SchedEvent(queueWidth);
    }
}
