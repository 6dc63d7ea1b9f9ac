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
import dev.sue.rtl.xpu.XpuTxInterface.CmdEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * The receive side's copy of the command-type table (ARCHITECTURE.md §5): type -&gt;
 * {data present, control length in 2-byte units}. Same registers and encoding as the TX
 * table ({@code SueTx.CMD_TYPE_BASE} + type, data {@code {data_present[4], units[3:0]}}: the
 * TX table's word {@link CmdEntry}, read by field), so one configuration write sets both
 * directions.
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready}: configuration writes
 *       (taken when {@code cfg_valid && cfg_ready}); addresses 0x0100..0x01FF are this table,
 *       others are ignored. Units 1..9 make the type valid; units 0 or &gt; 9, or type 0 (PAD)
 *       are rejected: the type becomes invalid and {@code cfg_reject} pulses. Every type is
 *       invalid after reset; {@code cfg_ready} is 0 for the 256 cycles after reset in which the
 *       lane copies are cleared, 1 from then on.</li>
 *   <li>{@code lanes} lookups for the op map ({@link RxOpMap}): {@code lane_type} (in, 8 per
 *       lane, lane k in bits 8k+7:8k) -&gt; {@code lane_valid}, {@code lane_data} (1 per lane),
 *       {@code lane_units} (4 per lane, 1..9 when valid): combinational (LUT RAM reads, latency
 *       0), one per 2-byte lane of an input beat, so every position where an op may start is
 *       decoded as the beat is written. Nothing else reads the table: both op walks read the
 *       op map.</li>
 * </ul>
 *
 * <h2>Parameters</h2>
 * {@code lanes}: lane lookups (B/2), at least 1.
 */
public final class RxCommandTable extends Component {
    /** First configuration address of the table: entry t is at {@code CMD_TYPE_BASE + t}. */
    public static final int CMD_TYPE_BASE = 0x0100;

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());
    public final Bool cfgReject = out(bool());

    /** An entry: the type is valid, the op carries data, its control length in 2-byte units. */
    static final class LaneEntry extends Bundle {
        final Bool valid = bool();
        final Bool dataPresent = bool();
        final UInt units = uint(4);

        @Override
        public LaneEntry copyType() {
            return new LaneEntry();
        }
    }

    public final Bits laneType;
    public final Bits laneValid;
    public final Bits laneData;
    public final Bits laneUnits;

    public RxCommandTable(int lanes) {
        param("lanes", lanes);
        require(lanes >= 1, "lanes must be at least 1, got " + lanes);
        laneType = in(bits(8 * lanes));
        laneValid = out(bits(lanes));
        laneData = out(bits(lanes));
        laneUnits = out(bits(4 * lanes));
        latency(0);
        // the lane copies are LUT RAMs, which a reset does not clear: after reset every entry is
        // written invalid, one per cycle, with configuration writes held off (cfg_ready = 0)
        UInt scrubType = reg("scrub_type", uint(8)).init(0);
        Bool scrubbing = reg("scrubbing", bool()).init(true);
        when(scrubbing, () -> {
            scrubType.set(scrubType.add(1));
            when(scrubType.eq(255), () -> scrubbing.set(FALSE));
        });
        cfgReady.set(scrubbing.not());
        Bool hit = cfgValid.andNot(scrubbing).and(cfgAddr.slice(15, 8).eq(CMD_TYPE_BASE >> 8)).named("cfg_hit");
        UInt type = cfgAddr.slice(7, 0);
        // the TX table's word, read by field (cfg_data's bits above it are ignored)
        CmdEntry cfgEntry = wire("cfg_entry", new CmdEntry());
        assignFromBits(cfgEntry, cfgData.resize(cfgEntry.bitWidth()));
        Bool ok = cfgEntry.units.ne(0).and(cfgEntry.units.le(9)).and(type.ne(0)).named("cfg_ok");
        cfgReject.set(hit.andNot(ok));

        // one copy per lane (a LUT RAM with one read port each: a RAM with many read ports, or a
        // per-lane read of type_valid, is a 256:1 multiplexer per lane and bit)
        LaneEntry laneWritten = wire("lane_written", new LaneEntry());
        laneWritten.valid.set(ok.andNot(scrubbing));
        laneWritten.dataPresent.set(cfgEntry.dataPresent);
        laneWritten.units.set(cfgEntry.units);
        UInt laneAddr = mux(scrubbing, scrubType, type).named("lane_addr");
        List<Bool> valid = new ArrayList<>();
        List<Bool> data = new ArrayList<>();
        List<UInt> unitsOut = new ArrayList<>();
        for (int k = 0; k < lanes; k++) {
            Mem<LaneEntry> copy = Mem.of(256, new LaneEntry()).named("lane_table_" + k);
            copy.write(laneAddr, laneWritten, scrubbing.or(hit));
            LaneEntry e = copy.readAsync(laneType.slice(8 * k + 7, 8 * k).asUInt()).named("lane_entry_" + k);
            valid.add(e.valid.andNot(scrubbing));
            data.add(e.dataPresent);
            unitsOut.add(0, e.units); // lane 0 at the least significant end
        }
        laneValid.set(OneHot.fromBools(valid));
        laneData.set(OneHot.fromBools(data));
        laneUnits.set(cat(unitsOut));
    }

    @Override
    public String moduleBaseName() {
        return "sue_rx_cmd_table";
    }
}
