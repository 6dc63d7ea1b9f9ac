// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.ByteMask;
import dev.sue.rtl.xpu.XpuTxBus;
import dev.sue.rtl.xpu.XpuTxOp;

/**
 * The queue manager's formatter (a stage of {@link TxQueueManager}, combinational on the op
 * beat): one chunk per op beat. An op's bytes are its control bytes followed by its data bytes
 * (masked by keep); chunk 0 is the control bytes followed by the whole data beat 0 (up to
 * B + {@value #CTRL_MAX} bytes), chunk k > 0 is data beat k unshifted. So an op takes as many
 * packer cycles as it has beats, whatever its control length (the cell buffer writes up to
 * B + 18 bytes per cycle, see {@link CellBuffer}).
 */
final class OpFormatter {
    /** The most control bytes of an op: a chunk holds up to B + this many bytes. */
    static final int CTRL_MAX = XpuTxBus.MAX_CONTROL_BYTES;
    /** A chunk (op beat) is offered. */
    final Bool valid;
    /** The chunk is the first of its op. */
    final Bool first;
    /** An op is in progress: its first beat was taken, its last not yet. */
    final Bool inOp;
    /** The chunk, byte 0 in bits 7:0, B + {@value #CTRL_MAX} bytes (bytes from {@link #n} on are zero). */
    final Bits chunk;
    /** Bytes of the chunk, 1..B + 18 (0 only for an aborted op's empty last beat). */
    final UInt n;
    /** {@link #n} - 1 (don't care for n = 0), {@code log2(B) + 1} bits. */
    final UInt nMinus1;
    /** The chunk has more than B bytes (an op's first chunk with control bytes and a full data beat 0). */
    final Bool wide;
    final Bool last;
    final Bool abort;
    private final XpuTxOp in;
    private final Bool inOpQ;
    private final UInt remQ;
    private final UInt rem;
    private final int bytes;

    OpFormatter(XpuTxOp in, Bool beatValid, int bytesPerBeat) {
        this.in = in;
        this.bytes = bytesPerBeat;
        int w = bytesPerBeat * 8;
        int cb = bytesPerBeat + CTRL_MAX;
        int lb = log2Up(bytesPerBeat);
        inOpQ = reg("f_in_op", bool()).init(false);
        remQ = reg("f_rem", uint(9)).init(0);
        inOp = inOpQ;
        Bits dataMasked = in.data.and(ByteMask.expand(in.keep)).named("data_masked");
        UInt ctrlShift = in.ctrlLen.resize(lb + 4).shl(3).named("ctrl_shift");
        Bits ctrlW = in.control.and(ByteMask.expand(ByteMask.firstBytes(in.ctrlLen, CTRL_MAX))).resize(cb * 8)
                .named("ctrl_w");
        first = inOpQ.not().named("f_first");
        // bytes of the op not yet offered; its last beat carries them all (at most B, or the
        // control bytes + B on a one-beat op)
        rem = mux(first, in.totalLen, remQ).named("f_rem_now");
        last = in.last;
        UInt full = mux(first, in.ctrlLen.resize(lb + 1).add(bytesPerBeat), U(bytesPerBeat, lb + 1))
                .named("f_full");
        n = mux(last, rem.resize(lb + 1), full).named("f_n");
        nMinus1 = n.sub(1).named("f_n_minus_1");
        wide = n.gt(bytesPerBeat).named("f_wide");
        Bits chunkRaw = mux(first, dataMasked.resize(cb * 8).shl(ctrlShift).or(ctrlW), dataMasked.resize(cb * 8))
                .named("chunk_raw");
        chunk = chunkRaw.and(ByteMask.expand(ByteMask.firstBytes(n, cb))).named("chunk");
        abort = in.abort;
        valid = beatValid;
        assertThat(beatValid.not().or(in.abort).or(rem.le(bytesPerBeat).or(first.and(rem.le(cb)))).or(last.not()),
                "an op's last beat carries more than its chunk holds");
        assertThat(beatValid.not().or(in.abort).or(last).or(rem.gt(full.resize(9))), "an op's bytes end before its last beat");
    }

    /** The packer takes the offered chunk this cycle. */
    void advance(Bool take) {
        when(take, () -> {
            inOpQ.set(in.last.not());
            remQ.set(rem.sub(n.resize(9)));
        });
    }
}
