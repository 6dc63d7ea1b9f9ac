// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.xpu;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.UInt;

/**
 * Credits given back by the buffer behind {@link XpuTxInterface} (the queue manager) once it
 * frees space: {@code count} credits of {@code kind} ({@code false} = command credit, one per
 * op; {@code true} = data credit, one per {@code tx_data} beat) for virtual channel {@code vc}.
 * Carried in a {@code Flow} (no back-pressure): {@code release_valid}, {@code release_vc},
 * {@code release_kind}, {@code release_count}.
 */
public final class CreditRelease extends Bundle {
    public final UInt vc = uint(2);
    public final Bool kind = bool();
    public final UInt count;
    private final int countWidth;

    public CreditRelease(int countWidth) {
        this.countWidth = countWidth;
        this.count = uint(countWidth);
    }

    @Override
    public CreditRelease copyType() {
        return new CreditRelease(countWidth);
    }
}
