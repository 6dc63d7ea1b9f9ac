// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.UInt;
import dev.sue.rtl.xpu.XpuTxBus;

/**
 * The SUE ops that carry AXI4 transactions between two bridges ({@link AxiXpuBridge}): their
 * command types, VCs and command-table entries, the one source of these constants. Requests travel
 * on VC 0 and responses on VC 1 (spec 3.2.2), so a full request VC never blocks the responses that
 * drain it. Both ends' command tables must hold {@link #tableEntry} for each type.
 */
public final class AxiOps {
    /** Write request: control {@link AxiReqControl}, data the burst's W beats. VC 0. */
    public static final int TYPE_WRITE = 0xA0;
    /** Read request: control {@link AxiReqControl} without the strobe bytes. VC 0, no data. */
    public static final int TYPE_READ = 0xA1;
    /** Write response: control {@link AxiRspControl} (BID, BRESP). VC 1, no data. */
    public static final int TYPE_B = 0xA2;
    /** Read response: control {@link AxiRspControl} (RID, RRESP per beat), data the R beats. VC 1. */
    public static final int TYPE_R = 0xA3;

    /** The VC of requests (AW+W, AR) and of responses (B, R). */
    public static final int REQUEST_VC = 0;
    public static final int RESPONSE_VC = 1;

    /** Data bytes one op carries at most: a burst of at most 256 data bytes (spec Table 1). */
    public static final int MAX_BURST_BYTES = XpuTxBus.MAX_DATA_BYTES;

    private AxiOps() {
    }

    /** Control units (2 bytes each) of an op type, as the command table takes them. */
    public static int units(int type) {
        return switch (type) {
            case TYPE_WRITE -> 9;
            case TYPE_READ -> 8;
            case TYPE_B, TYPE_R -> 3;
            default -> throw new IllegalArgumentException("not an AXI op type: " + type);
        };
    }

    /** Whether an op type carries data. */
    public static boolean dataPresent(int type) {
        return type == TYPE_WRITE || type == TYPE_R;
    }

    /** The command-table word ({@code cfg_data} of {@code 0x0100 + type}): {data_present, units[3:0]}. */
    public static int tableEntry(int type) {
        return (dataPresent(type) ? 1 << 4 : 0) | units(type);
    }

    /** Beats of a burst of {@link #MAX_BURST_BYTES} on a bus of {@code dataWidth} bits. */
    public static int maxBeats(int dataWidth) {
        return Math.max(1, MAX_BURST_BYTES / (dataWidth / 8));
    }

    /**
     * Control byte 1 of a data op, data length - 1, for a burst whose last beat has index
     * {@code lastBeat}: whole bus beats ({@code (lastBeat + 1) * B - 1}).
     */
    static UInt dataLenM1(UInt lastBeat, int dataWidth) {
        int byteBits = log2Up(dataWidth / 8);
        Bits len = cat(lastBeat, B((1L << byteBits) - 1, byteBits));
        return len.width() >= 8 ? len.slice(7, 0).asUInt() : len.asUInt().resize(8);
    }

    /** The index of the last beat of a data op, from its control byte 1. */
    static UInt lastBeat(UInt dataLenM1, int dataWidth, int beatBits) {
        int byteBits = log2Up(dataWidth / 8);
        return dataLenM1.shr(Math.min(byteBits, 7)).resize(beatBits);
    }
}
