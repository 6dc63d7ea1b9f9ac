package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;

/**
 * One beat of a MAC receive stream: {@code data} (byte 0 of the beat, the first on the wire, in
 * bits 7:0), {@code keep} (byte enables: all ones but on the last beat, where they are contiguous
 * from bit 0 with at least bit 0 set), {@code last} on the final beat of a frame, and {@code err}:
 * on the last beat, 1 when the MAC saw an error in the frame (ignored on other beats). The same
 * bundle carries the control-frame output of {@link RxFrameParser}, where {@code err} on the last
 * beat means "MAC error or, with SUE FCS checking on, bad FCS".
 */
public final class MacRxBeat extends Bundle {
    public final Bits data;
    public final Bits keep;
    public final Bool last = bool();
    public final Bool err = bool();
    private final int dataWidth;

    public MacRxBeat(int dataWidth) {
        this.dataWidth = dataWidth;
        this.data = bits(dataWidth);
        this.keep = bits(dataWidth / 8);
    }

    public int dataWidth() {
        return dataWidth;
    }

    @Override
    public MacRxBeat copyType() {
        return new MacRxBeat(dataWidth);
    }
}
