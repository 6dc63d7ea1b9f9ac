// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.rtl.xpu.XpuTxBus;

/**
 * The destination XPU of a request: address bits {@code [lsb + bits - 1 : lsb]}; a value of
 * {@code xpus} or more is unmapped (answered DECERR). Fixed when the bridge is generated.
 */
record DestinationMap(int addrBits, int lsb, int bits, int xpus) {
    DestinationMap {
        require(bits >= 1 && bits <= XpuTxBus.XPUID_BITS, "destBits must be 1.." + XpuTxBus.XPUID_BITS + ", got " + bits);
        require(lsb >= 0 && lsb + bits <= addrBits,
                "destLsb + destBits must fit the " + addrBits + "-bit address, got " + lsb + " + " + bits);
        require(xpus >= 1 && xpus <= 1 << XpuTxBus.XPUID_BITS, "xpus must be 1..1024, got " + xpus);
    }

    UInt dest(UInt addr) {
        return addr.slice(lsb + bits - 1, lsb).resize(XpuTxBus.XPUID_BITS);
    }

    Bool mapped(UInt addr) {
        return (1L << bits) <= xpus ? TRUE : addr.slice(lsb + bits - 1, lsb).lt(xpus);
    }
}
