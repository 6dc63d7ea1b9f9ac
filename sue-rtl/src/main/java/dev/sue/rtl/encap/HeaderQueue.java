// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;

/**
 * The headers waiting for their frames and the one being assembled ({@link #head}): the current
 * entry is a register loaded from the header queue or straight from the header builder; while
 * it is empty the builder's fresh entry is the head (fall-through), so a header is used in the
 * cycle it arrives. The head is a 2:1 select of registers, and its beat-count decisions (more
 * input beats, last output beat, past the prefix beats) are registered flags, not compares
 * behind the queue's read multiplexer: the data ready, the entry's end and the queue's push and
 * count follow in a few levels. It also keeps the request slots ({@link FrameRequest#outstanding}),
 * which free up when a frame's last beat is assembled or its header is withdrawn.
 * {@link HeadAdvance} moves the head on.
 */
final class HeaderQueue {
    final StreamFifo<SueFramer.Entry> fifo;
    final SueFramer.Entry cur;
    final Bool curValid;
    /** Input beats left for cur. */
    final Bool curMoreIn;
    /** The next output beat is cur's last. */
    final Bool curIsLast;
    final Bool headValid;
    final SueFramer.Entry head;
    /** The head has input beats left. */
    final Bool moreIn;
    /** The head's next output beat is its last. */
    final Bool isLast;
    /** The head's frame is complete (last beat assembled or all its data dropped); set by the assembler. */
    final Bool entryDone;
    /** The queue holds entries only behind a valid cur. */
    final Bool nextFromQueue;

    HeaderQueue(FreshEntry fresh, FrameRequest req, FrameSideInfo side, FrameGeometry g) {
        fifo = instance(() -> new StreamFifo<>(g::entry, SueFramer.HEADER_SLOTS,
                FifoStorage.LUT_RAM, SueFramer.HEADER_SLOTS));
        cur = reg("cur", g.entry());
        curValid = reg("cur_valid", bool()).init(false);
        curMoreIn = reg("cur_more_in", bool()).init(false);
        curIsLast = reg("cur_is_last", bool()).init(false);
        headValid = curValid.or(fresh.valid).named("head_valid");
        head = wire("head", g.entry());
        assignLeaves(head, fresh.entry);
        when(curValid, () -> assignLeaves(head, cur));
        // a fresh head has no beat out or in yet
        moreIn = mux(curValid, curMoreIn, fresh.entry.hasData).named("more_in");
        isLast = mux(curValid, curIsLast, fresh.entry.oneOut).named("is_last");
        entryDone = wire("entry_done", bool());
        nextFromQueue = fifo.m.valid;
        fifo.s.valid.set(fresh.valid.and(curValid).andNot(entryDone.andNot(nextFromQueue)));
        assignLeaves(fifo.s.payload, fresh.entry);
        fifo.m.ready.set(entryDone);
        assertThat(fifo.m.valid.not().or(curValid), "internal: header queue holds entries but no current one");
        assertThat(fifo.s.valid.not().or(fifo.s.ready), "internal: header queue overflow");
        // a withdrawn PDU's slot comes back when its header is discarded (from a register)
        UInt held = mux(side.cancel3, req.outstanding.sub(1), req.outstanding).named("outstanding_kept");
        req.outstanding.set(held);
        when(req.take.andNot(entryDone), () -> req.outstanding.set(held.add(1)))
                .elseWhen(entryDone.andNot(req.take), () -> req.outstanding.set(held.sub(1)));
    }
}
