// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rx;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.Stream;

/**
 * The control-frame path of {@link RxFrameParser}: every held beat goes through a fixed delay
 * (until its frame's class is known, at least the CRC latency) into a FIFO that is drained once
 * the class is known: to {@code ctl} (with its error flag) when the frame is not a SUE frame for
 * this endpoint, into the void otherwise. {@link #room}: the FIFO can take every beat the delay
 * line may still hold.
 */
final class RxControlPath {
    static final int FIFO_DEPTH = 8;
    final Bool room;
    final int delay;

    /**
     * @param classQ per frame, 1 = control frame (from the header check)
     * @param endQ   per frame, the control frame's error flag (MAC error or bad FCS)
     */
    RxControlPath(RxHeldBeat h, int crcLatency, int q, int w, StreamFifo<Bits> classQ, StreamFifo<Bits> endQ,
            Stream<MacRxBeat> ctl) {
        delay = Math.max(crcLatency, q + 2);
        Bool dv = h.emit;
        Bits dd = h.hd;
        Bits dk = h.hk;
        Bool dl = h.hl;
        for (int i = 0; i < delay; i++) {
            Bool nv = reg("ctl_d" + i + "_v", bool()).init(false);
            nv.set(dv);
            dv = nv;
            dd = regNext(dd).named("ctl_d" + i + "_data");
            dk = regNext(dk).named("ctl_d" + i + "_keep");
            dl = regNext(dl).named("ctl_d" + i + "_last");
        }
        StreamFifo<MacRxBeat> ctlQ = instance("ctl_q", () -> new StreamFifo<>(() -> new MacRxBeat(w), FIFO_DEPTH,
                FifoStorage.LUT_RAM, FIFO_DEPTH));
        ctlQ.s.valid.set(dv);
        ctlQ.s.payload.data.set(dd);
        ctlQ.s.payload.keep.set(dk);
        ctlQ.s.payload.last.set(dl);
        ctlQ.s.payload.err.set(FALSE);
        assertThat(dv.not().or(ctlQ.s.ready), "control FIFO overflow");
        room = ctlQ.occupancy.le(U(FIFO_DEPTH - delay - 1, ctlQ.occupancy.bitWidth()));
        Bool ready = ctlQ.m.valid.and(classQ.m.valid).and(ctlQ.m.payload.last.not().or(endQ.m.valid));
        Bool isCtlFrame = classQ.m.payload.bit(0);
        ctl.valid.set(ready.and(isCtlFrame));
        ctl.payload.data.set(ctlQ.m.payload.data);
        ctl.payload.keep.set(ctlQ.m.payload.keep);
        ctl.payload.last.set(ctlQ.m.payload.last);
        ctl.payload.err.set(ctlQ.m.payload.last.and(endQ.m.payload.bit(0)));
        Bool pop = ready.and(isCtlFrame.not().or(ctl.ready));
        ctlQ.m.ready.set(pop);
        classQ.m.ready.set(pop.and(ctlQ.m.payload.last));
        endQ.m.ready.set(pop.and(ctlQ.m.payload.last));
    }
}
