// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.ports;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.rtl.xpu.XpuTxBus;

/**
 * A whole op waiting in the {@link RxMerger}: its beats and whether it carries data, the XPU
 * credits it needs (one command credit, and {@code beats} data credits when {@code data}).
 */
public final class MergeOp extends Bundle {
    public final UInt beats = uint(XpuTxBus.CYCLE_BITS + 1);
    public final Bool data = bool();

    @Override
    public MergeOp copyType() {
        return new MergeOp();
    }
}
