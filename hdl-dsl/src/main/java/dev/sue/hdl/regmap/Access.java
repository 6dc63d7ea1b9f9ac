// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.regmap;

/**
 * How software reaches a register field. Each kind maps to one SystemRDL {@code sw}/{@code hw}
 * pair and one hardware template in {@code lib.regif.RegisterFile}.
 */
public enum Access {
    /** Software writes and reads back; the hardware reads the value. */
    RW("rw", "sw = rw; hw = r;"),
    /** Software reads a value the hardware drives (state, a counter); a write is illegal. */
    RO("ro", "sw = r; hw = w;"),
    /** Software writes a command the hardware takes as a one-cycle strobe; reads return 0. */
    WO("wo", "sw = w; hw = r;"),
    /** Bits the hardware sets and software clears by writing 1 (interrupt causes, sticky errors). */
    W1C("w1c", "sw = rw; hw = w; hwset; onwrite = woclr;");

    private final String code;
    private final String rdl;

    Access(String code, String rdl) {
        this.code = code;
        this.rdl = rdl;
    }

    /** Lower-case name used in JSON, Markdown and the Python module ({@code "rw"}, ...). */
    public String code() {
        return code;
    }

    /** The SystemRDL field properties of this access. */
    public String systemRdl() {
        return rdl;
    }

    /** Software may write the field (WO, RW, W1C). */
    public boolean writable() {
        return this != RO;
    }

    /** Software reads the field's value (RO, RW, W1C); a WO field reads 0. */
    public boolean readable() {
        return this != WO;
    }
}
