// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.ports;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.rtl.xpu.XpuTxBus;

/**
 * One XPU RX beat waiting in the {@link RxMerger}: the fields of {@code rx_*}
 * ({@link dev.sue.rtl.xpu.XpuRxBus}) SUE drives ({@code rxValid} is {@code rx_valid}: 1 command
 * only, 2 with data), and {@code last}, the op's last beat.
 */
public final class MergeBeat extends Bundle {
    public final Bits rxValid = bits(2);
    public final UInt cycle = uint(XpuTxBus.CYCLE_BITS);
    public final UInt vc = uint(XpuTxBus.VC_BITS);
    public final UInt xpuid = uint(XpuTxBus.XPUID_BITS);
    public final Bits control = bits(XpuTxBus.CONTROL_BITS);
    public final Bits data;
    public final Bool last = bool();

    private final int dataWidth;

    public MergeBeat(int dataWidth) {
        this.dataWidth = dataWidth;
        data = bits(dataWidth);
    }

    @Override
    public MergeBeat copyType() {
        return new MergeBeat(dataWidth);
    }
}
