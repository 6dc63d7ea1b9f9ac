// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

/**
 * The byte geometry of {@link SueFramer}'s frames at one bus width and header size, computed once
 * so every stage derives its lane and beat arithmetic from the same numbers: the prefix (network
 * header + RH) of {@link #c} bytes fills {@link #q} whole beats and {@link #r} lanes of the next,
 * where the PDU's first byte lands.
 */
final class FrameGeometry {
    final int dataWidth;
    /** Bytes per beat. */
    final int n;
    /** log2 of {@link #n}. */
    final int lg;
    /** Network header bytes. */
    final int hBytes;
    /** Prefix bytes: network header + RH. */
    final int c;
    /** Whole beats of prefix. */
    final int q;
    /** Prefix bytes in the beat where the PDU starts (the PDU's lane offset). */
    final int r;
    /**
     * One-beat frames ({@code c + body <= n}) get their R-CRC from a CrcWindow over RH || the
     * first {@link #wd} data bytes, so they need not wait for the appender's engine.
     */
    final boolean fastPath;
    /** Data bytes a one-beat frame can hold. */
    final int wd;
    /** Width of an entry's trail count (window bytes after the covered ones). */
    final int tw;

    /** A multi-port plane's framer: each frame carries its connection's route ({@link ConnRoute}). */
    final boolean routed;

    FrameGeometry(int dataWidth, Encapsulation encap, boolean vlan, boolean routed) {
        this.routed = routed;
        this.dataWidth = dataWidth;
        n = dataWidth / 8;
        lg = log2Up(n);
        hBytes = encap.headerBytes(vlan);
        c = hBytes + 8;
        q = c / n;
        r = c % n;
        fastPath = c < n;
        wd = n - c;
        tw = fastPath ? Math.max(1, bitsFor(wd)) : 1;
    }

    /** A header-queue entry of this geometry. */
    SueFramer.Entry entry() {
        return new SueFramer.Entry(c, n, tw, routed);
    }
}
