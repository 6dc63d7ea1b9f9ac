// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.rtl.xpu.XpuTxBus;

/** An AW or AR request in its buffer and its destination XPU, worked out as it entered ({@link DestinationMap}). */
final class Routed extends Bundle {
    final AxAddr request;
    final UInt xpuid = uint(XpuTxBus.XPUID_BITS);

    Routed(AxAddr request) {
        this.request = request;
    }

    @Override
    public Routed copyType() {
        return new Routed(request.copyType());
    }
}
