// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.stream;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.BaseType;
import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;

/**
 * An AXI4-Stream interface (ARM IHI 0051) with {@code TDATA, TKEEP, TLAST} and an optional
 * {@code TUSER}: the form a MAC or a vendor IP expects at a design's edge. Declared
 * {@code master(new AxiStream(w, u)).named("mac_tx_0")}, its ports are
 * {@code mac_tx_0_tvalid, _tready, _tdata, _tkeep, _tlast, _tuser}, the names cocotbext-axi's
 * {@code AxiStreamBus.from_prefix(dut, "mac_tx_0")} looks for.
 *
 * <ul>
 * <li>{@code tdata} ({@code dataWidth} bits): byte i in bits 8i+7:8i; byte 0 is the first byte
 *     of the packet on the wire (AXI4-Stream's byte order).
 * <li>{@code tkeep} ({@code dataWidth/8} bits): bit i enables byte i. {@code TSTRB} is not
 *     carried: every kept byte is a data byte.
 * <li>{@code tlast}: the final transfer of a packet.
 * <li>{@code tuser} ({@code userWidth} bits, absent when 0): what it means is the user's to
 *     document (for a MAC: a frame error on RX, an abort request on TX).
 * </ul>
 * Handshake as in {@link Stream}: a transfer on a clock edge where {@code tvalid} and
 * {@code tready} are high; once high, {@code tvalid} and the payload hold until the transfer.
 *
 * <p>Inside a design, keep using {@code Stream<PacketBeat>} (or any {@link AxiStreamPayload})
 * and join it to the edge in one line with {@link #connectFrom} or {@link #connectTo}.
 */
public final class AxiStream extends Bundle {
    public final Bool tvalid = bool();
    public final Bool tready = flipped(bool());
    public final Bits tdata;
    public final Bits tkeep;
    public final Bool tlast;
    /** Null when {@code userWidth} is 0 (no {@code tuser} port). */
    public final Bits tuser;
    private final int dataWidth;
    private final int userWidth;

    /**
     * @param dataWidth {@code tdata} bits, a positive multiple of 8
     * @param userWidth {@code tuser} bits, 0 for none
     */
    public AxiStream(int dataWidth, int userWidth) {
        require(dataWidth >= 8 && dataWidth % 8 == 0,
                "AxiStream dataWidth must be a positive multiple of 8, got " + dataWidth);
        require(userWidth >= 0, "AxiStream userWidth must be 0 (no tuser) or more, got " + userWidth);
        this.dataWidth = dataWidth;
        this.userWidth = userWidth;
        tdata = bits(dataWidth);
        tkeep = bits(dataWidth / 8);
        tlast = bool();
        tuser = userWidth == 0 ? null : bits(userWidth);
    }

    public int dataWidth() {
        return dataWidth;
    }

    public int userWidth() {
        return userWidth;
    }

    @Override
    public AxiStream copyType() {
        return new AxiStream(dataWidth, userWidth);
    }

    /**
     * Drives this interface (the sending side: a master port of the component being built) from
     * {@code source}: {@code tvalid} and the payload forward, {@code tready} back. Without a user
     * field in the payload, {@code tuser} is held 0.
     */
    public void connectFrom(Stream<? extends AxiStreamPayload> source) {
        AxiStreamPayload p = source.payload;
        checkShape(p, true);
        tvalid.set(source.valid);
        tdata.set(p.data());
        tkeep.set(p.keep());
        tlast.set(p.last());
        if (tuser != null) {
            if (p.user() == null) {
                tuser.set(0);
            } else {
                tuser.set(asBits(p.user()));
            }
        }
        source.ready.set(tready);
    }

    /**
     * Drives {@code sink} from this interface (the receiving side: a slave port of the component
     * being built): {@code tvalid} and the payload forward, {@code tready} back. {@code tuser}
     * and the payload's user field must both be there or both be absent, so no MAC flag is
     * dropped silently.
     */
    public void connectTo(Stream<? extends AxiStreamPayload> sink) {
        AxiStreamPayload p = sink.payload;
        checkShape(p, false);
        sink.valid.set(tvalid);
        p.data().set(tdata);
        p.keep().set(tkeep);
        p.last().set(tlast);
        if (tuser != null) {
            assignFromBits(p.user(), tuser);
        }
        tready.set(sink.ready);
    }

    private void checkShape(AxiStreamPayload p, boolean toAxi) {
        require(p.data().width() == dataWidth, "AxiStream: tdata is " + dataWidth + " bits, the stream's data "
                + p.data().width());
        require(p.keep().width() == dataWidth / 8, "AxiStream: tkeep is " + dataWidth / 8
                + " bits, the stream's keep " + p.keep().width());
        BaseType user = p.user();
        int payloadUser = user == null ? 0 : user.width();
        if (toAxi && user == null) {
            return; // tuser, if any, is held 0
        }
        require(payloadUser == userWidth, "AxiStream: tuser is " + userWidth + " bits, the stream's user field "
                + payloadUser + (toAxi ? "" : " (an AxiStream with tuser needs a payload with a user field: "
                + "tuser must not be dropped)"));
    }
}
