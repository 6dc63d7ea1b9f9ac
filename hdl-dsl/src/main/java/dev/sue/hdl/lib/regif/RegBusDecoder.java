// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.regif;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits one {@link RegBus} into windows, one per block: a request inside a window goes to that
 * block's bus with the window's address bits, any other address is answered DECERR here. Request
 * and response are registered (one cycle each way), so the decode never lengthens a block's path.
 *
 * <p>Parameters: {@code addrBits} word address bits of the slave side; {@code windows}, each a
 * name (its master port is {@code m_<name>}), a word base and its own address bits, aligned to
 * its size, none overlapping.
 */
public final class RegBusDecoder extends Component {
    /** A window of {@code 2^addrBits} words at word address {@code base}. */
    public record Window(String name, long base, int addrBits) {
    }

    public final RegBus s;
    public final List<RegBus> m = new ArrayList<>();

    public RegBusDecoder(int addrBits, List<Window> windows) {
        param("addrBits", addrBits);
        param("windows", windows.toString());
        require(!windows.isEmpty(), "a register bus decoder needs at least one window");
        for (int i = 0; i < windows.size(); i++) {
            Window w = windows.get(i);
            long size = 1L << w.addrBits();
            require(w.addrBits() >= 1 && w.addrBits() <= addrBits && w.base() % size == 0
                    && w.base() + size <= (1L << addrBits), String.format("window %s at word 0x%X with %d address "
                    + "bits is not aligned to its size or lies outside %d address bits", w.name(), w.base(),
                    w.addrBits(), addrBits));
            for (int j = 0; j < i; j++) {
                Window o = windows.get(j);
                require(o.base() + (1L << o.addrBits()) <= w.base() || w.base() + size <= o.base(),
                        "windows " + o.name() + " and " + w.name() + " overlap");
            }
        }
        s = slave(new RegBus(addrBits)).named("s");
        Bool anyMatch = FALSE;
        Bool rspValid = FALSE;
        Bits rdata = B(0, RegBus.DATA_BITS);
        UInt resp = U(0, 2);
        UInt addrQ = reg("addr_q", uint(addrBits));
        Bool writeQ = reg("write_q", bool());
        Bits wdataQ = reg("wdata_q", bits(RegBus.DATA_BITS));
        when(s.valid, () -> {
            addrQ.set(s.addr);
            writeQ.set(s.write);
            wdataQ.set(s.wdata);
        });
        for (Window w : windows) {
            RegBus out = master(new RegBus(w.addrBits())).named("m_" + w.name());
            m.add(out);
            Bool match = w.addrBits() == addrBits ? TRUE
                    : s.addr.slice(addrBits - 1, w.addrBits()).eq(w.base() >> w.addrBits());
            anyMatch = anyMatch.or(match);
            Bool valid = reg(w.name() + "_valid_q", bool()).init(false);
            valid.set(s.valid.and(match));
            out.valid.set(valid);
            out.write.set(writeQ);
            out.addr.set(addrQ.resize(w.addrBits()));
            out.wdata.set(wdataQ);
            rspValid = rspValid.or(out.rspValid);
            rdata = rdata.or(mux(out.rspValid, out.rdata, B(0, RegBus.DATA_BITS)));
            resp = resp.or(mux(out.rspValid, out.resp, U(0, 2)));
        }
        Bool miss = reg("miss_q", bool()).init(false);
        miss.set(s.valid.andNot(anyMatch));
        Bool rspValidQ = reg("rsp_valid_q", bool()).init(false);
        Bits rdataQ = reg("rsp_rdata_q", bits(RegBus.DATA_BITS));
        UInt respQ = reg("rsp_resp_q", uint(2));
        rspValidQ.set(rspValid.or(miss));
        rdataQ.set(rdata);
        respQ.set(mux(miss, U(RegBus.DECERR, 2), resp));
        s.rspValid.set(rspValidQ);
        s.rdata.set(rdataQ);
        s.resp.set(respQ);
    }
}
