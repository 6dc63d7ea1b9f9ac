// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.rtl.xpu.XpuTxBus;

/**
 * What the bridge drives on {@code tx_*} in one cycle ({@link XpuTxBus}'s forward signals but
 * {@code tx_err} and {@code tx_reset_in}, which the bridge holds at 0): {@link OpSender} keeps it
 * as one registered bundle and drives the bus with {@link #driveOnto}.
 */
final class TxBeat extends Bundle {
    final UInt cycle = uint(XpuTxBus.CYCLE_BITS);
    final Bits valid = bits(2);
    final UInt vc = uint(XpuTxBus.VC_BITS);
    final UInt xpuid = uint(XpuTxBus.XPUID_BITS);
    final Bits control = bits(XpuTxBus.CONTROL_BITS);
    final Bits data;

    private final int dataWidth;

    TxBeat(int dataWidth) {
        this.dataWidth = dataWidth;
        data = bits(dataWidth);
    }

    /** Drives {@code tx}'s forward signals with this beat; the bridge never sends an error or a reset. */
    void driveOnto(XpuTxBus tx) {
        tx.cycle.set(cycle);
        tx.valid.set(valid);
        tx.vc.set(vc);
        tx.xpuid.set(xpuid);
        tx.control.set(control);
        tx.data.set(data);
        tx.err.set(false);
        tx.resetIn.set(false);
    }

    @Override
    public TxBeat copyType() {
        return new TxBeat(dataWidth);
    }
}
