// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import dev.sue.rtl.encap.Encapsulation;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Parameters that several SUE tops share, declared once so that their names, ranges and
 * descriptions cannot drift apart between tops.
 */
final class SueParams {
    private SueParams() {
    }

    /** {@code dataWidth}: one of the SUE bus widths, 256, 512 or 1024 bits. */
    static ParamSpec dataWidth(String description, long defaultValue) {
        return ParamSpec.oneOf("dataWidth", description, defaultValue, 256L, 512L, 1024L);
    }

    /**
     * {@code dataWidth} of a MAC-side block (framing, control frames): the SUE widths and the
     * narrower MAC buses 64 and 128 bits.
     */
    static ParamSpec macDataWidth(long defaultValue) {
        return ParamSpec.oneOf("dataWidth", "MAC-side bus width in bits", defaultValue, 64L, 128L, 256L, 512L, 1024L);
    }

    /** {@code encap}: the network encapsulation by its code (default STD_IPV4); the description lists them. */
    static ParamSpec encap() {
        Encapsulation[] all = Encapsulation.values();
        String codes = Arrays.stream(all).map(e -> e.code() + " " + e.name()).collect(Collectors.joining(", "));
        return ParamSpec.integer("encap", "encapsulation: " + codes, Encapsulation.STD_IPV4.code(), 0,
                all.length - 1);
    }

    /** {@code vlan}: an 802.1Q tag in every frame (valid with the encapsulations that allow one). */
    static ParamSpec vlan(String description, boolean defaultValue) {
        return ParamSpec.flag("vlan", description + " (encap 0..3 only)", defaultValue);
    }

    /** The encapsulation chosen by {@link #encap()}. */
    static Encapsulation encap(ParamValues v) {
        return Encapsulation.ofCode(v.integer("encap"));
    }
}
