// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.rxbuf;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.OneHot;

/**
 * The receive side's copy of the command-type table (ARCHITECTURE.md §5): type -&gt;
 * {data present, control length in 2-byte units}. Same registers and encoding as the TX
 * table ({@code SueTx.CMD_TYPE_BASE} + type, data {@code {data_present[4], units[3:0]}}), so
 * one configuration write sets both directions.
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0]}: configuration writes; addresses
 *       0x0100..0x01FF are this table, others are ignored. Units 1..9 make the type valid;
 *       units 0 or &gt; 9, or type 0 (PAD) are rejected: the type becomes invalid and
 *       {@code cfg_reject} pulses. Every type is invalid after reset.</li>
 *   <li>Two lookup ports {@code a_type}/{@code b_type} (in, 8) -&gt; {@code *_valid},
 *       {@code *_data} (data present), {@code *_units} (1..9): combinational (LUT RAM read,
 *       latency 0), because the op walks of {@link RxDeliver} decode one op per cycle and the
 *       next op's position depends on this op's length within the same cycle.</li>
 * </ul>
 */
public final class RxCommandTable extends Component {
    /** First configuration address of the table: entry t is at {@code CMD_TYPE_BASE + t}. */
    public static final int CMD_TYPE_BASE = 0x0100;

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReject = out(bool());

    public final UInt aType = in(uint(8));
    public final Bool aValid = out(bool());
    public final Bool aData = out(bool());
    public final UInt aUnits = out(uint(4));
    public final UInt bType = in(uint(8));
    public final Bool bValid = out(bool());
    public final Bool bData = out(bool());
    public final UInt bUnits = out(uint(4));

    /** A table entry: the op carries data, and its control length in 2-byte units. */
    static final class CmdType extends Bundle {
        final Bool dataPresent = bool();
        final UInt units = uint(4);

        @Override
        public CmdType copyType() {
            return new CmdType();
        }
    }

    public RxCommandTable() {
        latency(0);
        Mem<CmdType> table = Mem.of(256, new CmdType()).named("cmd_table");
        Bits typeValid = reg("type_valid", bits(256)).init(0);
        Bool hit = cfgValid.and(cfgAddr.slice(15, 8).eq(CMD_TYPE_BASE >> 8)).named("cfg_hit");
        UInt type = cfgAddr.slice(7, 0);
        UInt units = cfgData.slice(3, 0).asUInt();
        Bool ok = units.ne(0).and(units.le(9)).and(type.ne(0)).named("cfg_ok");
        CmdType written = wire("cfg_entry", new CmdType());
        written.dataPresent.set(cfgData.bit(4));
        written.units.set(units);
        table.write(type, written, hit.and(ok));
        Bits sel = OneHot.decode(type, 256).named("cfg_sel");
        when(hit, () -> typeValid.set(typeValid.and(sel.not()).or(mux(ok, sel, B(0, 256)))));
        cfgReject.set(hit.andNot(ok));

        CmdType ea = table.readAsync(aType).named("a_entry");
        aValid.set(typeValid.bit(aType));
        aData.set(ea.dataPresent);
        aUnits.set(ea.units);
        CmdType eb = table.readAsync(bType).named("b_entry");
        bValid.set(typeValid.bit(bType));
        bData.set(eb.dataPresent);
        bUnits.set(eb.units);
    }

    @Override
    public String moduleBaseName() {
        return "sue_rx_cmd_table";
    }
}
