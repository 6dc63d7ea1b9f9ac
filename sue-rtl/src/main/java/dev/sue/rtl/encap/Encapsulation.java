// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

/**
 * The network encapsulations of ARCHITECTURE.md §5, one per {@link SueHeaderBuilder} instance.
 * Header lengths are without / with the optional 802.1Q tag (the tag is allowed only where
 * {@link #vlanAllowed()}).
 */
public enum Encapsulation {
    /** Ethernet II [+ 802.1Q] + IPv4 (20 B, DF, header checksum) + UDP: 42 / 46 bytes. */
    STD_IPV4(0, 42, true),
    /** Ethernet II [+ 802.1Q] + IPv6 (40 B, flow label = entropy) + UDP: 62 / 66 bytes. */
    STD_IPV6(1, 62, true),
    /** AFH Gen 1 without shim: DA/SA = {prefix, xpuid16} [+ 802.1Q], EtherType 0x88B5: 14 / 18 bytes. */
    AFH1(2, 14, true),
    /** AFH Gen 1 with shim: EtherType 0x88B6, 8-byte shim, next EtherType 0x88B5: 22 / 26 bytes. */
    AFH1_SHIM(3, 22, true),
    /** AFH Gen 2 normal form (W=0): 12-byte fabric header + EtherType 0x88B5: 14 bytes. */
    AFH2_NORMAL(4, 14, false),
    /** AFH Gen 2 compressed form (W=1): 6-byte fabric header + EtherType 0x88B5: 8 bytes. */
    AFH2_COMPRESSED(5, 8, false);

    private final int code;
    private final int baseBytes;
    private final boolean vlanAllowed;

    Encapsulation(int code, int baseBytes, boolean vlanAllowed) {
        this.code = code;
        this.baseBytes = baseBytes;
        this.vlanAllowed = vlanAllowed;
    }

    /** The generator parameter value ({@code encap=N}). */
    public int code() {
        return code;
    }

    public boolean vlanAllowed() {
        return vlanAllowed;
    }

    public boolean standard() {
        return this == STD_IPV4 || this == STD_IPV6;
    }

    /** Header length in bytes for this encapsulation. */
    public int headerBytes(boolean vlan) {
        return baseBytes + (vlan ? 4 : 0);
    }

    /** The encapsulation with generator code {@code code}; the message names the valid codes. */
    public static Encapsulation ofCode(int code) {
        for (Encapsulation e : values()) {
            if (e.code == code) {
                return e;
            }
        }
        throw new IllegalArgumentException("encapsulation code must be 0..5 (0 STD_IPV4, 1 STD_IPV6, 2 AFH1, "
                + "3 AFH1_SHIM, 4 AFH2_NORMAL, 5 AFH2_COMPRESSED), got " + code);
    }
}
