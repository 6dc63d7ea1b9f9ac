// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.rtl.pdu.PeerAck;
import dev.sue.rtl.pdu.RhDesc;

/**
 * The peer ACK/NACK messages waiting for the engine's job register ({@link TxReliability}): the
 * newest message per peer in a RAM, the peers with one waiting in a FIFO (each at most once), so
 * a burst coalesces instead of overflowing anything. A message for a peer that already has one
 * waiting replaces it only if newer ({@link AckInfo#supersededBy}; messages may arrive out of
 * order and ACKs are cumulative); either way it is counted in {@code merged}.
 */
final class PeerAckQueue {
    /** A message waits: {@link #peer}, {@link #msg}. */
    final Bool valid;
    final UInt peer;
    final AckInfo msg;
    /** Driven by the user: take the head this cycle. */
    final Bool pop;
    /** A message merged into a waiting one (for {@code cnt_ack_merged}). */
    final Bool merged;
    /** A message for a peer out of range: an ACK, a NACK (counted stale). */
    final Bool badAck;
    final Bool badNack;

    /**
     * @param ahead the messages (from registers); they pass one more register here, behind which
     *     they are used, so that their peer's queued bit is read a cycle early ({@link BitAhead})
     */
    PeerAckQueue(int xpus, Flow<PeerAck> ahead) {
        int xw = log2Up(xpus);
        // one entry per peer, plus one: a peer popped in a cycle may be pushed again in it, and the
        // FIFO frees the popped place only at the next edge
        int depth = Math.max(4, xpus + 1);
        FifoStorage storage = depth > 8 ? FifoStorage.RAM : FifoStorage.REGISTERS;
        StreamFifo<UInt> fifo = instance("peer_ack_fifo",
                () -> new StreamFifo<>(() -> uint(xw), depth, storage, depth));
        Mem<AckInfo> waiting = Mem.of(xpus, new AckInfo()).named("peer_msg");
        Bits queued = reg("peer_queued", bits(xpus)).init(0);
        pop = wire("peer_pop", bool());
        valid = fifo.m.valid;
        peer = fifo.m.payload;
        fifo.m.ready.set(pop);
        Bool push = wire("peer_push", bool());
        UInt pushIdx = wire("peer_push_idx", uint(xw));
        Bool queuedBit = BitAhead.of("peer_ack2_queued", ahead.payload.peer.resize(xw), queued, pop, peer, push,
                pushIdx);
        Flow<PeerAck> in = TxReliability.registered("peer_ack2", ahead);
        Bool ok = in.valid.and(AckInfo.inRange(in.payload.peer, xpus)).named("peer_ack_ok");
        UInt idx = in.payload.peer.resize(xw);
        pushIdx.set(idx);
        push.set(ok.and(queuedBit.not().or(pop.and(peer.eq(idx)))));
        // the word {op, up to} is computed before the register: the merge compare starts from it
        AckInfo word = reg("peer_msg_in", new AckInfo());
        word.setFrom(ahead.payload.op, ahead.payload.rpsn);
        Bool newer = waiting.readAsync(idx).supersededBy(word).named("peer_newer");
        waiting.write(idx, word, ok.and(push.or(newer)));
        fifo.s.valid.set(push);
        fifo.s.payload.set(idx);
        Bits clr = mux(pop, B(1, xpus).shl(peer), B(0, xpus));
        Bits set = mux(push, B(1, xpus).shl(idx), B(0, xpus));
        queued.set(queued.and(clr.not()).or(set));
        assertThat(push.not().or(fifo.s.ready), "peer ACK FIFO overflow");
        msg = waiting.readAsync(peer);
        merged = ok.andNot(push);
        Bool badPeer = in.valid.andNot(AckInfo.inRange(in.payload.peer, xpus));
        Bool isNack = in.payload.op.eq(RhDesc.OP_NACK);
        badAck = badPeer.andNot(isNack);
        badNack = badPeer.and(isNack);
    }
}
