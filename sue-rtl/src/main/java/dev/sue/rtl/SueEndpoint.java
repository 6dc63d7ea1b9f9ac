package dev.sue.rtl;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import dev.sue.rtl.config.StatusReadPort;
import dev.sue.rtl.config.CfgFanout;
import dev.sue.rtl.config.StatusWord;
import dev.sue.rtl.encap.Encapsulation;
import dev.sue.rtl.rx.MacRxBeat;
import java.util.ArrayList;
import java.util.List;

/**
 * A whole SUE endpoint: the transmit path ({@link SueTx}) and the receive path ({@link SueRx})
 * of one XPU, joined by go-back-N (ACK/NACK the receive path must send ride on transmitted PDUs;
 * ACK/NACK received free and rewind the transmit replay store), one configuration write bus and
 * one status read port.
 *
 * <pre>
 * tx_* --&gt; SueTx (queues, packer, TxReliability, framer) --&gt; mac_tx_0
 *               ^ ack_req          ^ peer_ack
 *               |                  |
 * rx_* &lt;-- SueRx (parser, RxReliability, RX buffer) &lt;------- mac_rx_0
 *                                              +-----------&gt; ctl (frames that are not SUE)
 * cfg_* (writes) --&gt; both          rd_* (reads) &lt;-- counters of both (status space 0x8000 +)
 * </pre>
 *
 * <h2>Parameters</h2>
 * <ul>
 * <li>{@code dataWidth}: 256, 512 or 1024 (XPU data and MAC buses).
 * <li>{@code xpus}: 2..1024 XPUs in the fabric (destinations and sources).
 * <li>{@code vcs}: 1, 2 or 4 virtual channels.
 * <li>{@code cells}: transmit cell buffer (queues and replay store), cells of {@code dataWidth}
 *     bits; see {@link SueTx}.
 * <li>{@code rxBufBytes}: receive buffer bytes; see {@link SueRx}.
 * <li>{@code encap}, {@code vlan}: the network encapsulation (ARCHITECTURE.md §5).
 * </ul>
 *
 * <h2>Ports</h2>
 * Those of {@link SueTx} (XPU TX, {@code mac_tx_0}, {@code vc_pause}) and {@link SueRx} (XPU RX,
 * {@code mac_rx_0}, {@code ctl}) under the same names, plus:
 * <ul>
 * <li>{@code cfg_valid, cfg_addr[15:0], cfg_data[31:0], cfg_ready}: configuration writes; a write
 *     happens when valid and ready and both paths see it (the command table at
 *     {@code 0x0100 + type} configures both directions). Address map: sue-rtl/README.md.
 * <li>{@code conn_err} (Flow, 10 bits): a connection entered the error state (retry limit);
 *     {@code conn_state_dest} -&gt; {@code conn_state} ({error, rewinding}): one connection's state.
 * <li>{@code rd_valid, rd_addr[15:0]} -&gt; {@code rd_rsp_valid, rd_data[31:0], rd_err}: the status
 *     space, word {@code 0x8000 + i} = {@link #statusWords()}{@code .get(i)}, two cycles after the
 *     read ({@link StatusReadPort}).
 * </ul>
 */
public final class SueEndpoint extends Component {
    public final UInt txCycle = in(uint(4));
    public final Bits txValid = in(bits(2));
    public final UInt txVc = in(uint(2));
    public final UInt txXpuid = in(uint(10)).named("tx_xpuid");
    public final Bits txControl = in(bits(144));
    public final Bits txData;
    public final Bool txErr = in(bool());
    public final Bits txCredit = out(bits(6));
    public final Bool txResetIn = in(bool());
    public final Bool txResetOut = out(bool());

    public final Bits rxValid = out(bits(2));
    public final UInt rxCycle = out(uint(4));
    public final UInt rxVc = out(uint(2));
    public final UInt rxXpuid = out(uint(10)).named("rx_xpuid");
    public final Bits rxControl = out(bits(144));
    public final Bits rxData;
    public final Bits rxCredit = in(bits(6));
    public final Bool rxResetIn = in(bool());
    public final Bool rxResetOut = out(bool());

    public final Vec<Stream<PacketBeat>> macTx;
    public final Stream<MacRxBeat> macRx;
    public final Stream<MacRxBeat> ctl;
    public final Bits vcPause;
    public final Flow<UInt> connErr;
    public final UInt connStateDest = in(uint(10));
    public final Bits connState = out(bits(2));

    public final Bool cfgValid = in(bool());
    public final UInt cfgAddr = in(uint(16));
    public final Bits cfgData = in(bits(32));
    public final Bool cfgReady = out(bool());

    public final Bool rdValid = in(bool());
    public final UInt rdAddr = in(uint(16));
    public final Bool rdRspValid = out(bool());
    public final Bits rdData = out(bits(32));
    public final Bool rdErr = out(bool());

    private final List<StatusWord> status = new ArrayList<>();

    public SueEndpoint(int dataWidth, int xpus, int vcs, int cells, int rxBufBytes, Encapsulation encap,
            boolean vlan) {
        param("dataWidth", dataWidth);
        param("xpus", xpus);
        param("vcs", vcs);
        param("cells", cells);
        param("rxBufBytes", rxBufBytes);
        param("encap", encap == null ? "null" : encap.name());
        param("vlan", vlan);
        txData = in(bits(dataWidth));
        rxData = out(bits(dataWidth));
        macTx = master(Vec.of(1, i -> Stream.of(() -> new PacketBeat(dataWidth))));
        macRx = slave(Stream.of(() -> new MacRxBeat(dataWidth)).named("mac_rx_0"));
        ctl = master(Stream.of(() -> new MacRxBeat(dataWidth)));
        vcPause = in(bits(vcs));
        connErr = master(Flow.of(() -> uint(10)));

        SueTx tx = instance("tx", () -> new SueTx(dataWidth, xpus, vcs, cells, encap, vlan, 1));
        SueRx rx = instance("rx", () -> new SueRx(dataWidth, xpus, vcs, rxBufBytes, encap, vlan));

        // XPU transmit side
        tx.txCycle.set(txCycle);
        tx.txValid.set(txValid);
        tx.txVc.set(txVc);
        tx.xpuid.set(txXpuid);
        tx.txControl.set(txControl);
        tx.txData.set(txData);
        tx.txErr.set(txErr);
        tx.txResetIn.set(txResetIn);
        txCredit.set(tx.txCredit);
        txResetOut.set(tx.txResetOut);
        tx.vcPause.set(vcPause);
        macTx.get(0).connectFrom(tx.macTx.get(0));
        connect(connErr, tx.connErr);
        tx.connStateDest.set(connStateDest);
        connState.set(tx.connState);

        // XPU receive side
        rxValid.set(rx.rxValid);
        rxCycle.set(rx.rxCycle);
        rxVc.set(rx.rxVc);
        rxXpuid.set(rx.xpuid);
        rxControl.set(rx.rxControl);
        rxData.set(rx.rxData);
        rx.rxCredit.set(rxCredit);
        rx.rxResetIn.set(rxResetIn);
        rxResetOut.set(rx.rxResetOut);
        rx.macRx.connectFrom(macRx);
        ctl.connectFrom(rx.ctl);

        // go-back-N between the two paths
        connect(tx.ackReq, rx.ackReq);
        connect(tx.peerAck, rx.peerAck);

        // one configuration bus
        Bool ready = tx.cfgReady.and(rx.cfgReady).named("cfg_all_ready");
        cfgReady.set(ready);
        Bool write = cfgValid.and(ready).named("cfg_write");
        CfgFanout.drive(write, cfgAddr, cfgData, tx.cfgValid, tx.cfgAddr, tx.cfgData);
        CfgFanout.drive(write, cfgAddr, cfgData, rx.cfgValid, rx.cfgAddr, rx.cfgData);

        // status space: transmit counters, then receive counters
        status.addAll(tx.statusWords());
        status.addAll(rx.statusWords());
        StatusReadPort rd = instance("status", () -> new StatusReadPort(status.size()));
        rd.connect(status);
        rd.rdValid.set(rdValid);
        rd.rdAddr.set(rdAddr);
        rdRspValid.set(rd.rdRspValid);
        rdData.set(rd.rdData);
        rdErr.set(rd.rdErr);
        for (int i = 0; i < status.size(); i++) {
            register(StatusWord.STATUS_BASE + i, status.get(i).name(), "ro",
                    status.get(i).value().width() == 32 ? "32-bit saturating counter" : "level");
        }
    }

    /** The status space in address order: word {@code 0x8000 + i} is element i. */
    public List<StatusWord> statusWords() {
        return List.copyOf(status);
    }
}
