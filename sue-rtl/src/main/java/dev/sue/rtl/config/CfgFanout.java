// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.config;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import java.util.List;

/**
 * One configuration bus ({@link CfgBus}) shared by several blocks: a write is taken when every
 * block is ready, and then every block sees it and picks its own addresses. So a top only fans
 * the bus out:
 * <pre>
 * CfgFanout.connect(cfg, tx.cfg, rx.cfg);                  // blocks that take the whole bus
 * CfgFanout fan = CfgFanout.of(cfg, rel.cfgReady, ...);    // or: the readies, then per block
 * fan.drive(block.cfg);  fan.driveWindow(xpu.cfg, 0x0100, "cfg_cmd_type_write");
 * </pre>
 */
public final class CfgFanout {
    private final CfgBus bus;
    private final Bool write;

    private CfgFanout(CfgBus bus, List<Bool> readies) {
        this.bus = bus;
        Bool ready = readies.get(0);
        for (Bool r : readies.subList(1, readies.size())) {
            ready = ready.and(r);
        }
        if (readies.size() > 1) {
            ready = ready.named("cfg_all_ready");
        }
        bus.ready.set(ready);
        write = bus.valid.and(ready).named("cfg_write");
    }

    /**
     * The fan-out of {@code bus} (this component's slave port) to blocks whose {@code cfg_ready}
     * are {@code readies} (every block that can hold a write; at least one): drives
     * {@code bus.ready} with their AND. Then {@link #drive} each block.
     */
    public static CfgFanout of(CfgBus bus, Bool... readies) {
        if (readies.length == 0) {
            throw new IllegalArgumentException("a configuration fan-out needs the ready of at least one block");
        }
        return new CfgFanout(bus, List.of(readies));
    }

    /** Fans {@code bus} out to blocks that each take the whole bus, readies included. */
    public static void connect(CfgBus bus, CfgBus... blocks) {
        Bool[] readies = new Bool[blocks.length];
        for (int i = 0; i < blocks.length; i++) {
            readies[i] = blocks[i].ready;
        }
        CfgFanout fan = of(bus, readies);
        for (CfgBus b : blocks) {
            fan.drive(b);
        }
    }

    /** The accepted write: valid and every block ready. */
    public Bool write() {
        return write;
    }

    /** Drives a block's bus (of the full width) with every accepted write; its ready must be among the readies. */
    public void drive(CfgBus block) {
        drive(block.valid, block.addr, block.data);
    }

    /** Drives a block whose configuration inputs are separate ports. */
    public void drive(Bool blockValid, UInt blockAddr, Bits blockData) {
        blockValid.set(write);
        blockAddr.set(bus.addr);
        blockData.set(bus.data);
    }

    /**
     * Drives a block that owns the window {@code base .. base + 2^a - 1} of the address space
     * through a narrower bus of {@code a} address bits: it sees writes inside the window, with the
     * window's address bits and the low data bits. {@code name} names the window's write strobe.
     */
    public void driveWindow(CfgBus block, int base, String name) {
        int a = block.addr.width();
        if ((base & ((1 << a) - 1)) != 0 || base >>> bus.addr.width() != 0) {
            throw new IllegalArgumentException(String.format("configuration window base 0x%04X is not aligned to "
                    + "its %d address bits or outside the bus", base, a));
        }
        block.valid.set(write.and(bus.addr.slice(bus.addr.width() - 1, a).eq(base >> a)).named(name));
        block.addr.set(bus.addr.slice(a - 1, 0));
        block.data.set(bus.data.slice(block.data.width() - 1, 0));
    }
}
