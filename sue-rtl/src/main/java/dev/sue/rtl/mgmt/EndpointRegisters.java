// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.mgmt;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Data;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.regif.AxiLite;
import dev.sue.hdl.lib.regif.AxiLiteTarget;
import dev.sue.hdl.lib.regif.RegBusDecoder;
import dev.sue.hdl.lib.regif.RegisterFile;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.regmap.RegisterBlockSpec;
import dev.sue.hdl.regmap.RegisterMap;
import dev.sue.rtl.axi.AxiXpuOptions;
import dev.sue.rtl.config.CfgBus;
import dev.sue.rtl.config.CfgShadow;
import dev.sue.rtl.config.ConfigRegisters;
import dev.sue.rtl.config.StatusWindow;
import dev.sue.rtl.config.StatusWord;
import java.util.ArrayList;
import java.util.List;

/**
 * The endpoint's register map behind one AXI4-Lite target (issue 14): built inside
 * {@link dev.sue.rtl.SueEndpoint}'s constructor (an area of it, not a module of its own), it makes
 * the {@link AxiLiteTarget}, the {@link RegBusDecoder} and the blocks, and exports the map
 * ({@code sue_endpoint.rdl}, {@code _regs.py}, {@code _regs.md}, the JSON report).
 *
 * <h2>Map (word addresses; byte address = 4 x word, {@link #AXI_ADDR_BITS} bits)</h2>
 * <ul>
 * <li>{@code cfg} at {@link #CFG_BASE}, {@code 2^15} words: the configuration registers of the
 *     blocks ({@link ConfigRegisters}), word {@code a} = configuration address {@code a}. Legal
 *     writes go to the blocks' {@link CfgBus} and wait for its ready; reads answer from a shadow
 *     of what was written ({@link CfgShadow}).
 * <li>{@code status} at {@link #STATUS_BASE} ({@code 0x8000}, as the former status read port):
 *     word i is status word i ({@link StatusWord}), read-only ({@link StatusWindow}: register
 *     names are the words' names in upper case with {@code _} for {@code .}, {@code tx_rel.retx}
 *     -&gt; {@code TX_REL_RETX}).
 * <li>{@code endpoint} at {@link #ENDPOINT_BASE}: identification (from the generator's
 *     parameters), the interrupt's cause, enable and pending registers, the AXI error counters
 *     and a scratch register.
 * <li>{@code ctl} at {@link #CTL_BASE}: control frames sent and received ({@link ControlFrames},
 *     {@link #CTL_MAX_FRAME_BYTES}, {@link #CTL_TX_SLOTS} and {@link #CTL_RX_SLOTS} frames).
 * </ul>
 * Any other address answers DECERR; a write to a read-only register, or of a value outside a
 * field's range, SLVERR (counted in {@code AXI_SLVERR}, {@code AXI_DECERR}).
 *
 * <h2>Interrupt</h2>
 * Sources: the caller's (in bit order), then {@code ctl_frame} (a received control frame waits:
 * a level, so the bit comes back until every frame is popped), {@code ctl_drop} (a received
 * control frame was dropped) and {@code link_change} ({@code link_up} changed; {@code LINK_STATUS}
 * gives the state). {@code IRQ_CAUSE} holds one sticky bit per source (set in the cycle after its event, cleared by
 * writing 1; a level source sets it again while it lasts); {@code irq} is 1 (registered) while
 * {@code IRQ_CAUSE & IRQ_ENABLE} is not 0, which {@code IRQ_PENDING} shows.
 */
public final class EndpointRegisters {
    /** Word address bits of the map; the AXI4-Lite byte address has two more. */
    public static final int WORD_ADDR_BITS = 16;
    public static final int AXI_ADDR_BITS = WORD_ADDR_BITS + 2;
    /** Word bases of the blocks. */
    public static final long CFG_BASE = 0x0000;
    public static final int CFG_ADDR_BITS = ConfigRegisters.ADDR_BITS;
    public static final long STATUS_BASE = StatusWord.STATUS_BASE;
    public static final long ENDPOINT_BASE = 0xC000;
    public static final int ENDPOINT_ADDR_BITS = 4;
    public static final long CTL_BASE = 0xE000;

    /** The control-frame buffers ({@link ControlFrames}): a VLAN-tagged standard frame without FCS. */
    public static final int CTL_MAX_FRAME_BYTES = 1518;
    public static final int CTL_TX_SLOTS = 4;
    public static final int CTL_RX_SLOTS = 4;

    /** {@code ID.magic}: "SUE1" in ASCII, first letter in the top byte. */
    public static final long MAGIC = 0x5355_4531L;
    /** {@code VERSION}: of this register map (major changes break drivers). */
    public static final int VERSION_MAJOR = 1;
    public static final int VERSION_MINOR = 0;

    /** Word offsets in the {@code endpoint} block. */
    public static final int ID = 0x0;
    public static final int VERSION = 0x1;
    public static final int BUSES = 0x2;
    public static final int XPUS = 0x3;
    public static final int CELLS = 0x4;
    public static final int RX_BUF_BYTES = 0x5;
    public static final int LINK_STATUS = 0x6;
    public static final int IRQ_CAUSE = 0x8;
    public static final int IRQ_ENABLE = 0x9;
    public static final int IRQ_PENDING = 0xA;
    public static final int AXI_SLVERR = 0xC;
    public static final int AXI_DECERR = 0xD;
    public static final int SCRATCH = 0xF;

    /**
     * What the generator was asked for: the identification registers' values, and the AXI4 XPU
     * interface's options ({@code axi}, null with the FIFO interface: no {@code AXI_DEST_MAP}).
     */
    public record Identity(int dataWidth, int xpus, int vcs, int cells, int rxBufBytes, int encap, boolean vlan,
            int windowMax, AxiXpuOptions axi, int ports) {
        /** One port. */
        public Identity(int dataWidth, int xpus, int vcs, int cells, int rxBufBytes, int encap, boolean vlan,
                int windowMax, AxiXpuOptions axi) {
            this(dataWidth, xpus, vcs, cells, rxBufBytes, encap, vlan, windowMax, axi, 1);
        }
    }

    /** An interrupt source: a field of {@code IRQ_CAUSE} and {@code IRQ_ENABLE}, set by {@code event}. */
    public record IrqSource(String name, Bool event, String doc) {
    }

    /** The accepted configuration writes: fan them out to the blocks ({@link dev.sue.rtl.config.CfgFanout}). */
    public final CfgBus cfg;
    /** The interrupt level (registered). */
    public final Bool irq;
    /** Control frames to send (whole, back to back, no FCS): merge them between SUE frames. */
    public final Stream<PacketBeat> ctlTx;
    /** Received frames that are not SUE (never back-pressured): drive it from the receive path. */
    public final AxiStream ctlRx;

    /**
     * @param id      identification values
     * @param axil    the endpoint's AXI4-Lite slave port
     * @param status  the status words in address order
     * @param linkUp  the MACs' link states (a Bool with one port, Bits with bit p = port p; 1 up):
     *                {@code LINK_STATUS}, and {@code link_change} on every change of any
     * @param irqs    the interrupt sources in bit order
     */
    public EndpointRegisters(Identity id, AxiLite axil, List<StatusWord> status, Data linkUp,
            List<IrqSource> callerIrqs) {
        require(axil.addrBits() == AXI_ADDR_BITS, "the endpoint's AXI4-Lite port has " + AXI_ADDR_BITS
                + " address bits, got " + axil.addrBits());
        require(status.size() <= 1 << 14, "at most 16384 status words, got " + status.size());
        int statusBits = StatusWindow.addrBits(status.size());
        List<RegBusDecoder.Window> windows = List.of(
                new RegBusDecoder.Window("cfg", CFG_BASE, CFG_ADDR_BITS),
                new RegBusDecoder.Window("status", STATUS_BASE, statusBits),
                new RegBusDecoder.Window("endpoint", ENDPOINT_BASE, ENDPOINT_ADDR_BITS),
                new RegBusDecoder.Window("ctl", CTL_BASE, ControlFrames.windowBits(CTL_MAX_FRAME_BYTES)));
        AxiLiteTarget target = instance("axil_target", () -> new AxiLiteTarget(AXI_ADDR_BITS));
        RegBusDecoder decoder = instance("reg_decoder", () -> new RegBusDecoder(WORD_ADDR_BITS, windows));
        CfgShadow shadow = instance("cfg_shadow", () -> new CfgShadow(id.xpus(), id.cells(), id.windowMax(),
                id.axi(), id.ports()));
        connect(target.s, axil);
        connect(decoder.s, target.m);
        connect(shadow.s, decoder.m.get(0));
        cfg = shadow.cfg;

        StatusWindow statusWindow = instance("status_window", () -> new StatusWindow(status.size()));
        statusWindow.connect(status);
        connect(statusWindow.s, decoder.m.get(1));
        RegisterBlockSpec statusSpec = StatusWindow.spec("status", status);

        ControlFrames frames = instance("ctl_frames", () -> new ControlFrames(id.dataWidth(), CTL_MAX_FRAME_BYTES,
                CTL_TX_SLOTS, CTL_RX_SLOTS));
        connect(frames.regs, decoder.m.get(3));
        ctlTx = frames.tx;
        ctlRx = frames.rx;
        List<IrqSource> irqs = new ArrayList<>(callerIrqs);
        irqs.add(new IrqSource("ctl_frame", frames.frameWaiting, "A received control frame waits (level)"));
        irqs.add(new IrqSource("ctl_drop", frames.rxDropped, "A received control frame was dropped"));
        Bits link;
        Bool linkChange;
        if (linkUp instanceof Bool up) {
            Bool q = reg("link_up_q", bool()).init(false);
            Bool before = reg("link_up_q2", bool()).init(false);
            q.set(up);
            before.set(q);
            link = q.asBits();
            linkChange = q.ne(before);
        } else {
            Bits up = (Bits) linkUp;
            require(up.width() == id.ports(), "link_up has a bit per port: " + id.ports() + ", got " + up.width());
            Bits q = reg("link_up_q", bits(up.width())).init(0);
            Bits before = reg("link_up_q2", bits(up.width())).init(0);
            q.set(up);
            before.set(q);
            link = q;
            linkChange = q.ne(before);
        }
        irqs.add(new IrqSource("link_change", linkChange, "link_up changed (read LINK_STATUS)"));

        RegisterFile ep = new RegisterFile("endpoint", "Identification, interrupt and bus errors", decoder.m.get(2));
        var idReg = ep.register("ID", ID, "Identifies a SUE endpoint");
        idReg.ro("magic", U(MAGIC, 32), MAGIC, "0x53554531 (\"SUE1\")");
        var version = ep.register("VERSION", VERSION, "Version of this register map");
        version.ro("minor", U(VERSION_MINOR, 8), (long) VERSION_MINOR, "Additions that keep every address");
        version.ro("major", U(VERSION_MAJOR, 8), (long) VERSION_MAJOR, "Changes a driver must know");
        var buses = ep.register("BUSES", BUSES, "Generator parameters: buses and encapsulation");
        buses.ro("data_width", U(id.dataWidth(), 11), (long) id.dataWidth(), "XPU and MAC bus bits (dataWidth)");
        buses.skip(5).ro("vcs", U(id.vcs(), 3), (long) id.vcs(), "Virtual channels (vcs)");
        buses.skip(5).ro("encap", U(id.encap(), 3), (long) id.encap(),
                "Encapsulation code (encap: 0 STD_IPV4, 1 STD_IPV6, 2 AFH1, 3 AFH1_SHIM, 4 AFH2_NORMAL, 5 AFH2_COMPRESSED)");
        buses.ro("vlan", U(id.vlan() ? 1 : 0, 1), id.vlan() ? 1L : 0L, "Frames carry an 802.1Q tag (vlan)");
        ep.register("XPUS", XPUS, "Generator parameter xpus").ro("xpus", U(id.xpus(), 11), (long) id.xpus(),
                "XPUs in the fabric");
        ep.register("CELLS", CELLS, "Generator parameter cells").ro("cells", U(id.cells(), 17), (long) id.cells(),
                "Transmit cell buffer cells");
        ep.register("RX_BUF_BYTES", RX_BUF_BYTES, "Generator parameter rxBufBytes").ro("bytes",
                U(id.rxBufBytes(), 23), (long) id.rxBufBytes(), "Receive buffer bytes");

        ep.register("LINK_STATUS", LINK_STATUS, id.ports() == 1 ? "The MAC's link state" : "The MACs' link states").ro("up", link.asUInt(), null,
                id.ports() == 1 ? "1: link_up was 1 a cycle ago" : "Bit p: link_up[p] (port p) was 1 a cycle ago");
        var cause = ep.register("IRQ_CAUSE", IRQ_CAUSE, "Interrupt causes: sticky, write 1 to clear");
        var enable = ep.register("IRQ_ENABLE", IRQ_ENABLE, "Interrupt causes that raise irq");
        List<UInt> causes = new ArrayList<>();
        List<UInt> enables = new ArrayList<>();
        for (IrqSource s : irqs) {
            causes.add(cause.w1c(s.name(), s.event().asBits(), s.doc()));
            enables.add(enable.rw(s.name(), 1, 0, "Raise irq on " + s.name()));
        }
        Bits pending = B(0, irqs.size());
        for (int i = 0; i < irqs.size(); i++) {
            pending = pending.or(causes.get(i).and(enables.get(i)).asBits().resize(irqs.size()).shl(i));
        }
        Bits pendingBits = pending.named("irq_pending_bits");
        ep.register("IRQ_PENDING", IRQ_PENDING, "IRQ_CAUSE & IRQ_ENABLE: irq is 1 while not 0")
                .ro("pending", pendingBits.asUInt(), 0L, "Bit i: cause i is set and enabled");
        ep.ro("AXI_SLVERR", AXI_SLVERR, target.slverrCount, "AXI4-Lite responses SLVERR sent (saturating)");
        ep.ro("AXI_DECERR", AXI_DECERR, target.decerrCount, "AXI4-Lite responses DECERR sent (saturating)");
        ep.rw("SCRATCH", SCRATCH, 32, 0, "Free for software (bus checks)");
        RegisterBlockSpec epSpec = ep.build();
        irq = regNext(pendingBits.ne(0)).named("irq_q");

        List<RegisterMap.Placement> placements = List.of(
                new RegisterMap.Placement(CFG_BASE, ConfigRegisters.spec(id.xpus(), id.cells(), id.windowMax(),
                        id.axi(), id.ports())),
                new RegisterMap.Placement(STATUS_BASE, statusSpec),
                new RegisterMap.Placement(ENDPOINT_BASE, epSpec),
                new RegisterMap.Placement(CTL_BASE, frames.spec));
        exportRegisterMap(new RegisterMap("sue_endpoint", "SUE endpoint registers through AXI4-Lite",
                WORD_ADDR_BITS, placements));
    }
}
