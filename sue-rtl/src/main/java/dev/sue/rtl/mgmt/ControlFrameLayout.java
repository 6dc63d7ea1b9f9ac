// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.mgmt;

import static dev.sue.hdl.Hdl.*;

/**
 * How the control-frame buffers hold frames: {@code slots} slots of a power-of-two number of
 * beats each (so a beat's RAM address is {@code {slot, beat}}, no multiply), frames up to
 * {@code maxFrameBytes} (without FCS), read and written by software one 32-bit word at a time
 * (word i = frame bytes 4i..4i+3, byte 4i in bits 7:0).
 *
 * @param dataWidth      bus bits, a power of two, 64..1024
 * @param maxFrameBytes  longest frame, 60..9216 bytes
 * @param slots          frames held, a power of two, 2..16
 */
record ControlFrameLayout(int dataWidth, int maxFrameBytes, int slots) {
    /** The shortest frame: an Ethernet header. */
    static final int MIN_FRAME_BYTES = 14;
    /** Bytes of a software word. */
    static final int WORD_BYTES = 4;

    int bytesPerBeat() {
        return dataWidth / 8;
    }

    int wordsPerBeat() {
        return bytesPerBeat() / WORD_BYTES;
    }

    /** Beats of the longest frame. */
    int maxBeats() {
        return (maxFrameBytes + bytesPerBeat() - 1) / bytesPerBeat();
    }

    int beatBits() {
        return Math.max(1, log2Up(maxBeats()));
    }

    int slotBits() {
        return log2Up(slots);
    }

    int ramDepth() {
        return slots << beatBits();
    }

    int ramAddrBits() {
        return slotBits() + beatBits();
    }

    /** Words of the longest frame: the entries of the frame tables. */
    int maxWords() {
        return (maxFrameBytes + WORD_BYTES - 1) / WORD_BYTES;
    }

    int lengthBits() {
        return bitsFor(maxFrameBytes);
    }
}
