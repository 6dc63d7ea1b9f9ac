// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.regif;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.HwEnum;
import dev.sue.hdl.EnumType;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.Counter;

/**
 * AXI4-Lite slave in front of a {@link RegBus}: one access at a time, reads and writes taken in
 * turn when both wait (neither starves). Counts the error responses in one place.
 *
 * <p>Parameters: {@code addrBits} byte address bits of the AXI side, 3..32; the register bus has
 * {@code addrBits - 2} word address bits ({@code awaddr[1:0]} and {@code araddr[1:0]} are ignored:
 * every access is the whole aligned word).
 *
 * <p>Ports: {@code s_axil_*} ({@link AxiLite}); {@code m_*} ({@link RegBus}, master);
 * {@code slverr_count}, {@code decerr_count} (32-bit saturating: responses SLVERR and DECERR sent).
 *
 * <p>Behaviour: AW and W are taken together (AXI allows a slave to wait for both). A write whose
 * {@code wstrb} is not all ones is refused with SLVERR without reaching the registers (a register
 * is never half written). {@code awprot}/{@code arprot} are accepted and ignored. Latency: the
 * register bus access starts the cycle after the handshake; its response leaves on B or R the
 * cycle after it returns.
 */
public final class AxiLiteTarget extends Component {
    private enum State { IDLE, ACCESS, BRESP, RRESP }

    public final AxiLite s;
    public final RegBus m;
    public final UInt slverrCount = out(uint(32));
    public final UInt decerrCount = out(uint(32));

    public AxiLiteTarget(int addrBits) {
        param("addrBits", addrBits);
        require(addrBits >= 3 && addrBits <= 32, "addrBits must be 3..32, got " + addrBits);
        s = slave(new AxiLite(addrBits)).named("s_axil");
        m = master(new RegBus(addrBits - 2)).named("m");

        EnumType<State> type = EnumType.of(State.class);
        HwEnum<State> state = reg("state", enumOf(type)).init(State.IDLE);
        Bool idle = state.is(State.IDLE);
        Bool preferRead = reg("prefer_read", bool()).init(false);
        Bool writeWaits = s.awvalid.and(s.wvalid);
        Bool takeWrite = idle.and(writeWaits).and(s.arvalid.not().or(preferRead.not())).named("take_write");
        Bool takeRead = idle.and(s.arvalid).andNot(takeWrite).named("take_read");
        s.awready.set(takeWrite);
        s.wready.set(takeWrite);
        s.arready.set(takeRead);
        Bool partial = s.wstrb.ne((1 << (AxiLite.DATA_BITS / 8)) - 1);

        Bool reqValid = reg("req_valid", bool()).init(false);
        Bool reqWrite = reg("req_write", bool());
        UInt reqAddr = reg("req_addr", uint(addrBits - 2));
        reqValid.set(takeRead.or(takeWrite.andNot(partial)));
        when(takeWrite.or(takeRead), () -> {
            reqWrite.set(takeWrite);
            reqAddr.set(mux(takeWrite, s.awaddr, s.araddr).slice(addrBits - 1, 2));
            preferRead.set(takeWrite);
        });
        UInt reqData = reg("req_wdata", uint(AxiLite.DATA_BITS));
        when(takeWrite, () -> reqData.set(s.wdata.asUInt()));
        m.valid.set(reqValid);
        m.write.set(reqWrite);
        m.addr.set(reqAddr);
        m.wdata.set(reqData.asBits());

        UInt bresp = reg("bresp_q", uint(2)).init(0);
        UInt rresp = reg("rresp_q", uint(2)).init(0);
        UInt rdata = reg("rdata_q", uint(AxiLite.DATA_BITS)).init(0);
        switchOn(state, sw -> sw
                .is(State.IDLE, () -> {
                    when(takeWrite.and(partial), () -> {
                        state.set(State.BRESP);
                        bresp.set(U(RegBus.SLVERR, 2));
                    }).elseWhen(takeWrite.or(takeRead), () -> state.set(State.ACCESS));
                })
                .is(State.ACCESS, () -> when(m.rspValid, () -> {
                    when(reqWrite, () -> {
                        state.set(State.BRESP);
                        bresp.set(m.resp);
                    }).otherwise(() -> {
                        state.set(State.RRESP);
                        rresp.set(m.resp);
                        rdata.set(m.rdata.asUInt());
                    });
                }))
                .is(State.BRESP, () -> when(s.bready, () -> state.set(State.IDLE)))
                .is(State.RRESP, () -> when(s.rready, () -> state.set(State.IDLE))));
        Bool bvalid = state.is(State.BRESP);
        Bool rvalid = state.is(State.RRESP);
        s.bvalid.set(bvalid);
        s.bresp.set(bresp);
        s.rvalid.set(rvalid);
        s.rresp.set(rresp);
        s.rdata.set(rdata.asBits());
        Bool bDone = bvalid.and(s.bready);
        Bool rDone = rvalid.and(s.rready);
        slverrCount.set(Counter.saturating("slverr_count_q", 32,
                bDone.and(bresp.eq(RegBus.SLVERR)).or(rDone.and(rresp.eq(RegBus.SLVERR)))));
        decerrCount.set(Counter.saturating("decerr_count_q", 32,
                bDone.and(bresp.eq(RegBus.DECERR)).or(rDone.and(rresp.eq(RegBus.DECERR)))));
    }
}
