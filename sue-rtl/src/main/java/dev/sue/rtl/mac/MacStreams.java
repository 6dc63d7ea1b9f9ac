// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.mac;

import dev.sue.hdl.lib.stream.AxiStream;
import dev.sue.rtl.rx.MacRxBeat;

/**
 * The AXI4-Stream interfaces of the SUE tops' MAC side, one place for their shape: byte 0 of a
 * frame in {@code tdata[7:0]}, {@code tkeep} all ones but on the last beat (contiguous from bit
 * 0 there), and a 1-bit {@code tuser} whose meaning depends on the direction:
 * <ul>
 * <li>TX ({@code mac_tx_<p>_tuser}): "abort". 1 on a frame's last beat would ask the MAC to
 *     poison the frame (send it with a bad FCS). SUE never aborts a frame it has started, so it
 *     is held 0; the port is there so a MAC wrapper with a TX error input connects unchanged.
 * <li>RX ({@code mac_rx_0_tuser}, {@code ctl_tuser}): {@link MacRxBeat#err}, on a frame's last
 *     beat (ignored on the others): the MAC saw an error in the frame (bad FCS, PHY error); on
 *     {@code ctl}, also "bad FCS" when SUE checks the FCS itself.
 * </ul>
 */
public final class MacStreams {
    public static final int TX_USER_BITS = 1;
    public static final int RX_USER_BITS = 1;

    private MacStreams() {
    }

    /** A TX MAC stream of {@code dataWidth} bits; declare it with {@code master(...)}. */
    public static AxiStream tx(int dataWidth) {
        return new AxiStream(dataWidth, TX_USER_BITS);
    }

    /** An RX MAC (or control-frame) stream of {@code dataWidth} bits. */
    public static AxiStream rx(int dataWidth) {
        return new AxiStream(dataWidth, RX_USER_BITS);
    }
}
