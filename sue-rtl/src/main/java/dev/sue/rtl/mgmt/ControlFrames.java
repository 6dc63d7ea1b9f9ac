// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.mgmt;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.lib.regif.RegBus;
import dev.sue.hdl.lib.regif.RegisterFile;
import dev.sue.hdl.lib.regif.Table;
import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.hdl.regmap.RegisterBlockSpec;
import dev.sue.rtl.mac.MacStreams;

/**
 * Control frames through the management interface (spec 3.1: "the control interface can be used
 * to send and receive packets. The XPU builds the full packet with SUE adding the Ethernet FCS"):
 * a transmit buffer ({@link ControlFrameTx}) software fills and sends through registers, and a
 * receive buffer ({@link ControlFrameRx}) of the frames that are not SUE, which it reads and pops.
 * Why registers and not a stream port: the spec puts packets on the control (AXI target)
 * interface, at up to 10,000 packets per second, and a register window needs no second master
 * in the SoC; the buffers keep whole frames, so neither direction can disturb a PDU.
 *
 * <h2>Registers (block {@code ctl}, word offsets; byte address = 4 x word)</h2>
 * <ul>
 * <li>{@code TX_SEND} (wo {@code length}, 14..maxFrameBytes): send the frame written in
 *     {@code TX_FRAME} (bytes 0..length-1; the FCS is added on the way out, frames under 60
 *     bytes are padded with zeros). With every slot holding a frame it is not sent and
 *     {@code TX_DROPS} counts it.
 * <li>{@code TX_STATUS} (ro {@code queued}): frames waiting to leave.
 * <li>{@code TX_FRAMES}, {@code TX_DROPS}: counters.
 * <li>{@code RX_STATUS} (ro {@code length}, {@code queued} at bit 16): the oldest frame's bytes
 *     (0 when none) and the frames waiting.
 * <li>{@code RX_POP} (wo {@code pop}, 1): discard the oldest frame.
 * <li>{@code RX_FRAMES}, {@code RX_DROPS_FULL} (every slot taken), {@code RX_DROPS_BAD} (under 14
 *     bytes, over maxFrameBytes, or a MAC error): counters.
 * <li>{@code LIMITS} (ro): {@code max_frame_bytes}, {@code tx_slots}, {@code rx_slots}.
 * <li>{@code TX_FRAME}[i] (table, wo {@code data}): word i of the frame being built (bytes
 *     4i..4i+3, byte 4i in bits 7:0). A write waits while every slot holds a frame.
 * <li>{@code RX_FRAME}[i] (table, ro {@code data}): word i of the oldest frame.
 * </ul>
 *
 * <p>Ports: {@code regs_*} (RegBus slave), {@code tx} (Stream of PacketBeat, to merge between
 * PDUs before the FCS), {@code rx_t*} (AXI4-Stream of non-SUE frames in, never back-pressured),
 * {@code frame_waiting} (level: a received frame waits, for the interrupt), {@code rx_dropped}
 * (a received frame was dropped, for the interrupt).
 */
public final class ControlFrames extends Component {
    /** Word offsets of the registers. */
    public static final int TX_SEND = 0x0;
    public static final int TX_STATUS = 0x1;
    public static final int TX_FRAMES = 0x2;
    public static final int TX_DROPS = 0x3;
    public static final int RX_STATUS = 0x4;
    public static final int RX_POP = 0x5;
    public static final int RX_FRAMES = 0x6;
    public static final int RX_DROPS_FULL = 0x7;
    public static final int RX_DROPS_BAD = 0x8;
    public static final int LIMITS = 0x9;

    public final RegBus regs;
    public final Stream<PacketBeat> tx;
    public final AxiStream rx;
    public final Bool frameWaiting = out(bool());
    /** A received frame was dropped (every slot taken, or a bad frame): one cycle per frame. */
    public final Bool rxDropped = out(bool());
    /** The block's register documentation. */
    public final RegisterBlockSpec spec;

    /**
     * @param dataWidth     bus bits, a power of two, 64..1024
     * @param maxFrameBytes longest frame without FCS, 60..9216 (1518: a VLAN-tagged standard frame)
     * @param txSlots       frames the transmit buffer holds, a power of two, 2..16
     * @param rxSlots       frames the receive buffer holds, a power of two, 2..16
     */
    public ControlFrames(int dataWidth, int maxFrameBytes, int txSlots, int rxSlots) {
        param("dataWidth", dataWidth);
        param("maxFrameBytes", maxFrameBytes);
        param("txSlots", txSlots);
        param("rxSlots", rxSlots);
        require(dataWidth >= 64 && dataWidth <= 1024 && isPowerOfTwo(dataWidth),
                "dataWidth must be a power of two, 64..1024, got " + dataWidth);
        require(maxFrameBytes >= ControlFrameTx.MIN_WIRE_BYTES && maxFrameBytes <= 9216,
                "maxFrameBytes must be 60..9216, got " + maxFrameBytes);
        require(txSlots >= 2 && txSlots <= 16 && isPowerOfTwo(txSlots), "txSlots must be a power of two, 2..16, got " + txSlots);
        require(rxSlots >= 2 && rxSlots <= 16 && isPowerOfTwo(rxSlots), "rxSlots must be a power of two, 2..16, got " + rxSlots);
        ControlFrameLayout txLayout = new ControlFrameLayout(dataWidth, maxFrameBytes, txSlots);
        ControlFrameLayout rxLayout = new ControlFrameLayout(dataWidth, maxFrameBytes, rxSlots);
        int tableSpan = Integer.highestOneBit(txLayout.maxWords() - 1) << 1;
        regs = slave(new RegBus(windowBits(maxFrameBytes))).named("regs");
        tx = master(Stream.of(() -> new PacketBeat(dataWidth)));
        rx = slave(MacStreams.rx(dataWidth)).named("rx");

        ControlFrameTx txBuffer = instance("tx_buffer", () -> new ControlFrameTx(txLayout));
        ControlFrameRx rxBuffer = instance("rx_buffer", () -> new ControlFrameRx(rxLayout));
        connect(tx, txBuffer.tx);
        connect(rxBuffer.rx, rx);

        RegisterFile file = new RegisterFile("ctl", "Control frames sent and received through registers", regs);
        var send = file.register("TX_SEND", TX_SEND, "Send the frame written in TX_FRAME")
                .wo("length", txLayout.lengthBits(), ControlFrameLayout.MIN_FRAME_BYTES, maxFrameBytes,
                        "Bytes of the frame, without FCS");
        txBuffer.sendValid.set(send.valid());
        txBuffer.sendLength.set(send.data());
        file.ro("TX_STATUS", TX_STATUS, txBuffer.queued, "Frames waiting to leave");
        file.counter("TX_FRAMES", TX_FRAMES, txBuffer.sentEvent, "Control frames sent");
        file.counter("TX_DROPS", TX_DROPS, txBuffer.dropEvent, "TX_SEND with every slot holding a frame: not sent");
        var rxStatus = file.register("RX_STATUS", RX_STATUS, "The oldest received frame");
        rxStatus.ro("length", rxBuffer.headLength, 0L, "Bytes of the oldest frame, 0 when none");
        rxStatus.skip(16 - rxLayout.lengthBits()).ro("queued", rxBuffer.queued, 0L, "Frames waiting");
        var pop = file.register("RX_POP", RX_POP, "Discard the oldest received frame").wo("pop", 1, 1, 1, "Write 1");
        rxBuffer.pop.set(pop.valid());
        file.counter("RX_FRAMES", RX_FRAMES, rxBuffer.frameEvent, "Control frames received and kept");
        file.counter("RX_DROPS_FULL", RX_DROPS_FULL, rxBuffer.dropFullEvent, "Frames dropped: every slot held a frame");
        file.counter("RX_DROPS_BAD", RX_DROPS_BAD, rxBuffer.dropBadEvent,
                "Frames dropped: under 14 bytes, over the maximum, or a MAC error");
        var limits = file.register("LIMITS", LIMITS, "What this configuration holds");
        limits.ro("max_frame_bytes", U(maxFrameBytes, 16), (long) maxFrameBytes, "Longest frame without FCS");
        limits.ro("tx_slots", U(txSlots, 8), (long) txSlots, "Frames the transmit buffer holds");
        limits.ro("rx_slots", U(rxSlots, 8), (long) rxSlots, "Frames the receive buffer holds");

        Table txFrame = file.table("TX_FRAME", tableSpan, txLayout.maxWords(), "The frame being built, word i")
                .wo("data", 32, "Bytes 4i..4i+3, byte 4i in bits 7:0").port();
        txBuffer.wrValid.set(txFrame.wrValid);
        txBuffer.wrIndex.set(txFrame.wrIndex);
        txBuffer.wrData.set(txFrame.wrData);
        txFrame.wrReady.set(txBuffer.wrReady);

        Table rxFrame = file.table("RX_FRAME", 2L * tableSpan, rxLayout.maxWords(), "The oldest received frame, word i")
                .ro("data", 32, "Bytes 4i..4i+3, byte 4i in bits 7:0").port();
        rxBuffer.rdValid.set(rxFrame.rdValid);
        rxBuffer.rdIndex.set(rxFrame.rdIndex);
        rxFrame.rdReady.set(TRUE);
        rxFrame.rdRspValid.set(rxBuffer.rdRspValid);
        rxFrame.rdField("data").set(rxBuffer.rdWord.asUInt());
        frameWaiting.set(rxBuffer.queued.ne(0));
        rxDropped.set(rxBuffer.dropFullEvent.or(rxBuffer.dropBadEvent));
        spec = file.build();
    }

    /** Word address bits of the block's window: the registers, then the two frame tables. */
    public static int windowBits(int maxFrameBytes) {
        int words = (maxFrameBytes + ControlFrameLayout.WORD_BYTES - 1) / ControlFrameLayout.WORD_BYTES;
        return log2Up(Integer.highestOneBit(words - 1) << 1) + 2;
    }

    /** Emitted as {@code sue_control_frames}. */
    @Override
    public String moduleBaseName() {
        return "sue_control_frames";
    }
}
