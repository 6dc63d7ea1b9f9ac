// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.ByteMask;
import dev.sue.rtl.xpu.XpuTxOp;

/**
 * The queue manager's formatter (a stage of {@link TxQueueManager}, combinational on the op
 * beat): an op's bytes are its control bytes followed by its data bytes (masked by keep); chunk
 * k = op bytes kB..kB+B-1, so the data of beat k is split between chunk k (shifted up by the
 * control length) and chunk k+1 (the part pushed out, kept from the previous beat). An op whose
 * control bytes push its tail past its last data beat has one extra chunk, offered after that
 * beat without an input beat ({@link #extra}).
 */
final class OpFormatter {
    /** A chunk is offered: an op beat, or an op's extra chunk. */
    final Bool valid;
    /** The chunk is an op's extra chunk (no input beat behind it: {@code s} must not be taken). */
    final Bool extra;
    /** The chunk is the first of its op. */
    final Bool first;
    /** An op is in progress: its first beat was taken, its last not yet. */
    final Bool inOp;
    final Bits chunk;
    /** Bytes of the chunk, 1..B (0 only for an aborted op's empty last beat). */
    final UInt n;
    /** {@link #n} - 1 modulo B, {@code log2(B)} bits. */
    final UInt nMinus1;
    final Bool last;
    final Bool abort;
    /** The op's last beat, with the extra chunk to follow. */
    final Bool early;
    private final XpuTxOp in;
    private final Bool extraQ;
    private final Bool inOpQ;
    private final UInt remQ;
    private final Bits prevData;
    private final UInt ctrlQ;
    private final UInt backShiftQ;
    private final Bits dataMasked;
    private final UInt rem;
    private final Bool remFits;
    private final int bytes;

    OpFormatter(XpuTxOp in, Bool beatValid, int bytesPerBeat) {
        this.in = in;
        this.bytes = bytesPerBeat;
        int w = bytesPerBeat * 8;
        int lb = log2Up(bytesPerBeat);
        extraQ = reg("f_extra", bool()).init(false);
        inOpQ = reg("f_in_op", bool()).init(false);
        remQ = reg("f_rem", uint(9)).init(0);
        prevData = reg("prev_data", bits(w));
        ctrlQ = reg("h_ctrl", uint(5)).init(2);
        extra = extraQ;
        inOp = inOpQ;
        dataMasked = in.data.and(ByteMask.expand(in.keep)).named("data_masked");
        UInt ctrlLen = mux(extraQ, ctrlQ, in.ctrlLen).named("f_ctrl_len");
        UInt ctrlShift = ctrlLen.resize(lb + 4).shl(3).named("ctrl_shift");
        // the shift of the previous beat's data is used only after an op's first beat, so it is
        // the op's control length, registered with it (h_back_shift): off the input's path
        backShiftQ = reg("h_back_shift", uint(lb + 4)).init((bytesPerBeat - 2) * 8L); // h_ctrl resets to 2
        UInt backShift = backShiftQ;
        Bits ctrlW = in.control.and(ByteMask.expand(ByteMask.firstBytes(in.ctrlLen.resize(lb + 1), 18))).resize(w)
                .named("ctrl_w");
        Bits fromPrev = prevData.shr(backShift).named("from_prev");
        first = inOpQ.not().andNot(extraQ).named("f_first");
        rem = mux(first, in.totalLen, remQ).named("f_rem_now");
        remFits = rem.le(bytesPerBeat).named("rem_fits");
        n = mux(remFits, rem.resize(lb + 1), U(bytesPerBeat, lb + 1)).named("f_n");
        nMinus1 = mux(remFits, rem.resize(lb).sub(1), U(bytesPerBeat - 1, lb)).named("f_n_minus_1");
        Bits chunkRaw = mux(extraQ, fromPrev, dataMasked.shl(ctrlShift).or(mux(first, ctrlW, fromPrev)))
                .named("chunk_raw");
        chunk = chunkRaw.and(ByteMask.expand(ByteMask.firstBytes(n, bytesPerBeat))).named("chunk");
        last = mux(extraQ, TRUE, in.last.and(in.abort.or(remFits))).named("f_last");
        abort = extraQ.not().and(in.abort).named("f_abort");
        valid = extraQ.or(beatValid).named("f_valid");
        early = extraQ.not().and(in.last).andNot(in.abort).andNot(remFits).named("f_early");
    }

    /** Bits of the previous beat's data pushed into the next chunk: (B - control length) * 8. */
    private UInt backShiftOf(UInt ctrlLen) {
        int lb = log2Up(bytes);
        return U((long) bytes * 8, lb + 4).sub(ctrlLen.resize(lb + 4).shl(3));
    }

    /** The packer takes the offered chunk this cycle. */
    void advance(Bool take) {
        when(take, () -> {
            when(extraQ, () -> extraQ.set(false))
                    .otherwise(() -> {
                        extraQ.set(early);
                        inOpQ.set(in.last.not());
                        remQ.set(rem.sub(bytes));
                        prevData.set(dataMasked);
                        when(first, () -> {
                            ctrlQ.set(in.ctrlLen);
                            backShiftQ.set(backShiftOf(in.ctrlLen));
                        });
                    });
        });
    }
}
