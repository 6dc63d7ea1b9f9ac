// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.xpu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * One beat of the op stream from {@link XpuTxInterface} to the enqueue stage.
 *
 * <p>An op is one or more beats; {@code last} marks its final beat. The header fields
 * ({@code dest}, {@code vc}, {@code ctrlLen}, {@code dataLen}, {@code totalLen},
 * {@code control}) are valid and constant on every beat of the op. {@code data}/{@code keep}
 * carry the op's <em>data</em> bytes only, beat i holding data bytes {@code i*B .. i*B+B-1}
 * (B = dataWidth/8; byte 0 of a beat in {@code data[7:0]}), exactly as the XPU sent them on
 * {@code tx_data}; {@code keep} is all ones on every beat but the last, whose enabled bytes
 * run contiguously from byte 0. A command-only op is one beat with {@code keep == 0}.
 * The control bytes travel in {@code control} (byte k = {@code control[8k+7:8k]}, the first
 * {@code ctrlLen} bytes meaningful): on the wire the op is {@code control[0..ctrlLen-1]}
 * followed by the data bytes, padded to {@code totalLen}.
 *
 * <p><b>Commit/abort.</b> An op is committed at its {@code last} beat when {@code abort} is 0.
 * With {@code abort} = 1 (only ever on a {@code last} beat) the whole op must be discarded by
 * the receiver (its cells returned); the interface itself refunds that op's credits to the
 * XPU, so the receiver releases credits only for committed ops. An aborted op may end early
 * (its {@code last} beat is where the violation was seen), its last beat's keep is then
 * meaningless.
 *
 * <p>Field widths: dest 10, vc 2, ctrlLen 5 (2..18 bytes), dataLen 9 (0..256 bytes),
 * totalLen 9 (ctrlLen + dataLen rounded up to even, 2..274 bytes), control 144, data N,
 * keep N/8, last 1, abort 1.
 */
public final class XpuTxOp extends Bundle {
    public final UInt dest = uint(XpuTxBus.XPUID_BITS);
    public final UInt vc = uint(XpuTxBus.VC_BITS);
    public final UInt ctrlLen = uint(5);
    public final UInt dataLen = uint(9);
    public final UInt totalLen = uint(9);
    public final Bits control = bits(XpuTxBus.CONTROL_BITS);
    public final Bits data;
    public final Bits keep;
    public final Bool last = bool();
    public final Bool abort = bool();
    private final int dataWidth;

    public XpuTxOp(int dataWidth) {
        this.dataWidth = dataWidth;
        this.data = bits(dataWidth);
        this.keep = bits(dataWidth / 8);
    }

    public int dataWidth() {
        return dataWidth;
    }

    @Override
    public XpuTxOp copyType() {
        return new XpuTxOp(dataWidth);
    }
}
