package dev.sue.rtl.config;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;

/**
 * The configuration write bus shared by several blocks: every block sees every accepted write and
 * picks its own addresses, so a top only fans the bus out (one write = valid and all ready).
 */
public final class CfgFanout {
    private CfgFanout() {
    }

    /** Drives one block's {@code cfg_valid/addr/data} inputs from the accepted write. */
    public static void drive(Bool write, UInt addr, Bits data, Bool blockValid, UInt blockAddr, Bits blockData) {
        blockValid.set(write);
        blockAddr.set(addr);
        blockData.set(data);
    }
}
