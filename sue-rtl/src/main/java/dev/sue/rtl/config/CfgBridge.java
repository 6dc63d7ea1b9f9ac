// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.config;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.regif.RegBus;

/**
 * The configuration space as a window of a register map: {@link RegBus} accesses (from
 * {@link dev.sue.hdl.lib.regif.RegBusDecoder}) become writes on the blocks' {@link CfgBus}.
 *
 * <p>Parameters: {@code addrBits}, the window's word address bits (1..16); the configuration
 * address is the window address, zero-extended to {@link CfgBus#ADDR_BITS}.
 *
 * <p>Ports: {@code s_*} (RegBus slave), {@code cfg_*} (CfgBus master: valid, addr, data out,
 * ready in).
 *
 * <p>Behaviour: a write is held on {@code cfg_valid} until the blocks take it ({@code cfg_ready}),
 * so their back-pressure (a table clear) stalls the register access, not the data; the response
 * (OKAY) follows a cycle after the write is taken. The blocks do not report refused values (they
 * count them in their {@code bad_cfg} counters), so every write answers OKAY. The configuration
 * registers are write-only: a read answers SLVERR with data 0 a cycle later.
 */
public final class CfgBridge extends Component {
    public final RegBus s;
    public final CfgBus cfg = master(new CfgBus().named("cfg"));

    public CfgBridge(int addrBits) {
        param("addrBits", addrBits);
        require(addrBits >= 1 && addrBits <= CfgBus.ADDR_BITS,
                "a configuration window has 1.." + CfgBus.ADDR_BITS + " address bits, got " + addrBits);
        s = slave(new RegBus(addrBits)).named("s");

        Bool pending = reg("pending", bool()).init(false);
        UInt addr = reg("addr", uint(addrBits));
        when(s.valid.and(s.write), () -> {
            pending.set(true);
            addr.set(s.addr);
        });
        when(cfg.fire(), () -> pending.set(false));
        cfg.valid.set(pending);
        cfg.addr.set(addrBits == CfgBus.ADDR_BITS ? addr : addr.resize(CfgBus.ADDR_BITS));
        cfg.data.set(regNextWhen(s.wdata, s.valid.and(s.write)).named("data"));

        Bool rspValid = reg("rsp_valid", bool()).init(false);
        UInt resp = reg("rsp_resp", uint(2)).init(0);
        rspValid.set(cfg.fire().or(s.valid.andNot(s.write)));
        resp.set(mux(s.valid.andNot(s.write), U(RegBus.SLVERR, 2), U(RegBus.OKAY, 2)));
        s.rspValid.set(rspValid);
        s.resp.set(resp);
        s.rdata.set(B(0, RegBus.DATA_BITS));
    }
}
