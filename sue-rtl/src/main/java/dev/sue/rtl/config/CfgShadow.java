// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.config;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.regif.RegBus;
import dev.sue.hdl.lib.regif.RegisterFile;
import dev.sue.hdl.regmap.Access;
import dev.sue.hdl.regmap.FieldSpec;
import dev.sue.hdl.regmap.RegisterBlockSpec;
import dev.sue.hdl.regmap.RegisterSpec;
import dev.sue.rtl.axi.AxiXpuOptions;
import java.util.ArrayList;
import java.util.List;

/**
 * The configuration registers ({@link ConfigRegisters}) as a window of a register map: checks
 * every write against the declared fields and ranges, passes the legal ones to the blocks'
 * {@link CfgBus}, and answers reads from a shadow of what was written. The blocks keep their
 * registers as they are (write-only, some in RAM): a shadow costs flip-flops and RAM, but reads
 * never touch the datapath.
 *
 * <p>Parameters: {@code xpus} (1..1024), {@code cells} and {@code windowMax} (the legal ranges of
 * DEST_LIMIT and WINDOW), {@code axi} (the AXI4 XPU interface's options, which add
 * {@code AXI_DEST_MAP}; null without it).
 *
 * <p>Ports: {@code s_*} ({@link RegBus} slave, {@link ConfigRegisters#ADDR_BITS} address bits),
 * {@code cfg_*} ({@link CfgBus} master).
 *
 * <p>Behaviour, one access at a time:
 * <ul>
 * <li>A write to an address no register holds answers DECERR; a write with a 1 outside every
 *     field or a value outside a field's range answers SLVERR; neither reaches the blocks nor the
 *     shadow. A legal write is held on {@code cfg_valid} until the blocks take it (a table clear
 *     or a per-connection write holds {@code cfg_ready} low), then stored in the shadow and
 *     answered OKAY a cycle later.
 * <li>A read answers OKAY with the last legal value written (the reset value before that; 0 for
 *     the write-only {@code CONN}), 3 cycles after the request; DECERR where no register is.
 * <li>Shadows: a register per scalar word (reset values as the blocks'); a 256-entry RAM of 5
 *     bits for {@code CMD_TYPE}; one RAM of {@code xpus} entries per stored column of the
 *     per-destination table (widths 32, 16, 10, 16, 4 x 32, 16: 218 bits per destination). The RAMs
 *     are cleared in the {@code max(256, xpus)} cycles after reset, while accesses wait.
 * </ul>
 * What a read shows is what software wrote, not the block's live state: NEXT_PSN and
 * EXPECTED_PSN advance with traffic in their blocks (status words and connection states show
 * those); entries the instance does not use (DST_IP_1..3 with IPv4) are kept by the shadow only.
 */
public final class CfgShadow extends Component {
    public final RegBus s = slave(new RegBus(ConfigRegisters.ADDR_BITS)).named("s");
    public final CfgBus cfg = master(new CfgBus().named("cfg"));

    /** One declared register's decode: which address selects it, which value is legal. */
    private record Decode(RegisterSpec spec, Bool sel, Bool legal) {
    }

    public CfgShadow(int xpus, int cells, int windowMax, AxiXpuOptions axi) {
        this(xpus, cells, windowMax, axi, 1);
    }

    /** With {@code ports} 2 or 4: the {@code PORT_MAP} column ({@link ConfigRegisters#spec}). */
    public CfgShadow(int xpus, int cells, int windowMax, AxiXpuOptions axi, int ports) {
        param("xpus", xpus);
        if (ports != 1) {
            param("ports", ports);
        }
        param("cells", cells);
        param("windowMax", windowMax);
        param("axiDestMap", axi == null ? "none" : axi.addrBits() + "_" + axi.destLsb() + "_" + axi.destBits());
        RegisterBlockSpec spec = ConfigRegisters.spec(xpus, cells, windowMax, axi, ports);
        int xw = Math.max(1, log2Up(xpus));

        // ---- the request, held until the RAM clear is over --------------------------------
        int sweepEnd = Math.max(ConfigRegisters.CMD_TYPES, xpus) - 1;
        UInt sweepIdx = reg("sweep_idx", uint(bitsFor(sweepEnd))).init(0);
        Bool sweeping = reg("sweeping", bool()).init(true);
        when(sweeping, () -> {
            sweepIdx.set(sweepIdx.add(1).resize(sweepIdx.width()));
            when(sweepIdx.eq(sweepEnd), () -> sweeping.set(false));
        });
        Bool waiting = reg("req_waiting", bool()).init(false);
        UInt addr = regNextWhen(s.addr, s.valid).named("req_addr");
        Bits data = regNextWhen(s.wdata, s.valid).named("req_data");
        Bool write = regNextWhen(s.write, s.valid).named("req_write");
        Bool go = waiting.andNot(sweeping).named("req_go");
        when(s.valid, () -> waiting.set(true)).elseWhen(go, () -> waiting.set(false));

        // ---- decode: one select and one legality per register, registered ------------------
        List<Decode> decodes = new ArrayList<>();
        UInt dest = addr.slice(xw + 3, 4);
        Bool inTable = addr.bit(ConfigRegisters.ADDR_BITS - 1)
                .and(xw + 4 >= ConfigRegisters.ADDR_BITS - 1 ? TRUE : addr.slice(ConfigRegisters.ADDR_BITS - 2, xw + 4).eq(0))
                .and((1 << xw) == xpus ? TRUE : dest.lt(xpus)).named("dec_in_table");
        for (RegisterSpec r : spec.registers()) {
            Bool sel;
            if (ConfigRegisters.isColumn(r)) {
                sel = inTable.and(addr.slice(3, 0).eq(r.offset() & 0xF));
            } else if (ConfigRegisters.isCmdType(r)) {
                sel = addr.slice(ConfigRegisters.ADDR_BITS - 1, 8).eq(ConfigRegisters.CMD_TYPE_BASE >> 8)
                        .and(addr.slice(7, 0).ne(0));
            } else {
                sel = addr.eq(r.offset());
            }
            String n = "dec_" + r.name().toLowerCase();
            decodes.add(new Decode(r, regNextWhen(sel, go).named(n + "_sel"),
                    regNextWhen(sel.and(RegisterFile.legalWrite(r, data)), go).named(n + "_legal")));
        }
        Bool decided = reg("decided", bool()).init(false);
        decided.set(go);

        // ---- the verdict ---------------------------------------------------------------------
        Bool hit = cat(decodes.stream().map(Decode::sel).toList()).orR().named("hit");
        Bool legal = cat(decodes.stream().map(Decode::legal).toList()).orR().named("legal");
        Bool pending = reg("cfg_pending", bool()).init(false);
        when(decided.and(write).and(legal), () -> pending.set(true)).elseWhen(cfg.fire(), () -> pending.set(false));
        cfg.valid.set(pending);
        cfg.addr.set(addr.resize(CfgBus.ADDR_BITS));
        cfg.data.set(data);
        Bool store = cfg.fire();

        // ---- shadows ---------------------------------------------------------------------------
        List<Bits> readable = new ArrayList<>();
        UInt sweepDest = sweepIdx.resize(xw);
        UInt ramDest = mux(sweeping, sweepDest, dest).named("shadow_dest");
        for (Decode d : decodes) {
            RegisterSpec r = d.spec();
            long readMask = readableMask(r);
            if (readMask == 0) {
                continue; // a command (CONN): nothing to read back
            }
            int width = 64 - Long.numberOfLeadingZeros(r.writableMask());
            String n = "shadow_" + r.name().toLowerCase();
            Bits value;
            if (ConfigRegisters.isColumn(r) || ConfigRegisters.isCmdType(r)) {
                boolean cmd = ConfigRegisters.isCmdType(r);
                Mem<Bits> ram = Mem.of(cmd ? ConfigRegisters.CMD_TYPES : xpus, width).named(n);
                UInt at = cmd ? mux(sweeping, sweepIdx.resize(8), addr.slice(7, 0)) : ramDest;
                ram.write(at, mux(sweeping, B(0, width), data.slice(width - 1, 0)), sweeping.or(store.and(d.sel())));
                value = ram.readSync(cmd ? addr.slice(7, 0) : dest, go);
            } else {
                Bits shadow = reg(n, bits(width)).init(r.resetWord());
                when(store.and(d.sel()), () -> shadow.set(data.slice(width - 1, 0)));
                value = shadow;
            }
            Bits masked = readMask == FieldSpec.fullRange(width) ? value : value.and(B(readMask, width));
            readable.add(mux(d.sel(), masked, B(0, width)).resize(RegBus.DATA_BITS));
        }
        Bits rdata = orTree(readable).named("read_word");

        // ---- the response --------------------------------------------------------------------
        Bool rspValid = reg("rsp_valid", bool()).init(false);
        UInt resp = reg("rsp_resp", uint(2)).init(0);
        Bits rspData = reg("rsp_data", bits(RegBus.DATA_BITS)).init(0);
        Bool refused = decided.and(write).andNot(legal);
        Bool read = decided.andNot(write);
        rspValid.set(store.or(refused).or(read));
        resp.set(mux(hit.not().and(decided), U(RegBus.DECERR, 2),
                mux(refused, U(RegBus.SLVERR, 2), U(RegBus.OKAY, 2))));
        rspData.set(mux(read.and(hit), rdata, B(0, RegBus.DATA_BITS)));
        s.rspValid.set(rspValid);
        s.resp.set(resp);
        s.rdata.set(rspData);
    }

    /** OR of the words as a balanced tree (a chain would count one level per word). */
    private static Bits orTree(List<Bits> words) {
        if (words.size() == 1) {
            return words.get(0);
        }
        int half = words.size() / 2;
        return orTree(words.subList(0, half)).or(orTree(words.subList(half, words.size())));
    }

    /** The bits a read returns: every field but the write-only ones. */
    private static long readableMask(RegisterSpec r) {
        long m = 0;
        for (FieldSpec f : r.fields()) {
            if (f.access() != Access.WO) {
                m |= f.mask();
            }
        }
        return m;
    }
}
