// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.mgmt;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.lib.util.ByteMask;
import dev.sue.rtl.mac.MacStreams;

/**
 * Receive buffer of control frames (every frame that is not SUE): whole frames kept in slots for
 * software to read word by word, never back-pressuring the receive path ({@code rx_tready} is
 * always 1, so a slow reader never stalls SUE reception). A frame that finds every slot taken is
 * dropped whole ({@code drop_full_event}); a frame shorter than 14 bytes, longer than
 * {@code maxFrameBytes} or marked with a MAC error ({@code tuser} on its last beat) is dropped
 * ({@code drop_bad_event}). Every beat is registered on the way in ({@link InputBeat}): the
 * stream arrives from the RX parser's control-frame FIFO through its valid logic, and the slot
 * count, the drop decisions and the RAM write then start from registers. So the drop events come
 * one cycle after the frame's last beat, and kept frames are published two cycles after it
 * ({@code frame_event}).
 *
 * <p>Ports: {@code rx_t*} (AXI4-Stream in, {@code tuser} = error); {@code rd_valid},
 * {@code rd_index} (word i of the oldest frame), {@code rd_rsp_valid} and {@code rd_word} two cycles
 * later (bytes 4i..4i+3, byte 4i in bits 7:0; words past the frame's end read what the slot held);
 * {@code pop} (discard the oldest frame; ignored when none); {@code queued} (frames waiting),
 * {@code head_length} (bytes of the oldest frame, 0 when none).
 */
public final class ControlFrameRx extends Component {
    public final AxiStream rx;
    public final Bool rdValid = in(bool());
    public final UInt rdIndex;
    public final Bool rdRspValid = out(bool());
    public final Bits rdWord = out(bits(32));
    public final Bool pop = in(bool());
    public final UInt queued;
    public final UInt headLength;
    public final Bool frameEvent = out(bool());
    public final Bool dropFullEvent = out(bool());
    public final Bool dropBadEvent = out(bool());

    ControlFrameRx(ControlFrameLayout layout) {
        int bytes = layout.bytesPerBeat();
        int lengthBits = layout.lengthBits();
        int slotBits = layout.slotBits();
        int beatBits = layout.beatBits();
        int laneBits = log2Up(layout.wordsPerBeat());
        int slots = layout.slots();
        rx = slave(MacStreams.rx(layout.dataWidth())).named("rx");
        rdIndex = in(uint(bitsFor(layout.maxWords() - 1L)));
        queued = out(uint(bitsFor(slots)));
        headLength = out(uint(lengthBits));
        rx.tready.set(TRUE);

        // Where a frame's last byte may lie: beat lastIndex, byte lastByte (and the 14th byte).
        int lastIndex = (layout.maxFrameBytes() - 1) / bytes;
        int lastByte = (layout.maxFrameBytes() - 1) % bytes;
        int shortIndex = (ControlFrameLayout.MIN_FRAME_BYTES - 1) / bytes;
        int shortByte = (ControlFrameLayout.MIN_FRAME_BYTES - 1) % bytes;

        Mem<Bits> ram = Mem.of(layout.ramDepth(), layout.dataWidth());
        InputBeat in = new InputBeat(rx);
        Bool beat = in.valid;
        Bool last = beat.and(in.last).named("last");
        Bool inFrame = reg("in_frame", bool()).init(false);
        UInt index = reg("beat_index", uint(beatBits + 1)).init(0);
        UInt writeSlot = reg("write_slot", uint(slotBits)).init(0);
        UInt held = reg("held", uint(bitsFor(slots))).init(0);
        Bool discard = reg("discard", bool()).init(false);
        Bool tooLongSeen = reg("too_long_seen", bool()).init(false);

        Bool first = inFrame.not();
        Bool take = held.lt(slots).named("take");
        Bool discardNow = mux(first, take.not(), discard).named("discard_now");
        Bool pastLast = index.gt(lastIndex).named("past_last");
        Bool atLast = index.eq(lastIndex);
        Bool longNow = pastLast.or(lastByte + 1 < bytes ? atLast.and(in.keep.bit(lastByte + 1)) : FALSE)
                .or(tooLongSeen).named("too_long");
        Bool shortNow = index.lt(shortIndex).or(index.eq(shortIndex).andNot(in.keep.bit(shortByte))).named("too_short");
        Bool bad = longNow.or(shortNow).or(in.err).named("bad");
        Bool keep = last.andNot(discardNow).andNot(bad).named("keep");
        Bool pops = pop.and(queued.ne(0)).named("pops");

        when(beat, () -> {
            inFrame.set(in.last.not());
            discard.set(discardNow);
            index.set(mux(in.last, U(0, beatBits + 1), mux(pastLast, index, index.add(1))));
            tooLongSeen.set(in.last.not().and(pastLast.or(tooLongSeen)));
        });
        ram.write(cat(writeSlot, index.resize(beatBits)).asUInt(), in.data,
                beat.andNot(discardNow).andNot(pastLast));
        when(keep, () -> writeSlot.set(writeSlot.add(1)));
        when(keep.andNot(pops), () -> held.set(held.add(1))).elseWhen(pops.andNot(keep), () -> held.set(held.sub(1)));
        dropFullEvent.set(last.and(discardNow));
        dropBadEvent.set(last.andNot(discardNow).and(bad));

        // Published a cycle later with the length (the count of a contiguous keep is a few levels).
        Bool commit = reg("commit", bool()).init(false);
        commit.set(keep);
        UInt lastBeatIndex = regNextWhen(index, keep).named("commit_beat");
        UInt lastBeatBytes = regNextWhen(ByteMask.count(in.keep), keep).named("commit_bytes");
        UInt commitLength = lastBeatIndex.resize(lengthBits).shl(log2Up(bytes))
                .add(lastBeatBytes.resize(lengthBits)).named("commit_length");
        UInt tail = reg("tail", uint(slotBits)).init(0);
        UInt head = reg("head", uint(slotBits)).init(0);
        UInt count = reg("count", uint(bitsFor(slots))).init(0);
        Vec<UInt> lengths = reg("lengths", Vec.of(slots, i -> uint(lengthBits)));
        for (int i = 0; i < slots; i++) {
            UInt slotLength = lengths.get(i);
            when(commit.and(tail.eq(i)), () -> slotLength.set(commitLength));
        }
        when(commit, () -> tail.set(tail.add(1)));
        when(pops, () -> head.set(head.add(1)));
        when(commit.andNot(pops), () -> count.set(count.add(1))).elseWhen(pops.andNot(commit), () -> count.set(count.sub(1)));
        frameEvent.set(commit);
        queued.set(count);
        headLength.set(mux(count.eq(0), U(0, lengthBits), lengths.get(head)));

        // Software reads: the beat holding the word, then the word's lane.
        Bits beatWord = ram.readSync(cat(head, rdIndex.shr(laneBits).resize(beatBits)).asUInt(), rdValid);
        UInt lane = regNextWhen(rdIndex.resize(laneBits), rdValid).named("read_lane");
        Bool beatValid = reg("read_valid", bool()).init(false);
        beatValid.set(rdValid);
        Vec<Bits> words = Vec.of(java.util.stream.IntStream.range(0, layout.wordsPerBeat())
                .mapToObj(i -> beatWord.slice(32 * i + 31, 32 * i)).toList());
        Bits picked = reg("read_word", bits(32));
        picked.set(words.get(lane));
        Bool rspValid = reg("read_rsp_valid", bool()).init(false);
        rspValid.set(beatValid);
        rdRspValid.set(rspValid);
        rdWord.set(picked);
    }

    /**
     * The input register: every beat of {@code rx} a cycle later ({@code rx} is never back-pressured, so
     * no ready logic), {@code err} = {@code tuser} bit 0.
     */
    private static final class InputBeat {
        final Bool valid = reg("in_valid", bool()).init(false);
        final Bits data;
        final Bits keep;
        final Bool last;
        final Bool err;

        InputBeat(AxiStream rx) {
            valid.set(rx.tvalid);
            data = regNext(rx.tdata).named("in_data");
            keep = regNext(rx.tkeep).named("in_keep");
            last = regNext(rx.tlast).named("in_last");
            err = regNext(rx.tuser.bit(0)).named("in_err");
        }
    }

    /** Emitted as {@code sue_control_frame_rx}. */
    @Override
    public String moduleBaseName() {
        return "sue_control_frame_rx";
    }
}
