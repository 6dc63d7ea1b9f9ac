// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.mgmt;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.lib.util.ByteMask;

/**
 * Transmit buffer of control frames: software writes a frame word by word into the slot being
 * built, then sends it with its length; frames leave in order on {@code tx} as whole packets
 * without a gap between beats (a MAC must not underrun inside a frame), padded with zeros to the
 * Ethernet minimum of 60 bytes. The FCS is not added here (the frame path appends it). The output
 * FIFO is followed by a full register ({@code tx_ready} and every output registered, one cycle).
 *
 * <p>Ports: {@code wr_valid}, {@code wr_index} (word of the frame), {@code wr_data} (bytes 4i..4i+3,
 * byte 4i in bits 7:0), {@code wr_ready} (low while every slot holds a frame waiting to leave: the
 * register bus waits); {@code send_valid}, {@code send_length} (bytes, 14..maxFrameBytes, checked
 * by the register map); {@code tx} (Stream of PacketBeat); {@code queued} (frames waiting);
 * {@code sent_event}, {@code drop_event} (a send with every slot taken: the frame is not sent).
 */
public final class ControlFrameTx extends Component {
    /** Ethernet's shortest frame without FCS: shorter frames are padded with zeros. */
    public static final int MIN_WIRE_BYTES = 60;
    /** Output FIFO depth: the read-ahead that keeps a frame's beats back to back. */
    private static final int OUT_DEPTH = 4;

    public final Bool wrValid = in(bool());
    public final UInt wrIndex;
    public final Bits wrData = in(bits(32));
    public final Bool wrReady = out(bool());
    public final Bool sendValid = in(bool());
    public final UInt sendLength;
    public final Stream<PacketBeat> tx;
    public final UInt queued;
    public final Bool sentEvent = out(bool());
    public final Bool dropEvent = out(bool());

    ControlFrameTx(ControlFrameLayout layout) {
        int bytes = layout.bytesPerBeat();
        int lengthBits = layout.lengthBits();
        int slotBits = layout.slotBits();
        int beatBits = layout.beatBits();
        int laneBits = log2Up(layout.wordsPerBeat());
        wrIndex = in(uint(bitsFor(layout.maxWords() - 1L)));
        sendLength = in(uint(lengthBits));
        tx = master(Stream.of(() -> new PacketBeat(layout.dataWidth())));
        queued = out(uint(bitsFor(layout.slots())));

        Mem<Bits> ram = Mem.of(layout.ramDepth(), layout.dataWidth());
        UInt tail = reg("tail", uint(slotBits)).init(0);
        UInt head = reg("head", uint(slotBits)).init(0);
        UInt count = reg("count", uint(bitsFor(layout.slots()))).init(0);
        Vec<UInt> lengths = reg("lengths", Vec.of(layout.slots(), i -> uint(lengthBits)));
        Bool full = count.eq(layout.slots()).named("full");

        // Building: word i of the tail slot is lane i % wordsPerBeat of beat i / wordsPerBeat.
        wrReady.set(full.not());
        UInt lane = wrIndex.resize(laneBits);
        UInt beat = wrIndex.shr(laneBits).resize(beatBits);
        // the word's bytes: the first word's byte mask moved to the lane (a decoder of the lane bits)
        int wordBytes = ControlFrameLayout.WORD_BYTES;
        Bits byteEnable = ByteMask.firstBytes(U(wordBytes, bitsFor(wordBytes)), layout.wordsPerBeat() * wordBytes)
                .asUInt().shl(cat(lane, U(0, log2Up(wordBytes))).asUInt()).asBits().named("wr_byte_enable");
        ram.write(cat(tail, beat).asUInt(), repeat(wrData, layout.wordsPerBeat()), wrValid.and(wrReady), byteEnable);

        Bool send = sendValid.andNot(full).named("send");
        dropEvent.set(sendValid.and(full));
        for (int i = 0; i < layout.slots(); i++) {
            UInt slotLength = lengths.get(i);
            when(send.and(tail.eq(i)), () -> slotLength.set(sendLength));
        }
        when(send, () -> tail.set(tail.add(1)));

        // Reading: beats of the head frame issued while the output FIFO has room for them.
        StreamFifo<PacketBeat> out = instance(() -> new StreamFifo<>(() -> new PacketBeat(layout.dataWidth()),
                OUT_DEPTH, FifoStorage.LUT_RAM, OUT_DEPTH));
        UInt occupancy = reg("occupancy", uint(bitsFor(OUT_DEPTH))).init(0);
        Bool active = reg("active", bool()).init(false);
        UInt readBeat = reg("read_beat", uint(beatBits)).init(0);
        UInt dataLeft = reg("data_left", uint(lengthBits)).init(0);
        UInt wireLeft = reg("wire_left", uint(lengthBits)).init(0);
        Bool room = occupancy.lt(OUT_DEPTH).named("room");
        Bool issue = active.and(room).named("issue");
        Bool lastBeat = wireLeft.le(bytes).named("last_beat");
        Bool start = active.not().and(count.ne(0)).named("start");
        UInt headLength = lengths.get(head);
        when(start, () -> {
            active.set(true);
            readBeat.set(0);
            dataLeft.set(headLength);
            wireLeft.set(mux(headLength.lt(MIN_WIRE_BYTES), U(MIN_WIRE_BYTES, lengthBits), headLength));
        });
        when(issue, () -> {
            readBeat.set(readBeat.add(1));
            dataLeft.set(mux(dataLeft.le(bytes), U(0, lengthBits), dataLeft.sub(bytes)));
            wireLeft.set(wireLeft.sub(bytes));
            when(lastBeat, () -> {
                active.set(false);
                head.set(head.add(1));
            });
        });
        Bool popped = issue.and(lastBeat).named("popped");
        when(send.and(popped.not()), () -> count.set(count.add(1)))
                .elseWhen(popped.and(send.not()), () -> count.set(count.sub(1)));
        sentEvent.set(popped);
        queued.set(count);

        // One cycle later: the beat, its bytes past the frame's length zeroed (the padding).
        Bits word = ram.readSync(cat(head, readBeat).asUInt(), issue);
        Bool beatValid = reg("beat_valid", bool()).init(false);
        beatValid.set(issue);
        Bool beatLast = regNextWhen(lastBeat, issue).named("beat_last");
        UInt dataBytes = regNextWhen(mux(dataLeft.gt(bytes), U(bytes, lengthBits), dataLeft), issue).named("beat_data_bytes");
        UInt wireBytes = regNextWhen(mux(lastBeat, wireLeft, U(bytes, lengthBits)), issue).named("beat_wire_bytes");
        out.s.valid.set(beatValid);
        out.s.payload.data.set(word.and(ByteMask.expand(ByteMask.firstBytes(dataBytes, bytes))));
        out.s.payload.keep.set(ByteMask.firstBytes(wireBytes, bytes));
        out.s.payload.last.set(beatLast);
        // tx_ready comes late from the frame path's merge: a skid buffer registers it, so neither the FIFO's count nor
        // the occupancy below has it in front of its adder (8.25 levels in the endpoint)
        // every output from flip-flops: the frame path merges these beats into the FCS stage,
        // whose engine's first stage behind the FIFO's LUT RAM read was 9 levels at 256 bits once
        // flattened (the mapper takes a LUT RAM's output as arriving at time 0)
        connect(tx, out.m.fullPipe());
        when(issue.andNot(out.m.fire()), () -> occupancy.set(occupancy.add(1)))
                .elseWhen(out.m.fire().andNot(issue), () -> occupancy.set(occupancy.sub(1)));
        assertThat(beatValid.not().or(out.s.ready), "control TX output FIFO overflow");
    }

    /** Emitted as {@code sue_control_frame_tx}. */
    @Override
    public String moduleBaseName() {
        return "sue_control_frame_tx";
    }
}
