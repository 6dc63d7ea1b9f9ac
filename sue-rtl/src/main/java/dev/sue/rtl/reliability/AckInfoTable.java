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
import dev.sue.rtl.pdu.AckReq;

/**
 * ACK information to carry to each peer ({@code ack_req} of {@link TxReliability}), and the
 * empty-PDU timer: per peer a pending bit and an {@link AckInfo} word; the next PDU to the peer
 * takes it. A request for a peer with one waiting merges as the peer merges what it receives
 * ({@link AckInfo#supersededBy}: overwriting lost NACKs, because the receiver's coalesced
 * ACK(r - 1) or the ACK of a duplicate can follow its NACK(r)). A request for a peer not yet
 * queued enters the piggyback FIFO with its time; the FIFO is in deadline order because
 * ACK_PIGGYBACK_WAIT is one value, and its head is {@link #due} (compared a cycle ahead, from
 * registers) when ACK_PIGGYBACK_WAIT cycles have passed; the engine then sends an empty PDU if
 * the information is still pending.
 */
final class AckInfoTable {
    /** The head of the piggyback FIFO is due: an empty PDU to {@link #dueDest} if still pending. */
    final Bool due;
    final UInt dueDest;
    /** Driven by the engine: the due head is taken (its empty PDU is on its way). */
    final Bool duePop;
    /** Driven by the engine: a PDU to {@code takeDest} leaves with the peer's pending information. */
    final Bool take;
    final UInt takeDest;
    /** For the engine's decide stage: the information waiting for {@code takeDest}. */
    final Bool takeHas;
    final AckInfo takeInfo;

    /**
     * @param ahead the requests (from registers); they pass one more register here, behind which
     *     they are used, so that their peer's pending and queued bits are read a cycle early
     *     ({@link BitAhead})
     * @param nextDest the connection of the engine's event one stage ahead of its decide stage
     *     (a register): its pending bit is read a cycle early into {@link #takeHas}, with this
     *     cycle's set and take applied, so no wide bit select sits in front of the decide stage
     */
    AckInfoTable(int xpus, Flow<AckReq> ahead, UInt now16, UInt ackWait, UInt nextDest) {
        int xw = log2Up(xpus);
        // one entry per peer, plus one: a peer popped in a cycle may be pushed again in it, and the
        // FIFO frees the popped place only at the next edge
        int depth = Math.max(4, xpus + 1);
        FifoStorage storage = depth > 8 ? FifoStorage.RAM : FifoStorage.REGISTERS;
        StreamFifo<Bits> pig = instance("piggyback_fifo",
                () -> new StreamFifo<>(() -> bits(xw + 16), depth, storage, depth));
        Mem<AckInfo> info = Mem.of(xpus, new AckInfo()).named("ack_mem");
        Bits pending = reg("ack_pending", bits(xpus)).init(0);
        Bits pigQueued = reg("pig_queued", bits(xpus)).init(0);
        take = wire("ack_take", bool());
        takeDest = wire("ack_take_dest", uint(xw));
        duePop = wire("pig_pop", bool());
        dueDest = pig.m.payload.slice(xw + 15, 16).asUInt().named("pig_dest");

        // the requests pass one more register; their pending and queued bits are read a cycle early
        UInt aheadIdx = ahead.payload.dest.resize(xw);
        Bool ok = wire("ack_req_ok", bool());
        Bool push = wire("pig_push", bool());
        UInt idx = wire("ack_req_idx", uint(xw));
        Bool pendingBit = BitAhead.of("ack_req2_pending", aheadIdx, pending, take, takeDest, ok, idx);
        Bool queuedBit = BitAhead.of("ack_req2_queued", aheadIdx, pigQueued, duePop, dueDest, push, idx);
        Flow<AckReq> req = TxReliability.registered("ack_req2", ahead);
        ok.set(req.valid.and(AckInfo.inRange(req.payload.dest, xpus)));
        idx.set(req.payload.dest.resize(xw));
        Bool oldLeaving = take.and(takeDest.eq(idx)).named("ack_old_leaving");
        Bool oldWaits = pendingBit.andNot(oldLeaving).named("ack_old_waits");
        // the word {op, up to} is computed before the register: the merge compare starts from it
        AckInfo word = reg("ack_info_in", new AckInfo());
        word.setFrom(ahead.payload.op, ahead.payload.rpsn);
        Bool newWins = info.readAsync(idx).supersededBy(word).named("ack_new_wins");
        info.write(idx, word, ok.and(oldWaits.not().or(newWins)));
        Bits setMask = mux(ok, B(1, xpus).shl(idx), B(0, xpus));
        Bits clearMask = mux(take, B(1, xpus).shl(takeDest), B(0, xpus));
        pending.set(pending.and(clearMask.not()).or(setMask));
        Bool hasNext = pending.bit(nextDest).andNot(take.and(takeDest.eq(nextDest)))
                .or(ok.and(idx.eq(nextDest))).named("ack_next_has");
        takeHas = regNext(hasNext).named("ack_take_has");
        takeInfo = info.readAsync(takeDest);

        UInt pigTime = pig.m.payload.slice(15, 0).asUInt();
        Bool dueQ = reg("pig_due_q", bool()).init(false);
        Bool stableQ = reg("pig_stable_q", bool()).init(false);
        dueQ.set(now16.sub(pigTime).ge(ackWait));
        stableQ.set(pig.m.valid.andNot(duePop));
        due = dueQ.and(stableQ).and(pig.m.valid).named("pig_due");
        pig.m.ready.set(duePop);
        push.set(ok.and(queuedBit.not().or(duePop.and(dueDest.eq(idx)))));
        pig.s.valid.set(push);
        pig.s.payload.set(cat(idx, now16));
        Bits qClr = mux(duePop, B(1, xpus).shl(dueDest), B(0, xpus));
        Bits qSet = mux(push, B(1, xpus).shl(idx), B(0, xpus));
        pigQueued.set(pigQueued.and(qClr.not()).or(qSet));
        assertThat(push.not().or(pig.s.ready), "piggyback FIFO overflow");
    }
}
