// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.rtl.xpu.XpuTxBus;

/** The header of an op that arrived on {@code rx_*} ({@link OpReceiver}): source, control bytes, data or not. */
final class OpHead extends Bundle {
    final Bool dataOp = bool();
    final UInt xpuid = uint(XpuTxBus.XPUID_BITS);
    final Bits control = bits(XpuTxBus.CONTROL_BITS);

    @Override
    public OpHead copyType() {
        return new OpHead();
    }
}
