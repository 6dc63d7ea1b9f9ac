// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.lib.stream.AxiStreamPayload;

/**
 * One beat of a MAC receive stream: {@code data} (byte 0 of the beat, the first on the wire, in
 * bits 7:0), {@code keep} (byte enables: all ones but on the last beat, where they are contiguous
 * from bit 0 with at least bit 0 set), {@code last} on the final beat of a frame, and {@code err}:
 * on the last beat, 1 when the MAC saw an error in the frame (ignored on other beats). The same
 * bundle carries the control-frame output of {@link RxFrameParser}, where {@code err} on the last
 * beat means "MAC error or, with SUE FCS checking on, bad FCS". At the endpoint's ports it is an
 * {@link AxiStream} with a 1-bit {@code tuser} = {@code err}.
 */
public final class MacRxBeat extends Bundle implements AxiStreamPayload {
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

    @Override
    public Bits data() {
        return data;
    }

    @Override
    public Bits keep() {
        return keep;
    }

    @Override
    public Bool last() {
        return last;
    }

    /** {@code err} travels on a 1-bit {@code tuser} at the endpoint's AXI4-Stream ports. */
    @Override
    public Bool user() {
        return err;
    }

    public int dataWidth() {
        return dataWidth;
    }

    @Override
    public MacRxBeat copyType() {
        return new MacRxBeat(dataWidth);
    }
}
