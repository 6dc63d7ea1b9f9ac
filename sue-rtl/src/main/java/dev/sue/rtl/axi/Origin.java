// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;
import dev.sue.rtl.xpu.XpuTxBus;

/** Where a request issued on {@code m_axi} came from: the source XPU and the requester's own ID. */
final class Origin extends Bundle {
    final UInt xpuid = uint(XpuTxBus.XPUID_BITS);
    final UInt id = uint(16);

    @Override
    public Origin copyType() {
        return new Origin();
    }
}
