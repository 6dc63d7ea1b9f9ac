// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.demo;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.regif.AxiLite;
import dev.sue.hdl.lib.regif.AxiLiteTarget;
import dev.sue.hdl.lib.regif.RegBusDecoder;
import dev.sue.hdl.lib.regif.RegisterFile;
import dev.sue.hdl.lib.regif.Table;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.hdl.regmap.RegisterMap;
import java.util.List;

/**
 * Every kind of register the register-map builder ({@code lib.regif}) makes, behind an AXI4-Lite
 * target: the design its cocotb test drives with cocotbext-axi's {@code AxiLiteMaster} and whose
 * exported map (SystemRDL, Python, Markdown, JSON) PeakRDL compiles.
 *
 * <p>Parameters: {@code tableEntries} 2..256, the entries of the {@code stats.TABLE} table.
 *
 * <p>Ports: {@code s_axil_*} (AXI4-Lite slave, 14-bit byte addresses); {@code events[3:0]} (in:
 * sets {@code ctrl.CAUSE} bits, bit 0 counts in {@code ctrl.EVENTS}); {@code limit[7:0]},
 * {@code enable}, {@code level[3:0]} (out: the registers' values); {@code kicks[15:0]} (out:
 * how many times {@code ctrl.KICK} was written).
 *
 * <p>Map: block {@code ctrl} at byte 0x0000 (ID, SCRATCH, LIMIT 1..100, MODE with a reserved
 * gap, KICK write-only, LAST_KICK, CAUSE write-1-to-clear, EVENTS counter), block {@code stats}
 * at byte 0x0800 (TABLE in RAM at 0x0800 with a range-checked field and a computed read-only
 * field, the target's SLVERR and DECERR counters at 0x0C00). Bytes 0x0100..0x07FF and 0x1000..
 * are unmapped.
 */
public final class RegisterDemo extends Component {
    /** Value of {@code ctrl.ID}. */
    public static final long MAGIC = 0x5EE0_0001L;
    /** Byte address bits of the AXI4-Lite port. */
    public static final int AXI_ADDR_BITS = 14;

    public final AxiLite axil;
    public final Bits events = in(bits(4));
    public final UInt limit = out(uint(8));
    public final Bool enable = out(bool());
    public final UInt level = out(uint(4));
    public final UInt kicks = out(uint(16));

    public RegisterDemo(int tableEntries) {
        param("tableEntries", tableEntries);
        require(tableEntries >= 2 && tableEntries <= 256, "tableEntries must be 2..256, got " + tableEntries);
        axil = slave(new AxiLite(AXI_ADDR_BITS)).named("s_axil");
        int wordBits = AXI_ADDR_BITS - 2;
        AxiLiteTarget target = instance("target", () -> new AxiLiteTarget(AXI_ADDR_BITS));
        connect(target.s, axil);
        List<RegBusDecoder.Window> windows = List.of(new RegBusDecoder.Window("ctrl", 0x000, 6),
                new RegBusDecoder.Window("stats", 0x200, 9));
        RegBusDecoder decoder = instance("decoder", () -> new RegBusDecoder(wordBits, windows));
        connect(decoder.s, target.m);

        RegisterFile ctrl = new RegisterFile("ctrl", "Control registers of the demo", decoder.m.get(0));
        ctrl.ro("ID", 0x00, U(MAGIC, 32), "Identifies the design");
        ctrl.rw("SCRATCH", 0x01, 32, 0, "Free for software");
        limit.set(ctrl.rw("LIMIT", 0x02, 8, 16, 1, 100, "A limit the hardware uses"));
        var mode = ctrl.register("MODE", 0x03, "Mode bits");
        enable.set(mode.rw("enable", 1, 0, "Turns the demo on").bit(0));
        UInt lvl = mode.skip(3).rw("level", 4, 3, 0, 9, "Level 0..9");
        mode.ro("busy", enable.asUInt(), 0L, "Reads enable back through hardware");
        level.set(lvl);
        RegisterFile.Strobe kick = ctrl.register("KICK", 0x04, "Write to kick").wo("code", 16, "Kick code");
        kicks.set(Counter.wrapping("kick_count", 16, kick.valid()));
        UInt lastKick = reg("last_kick", uint(16)).init(0);
        when(kick.valid(), () -> lastKick.set(kick.data()));
        ctrl.ro("LAST_KICK", 0x05, lastKick, "The code of the last kick");
        ctrl.register("CAUSE", 0x06, "Sticky event bits").w1c("events", events, "Set by events[i], cleared by writing 1");
        ctrl.counter("EVENTS", 0x07, events.bit(0), "Cycles with events[0] set");
        ctrl.build();

        RegisterFile stats = new RegisterFile("stats", "A table in RAM and the bus error counters", decoder.m.get(1));
        Table table = stats.table("TABLE", 0x00, tableEntries, "Entries held in a RAM")
                .rw("value", 16, 0, 50000, "A value up to 50000")
                .ro("parity", 1, "Parity of value, computed on read").port();
        Mem<UInt> ram = Mem.of(tableEntries, uint(16));
        ram.write(table.wrIndex, table.wrField("value"), table.wrValid);
        table.wrReady.set(TRUE);
        table.rdReady.set(TRUE);
        UInt word = ram.readSync(table.rdIndex, table.rdValid);
        table.rdRspValid.set(regNext(table.rdValid).named("table_rd_q"));
        table.rdField("value").set(word);
        table.rdField("parity").set(word.xorR().asUInt().resize(1));
        stats.ro("SLVERRS", 0x100, target.slverrCount, "AXI responses SLVERR sent");
        stats.ro("DECERRS", 0x101, target.decerrCount, "AXI responses DECERR sent");
        stats.build();

        exportRegisterMap(new RegisterMap("register_demo", "Demonstration of the register-map builder", wordBits,
                List.of(new RegisterMap.Placement(0x000, ctrl.spec()), new RegisterMap.Placement(0x200, stats.spec()))));
    }
}
