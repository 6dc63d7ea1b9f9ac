// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;

/**
 * The registered XPU RX outputs of {@link RxDeliver} (spec Table 2): each cycle either a data
 * beat returning from port D, or an op leaving straight from its header read (command only,
 * {@code rx_valid = 1}; or beat 0 of a data op from the header pair); all zero otherwise.
 */
final class RxXpuOutput {
    final Bits valid = reg("rx_valid_q", bits(2)).init(0);
    final UInt cycle = reg("rx_cycle_q", uint(4)).init(0);
    final UInt vc = reg("rx_vc_q", uint(2)).init(0);
    final UInt xpuid = reg("xpuid_q", uint(10)).init(0);
    final Bits control = reg("rx_control_q", bits(144)).init(0);
    final Bits data;
    private final int dataWidth;

    RxXpuOutput(int dataWidth) {
        this.dataWidth = dataWidth;
        data = reg("rx_data_q", bits(dataWidth)).init(0);
    }

    /**
     * Port D's beat {@code dIdx} of the active op when {@code dRet}; else, from the header stage,
     * the command-only op when {@code cmd} or beat 0 {@code hData} of a data op when {@code beat0}.
     */
    void drive(Bool dRet, UInt dIdx, UInt dVc, UInt dSrc, Bits dCtrl, Bits dData,
               Bool cmd, Bool beat0, UInt hVc, UInt hSrc, Bits hCtrl, Bits hData) {
        assertThat(dRet.and(cmd.or(beat0)).not(), "two rx beats in one cycle");
        when(dRet, () -> {
            valid.set(B(2, 2));
            cycle.set(dIdx);
            vc.set(dVc);
            xpuid.set(dSrc);
            control.set(dCtrl);
            data.set(dData);
        }).elseWhen(cmd.or(beat0), () -> {
            valid.set(mux(cmd, B(1, 2), B(2, 2)));
            cycle.set(U(0, 4));
            vc.set(hVc);
            xpuid.set(hSrc);
            control.set(hCtrl);
            data.set(mux(cmd, B(0, dataWidth), hData));
        }).otherwise(() -> {
            valid.set(B(0, 2));
            cycle.set(U(0, 4));
            vc.set(U(0, 2));
            xpuid.set(U(0, 10));
            control.set(B(0, 144));
            data.set(B(0, dataWidth));
        });
    }
}
