// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.rtl.xpu.XpuTxBus;

/**
 * One beat of an op the bridge sends ({@link OpSender}): the op's header on every beat
 * ({@code dataOp}, destination, control bytes, the index of its last data beat) and the beat's
 * data. A command-only op is one beat with {@code last}. The VC is the source's
 * ({@link AxiOps#REQUEST_VC} or {@link AxiOps#RESPONSE_VC}).
 */
final class OpBeat extends Bundle {
    final Bool dataOp = bool();
    final UInt xpuid = uint(XpuTxBus.XPUID_BITS);
    final Bits control = bits(XpuTxBus.CONTROL_BITS);
    final UInt lastBeat;
    final Bits data;
    final Bool last = bool();

    private final int dataWidth;
    private final int beatBits;

    OpBeat(int dataWidth, int beatBits) {
        this.dataWidth = dataWidth;
        this.beatBits = beatBits;
        lastBeat = uint(beatBits);
        data = bits(dataWidth);
    }

    @Override
    public OpBeat copyType() {
        return new OpBeat(dataWidth, beatBits);
    }
}
