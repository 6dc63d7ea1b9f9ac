// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.regif;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.regmap.FieldSpec;
import dev.sue.hdl.regmap.RegisterSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The hardware behind a {@link RegisterFile}: request register (stage A), decode and legality
 * registered (stage B), register updates and the read-back into the response register (stage C);
 * tables wait in stage B for their owner's handshakes.
 */
final class RegisterFileLogic {
    private static final int W = RegisterSpec.WORD_BITS;

    private final String p;
    private final RegBus bus;
    private final List<Register> registers;
    private final List<Table> tables;

    RegisterFileLogic(String prefix, RegBus bus, List<Register> registers, List<Table> tables) {
        this.p = prefix;
        this.bus = bus;
        this.registers = registers;
        this.tables = tables;
    }

    void build() {
        for (Table t : tables) {
            require(t.portMade(), "table " + t.name() + ": call port() and connect it before build()");
        }
        int aw = bus.addrBits();
        // Stage A: the request, held until the next one (the master waits for the response).
        Bool aValid = reg(p + "_req_valid", bool()).init(false);
        aValid.set(bus.valid);
        Bool aWrite = reg(p + "_req_write", bool());
        UInt aAddr = reg(p + "_req_addr", uint(aw));
        Bits aData = reg(p + "_req_wdata", bits(W));
        when(bus.valid, () -> {
            aWrite.set(bus.write);
            aAddr.set(bus.addr);
            aData.set(bus.wdata);
        });

        // Stage B: which register, and whether a write is legal, from registers only.
        Bool bValid = reg(p + "_dec_valid", bool()).init(false);
        bValid.set(aValid);
        Bool bWrite = reg(p + "_dec_write", bool());
        UInt bAddr = reg(p + "_dec_addr", uint(aw));
        Bits bData = reg(p + "_dec_wdata", bits(W));
        when(aValid, () -> {
            bWrite.set(aWrite);
            bAddr.set(aAddr);
            bData.set(aData);
        });
        List<Bool> hit = new ArrayList<>();
        List<Bool> legal = new ArrayList<>();
        for (Register r : registers) {
            String n = p + "_" + r.name().toLowerCase();
            hit.add(flag(n + "_hit", aValid.and(aAddr.eq(r.offset()))));
            legal.add(regNext(RegisterFile.legalWrite(r.spec(), aData)).named(n + "_legal"));
        }
        List<Bool> tableHit = new ArrayList<>();
        List<Bool> tableLegal = new ArrayList<>();
        for (Table t : tables) {
            String n = p + "_" + t.name().toLowerCase();
            tableHit.add(flag(n + "_hit", aValid.and(inTable(t, aAddr))));
            tableLegal.add(regNext(RegisterFile.legalWrite(t.spec(), aData)).named(n + "_legal"));
        }

        // Stage C: the registers change, the response is registered.
        Bits readData = B(0, W);
        Bool anyHit = FALSE;
        Bool refused = FALSE;
        for (int i = 0; i < registers.size(); i++) {
            Register r = registers.get(i);
            Bool writeOk = hit.get(i).and(bWrite).and(legal.get(i)).named(p + "_" + r.name().toLowerCase() + "_write");
            Bits word = B(0, W);
            for (Register.FieldHw f : r.fields()) {
                FieldSpec s = f.spec();
                Bits value = bData.slice(s.msb(), s.lsb());
                if (f.rwRegister() != null) {
                    when(writeOk, () -> f.rwRegister().set(value.asUInt()));
                }
                if (f.strobe() != null) {
                    f.strobe().set(writeOk);
                    f.strobeData().set(value.asUInt());
                }
                if (f.sticky() != null) {
                    UInt clear = mux(writeOk, value.asUInt(), U(0, s.width()));
                    f.sticky().set(f.sticky().and(clear.not()).or(f.setBits().asUInt()));
                }
                if (f.readValue() != null) {
                    word = word.or(f.readValue().asBits().resize(W).shl(s.lsb()));
                }
            }
            readData = readData.or(mux(hit.get(i), word, B(0, W)));
            anyHit = anyHit.or(hit.get(i));
            refused = refused.or(hit.get(i).andNot(legal.get(i)));
        }

        Bool tableStart = FALSE;
        Bool tableDone = FALSE;
        Bits tableData = B(0, W);
        for (int i = 0; i < tables.size(); i++) {
            Table t = tables.get(i);
            String n = p + "_" + t.name().toLowerCase();
            Bool start = tableHit.get(i).and(bWrite.not().or(tableLegal.get(i)));
            Bool wr = reg(n + "_wr_pending", bool()).init(false);
            Bool rd = reg(n + "_rd_pending", bool()).init(false);
            Bool wait = reg(n + "_rsp_pending", bool()).init(false);
            int ib = t.wrIndex.width();
            t.wrValid.set(wr);
            t.wrIndex.set(bAddr.resize(ib));
            t.wrData.set(bData);
            t.rdValid.set(rd);
            t.rdIndex.set(bAddr.resize(ib));
            Bool rspNow = t.rdRspValid.and(wait.or(rd.and(t.rdReady)));
            Bool done = wr.and(t.wrReady).or(rspNow).named(n + "_done");
            when(start, () -> {
                wr.set(bWrite);
                rd.set(bWrite.not());
            });
            when(wr.and(t.wrReady), () -> wr.set(false));
            when(rd.and(t.rdReady), () -> {
                rd.set(false);
                wait.set(rspNow.not());
            });
            when(wait.and(t.rdRspValid), () -> wait.set(false));
            tableData = tableData.or(mux(rspNow, t.readWord(), B(0, W)));
            tableStart = tableStart.or(start);
            tableDone = tableDone.or(done);
            anyHit = anyHit.or(tableHit.get(i));
            refused = refused.or(tableHit.get(i).and(bWrite).andNot(tableLegal.get(i)));
        }

        Bool plainDone = bValid.andNot(tableStart);
        UInt plainResp = mux(anyHit.not(), U(RegBus.DECERR, 2),
                mux(bWrite.and(refused), U(RegBus.SLVERR, 2), U(RegBus.OKAY, 2)));
        Bool rspValid = reg(p + "_rsp_valid", bool()).init(false);
        Bits rspData = reg(p + "_rsp_rdata", bits(W));
        UInt rspCode = reg(p + "_rsp_resp", uint(2));
        rspValid.set(plainDone.or(tableDone));
        rspData.set(mux(tableDone, tableData, mux(bValid.and(bWrite.not()), readData, B(0, W))));
        rspCode.set(mux(tableDone, U(RegBus.OKAY, 2), plainResp));
        bus.rspValid.set(rspValid);
        bus.rdata.set(rspData);
        bus.resp.set(rspCode);
    }

    /** A register reset to 0 that follows {@code next}. */
    private static Bool flag(String name, Bool next) {
        Bool r = reg(name, bool()).init(false);
        r.set(next);
        return r;
    }

    /** The address lies in table {@code t}: its aligned window and an index below the count. */
    private static Bool inTable(Table t, UInt addr) {
        int aw = addr.width();
        int k = Math.max(1, bitsFor(t.count() - 1L));
        Bool window = k >= aw ? TRUE : addr.slice(aw - 1, k).eq(t.offset() >> k);
        Bool index = Integer.bitCount(t.count()) == 1 ? TRUE : addr.slice(k - 1, 0).lt(t.count());
        return window.and(index);
    }
}
