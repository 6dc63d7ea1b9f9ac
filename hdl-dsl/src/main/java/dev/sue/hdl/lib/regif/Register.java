// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.regif;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.regmap.Access;
import dev.sue.hdl.regmap.FieldSpec;
import dev.sue.hdl.regmap.RegisterSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * One register word of a {@link RegisterFile}, its fields declared in bit order from bit 0
 * ({@link #skip} leaves reserved bits). Each declaration returns the field's hardware.
 */
public final class Register {
    /** A field and what the register file's logic needs of it. */
    record FieldHw(FieldSpec spec, UInt readValue, UInt rwRegister, UInt sticky, Bits setBits, Bool strobe, UInt strobeData) {
    }

    private final RegisterFile file;
    private final String name;
    private final long offset;
    private final String doc;
    private final List<FieldHw> fields = new ArrayList<>();
    private int nextLsb;

    Register(RegisterFile file, String name, long offset, String doc) {
        this.file = file;
        this.name = name;
        this.offset = offset;
        this.doc = doc;
    }

    /** Leaves {@code bits} reserved bits (read 0, a written 1 is illegal). */
    public Register skip(int bits) {
        require(bits >= 1, "register " + name + ": skip at least one bit, got " + bits);
        nextLsb += bits;
        return this;
    }

    /** A read-write field with the legal range {@code min..max}; returns its register (reset {@code reset}). */
    public UInt rw(String fieldName, int width, long reset, long min, long max, String fieldDoc) {
        FieldSpec f = field(fieldName, width, Access.RW, reset, min, max, fieldDoc);
        UInt value = reg(hwName(fieldName), uint(width)).init(reset);
        fields.add(new FieldHw(f, value, value, null, null, null, null));
        return value;
    }

    /** A read-write field, every value legal. */
    public UInt rw(String fieldName, int width, long reset, String fieldDoc) {
        return rw(fieldName, width, reset, 0, FieldSpec.fullRange(width), fieldDoc);
    }

    /** A read-only field reading {@code value}; {@code reset} is its value after reset when known (else null). */
    public void ro(String fieldName, UInt value, Long reset, String fieldDoc) {
        FieldSpec f = field(fieldName, value.width(), Access.RO, reset, 0, FieldSpec.fullRange(value.width()), fieldDoc);
        fields.add(new FieldHw(f, value, null, null, null, null, null));
    }

    /** A write-only field: a one-cycle strobe with the written value when software writes it legally. */
    public RegisterFile.Strobe wo(String fieldName, int width, String fieldDoc) {
        return wo(fieldName, width, 0, FieldSpec.fullRange(width), fieldDoc);
    }

    /** A write-only field whose legal values are {@code min..max} (others: SLVERR, no strobe). */
    public RegisterFile.Strobe wo(String fieldName, int width, long min, long max, String fieldDoc) {
        FieldSpec f = field(fieldName, width, Access.WO, null, min, max, fieldDoc);
        Bool strobe = wire(hwName(fieldName) + "_strobe", bool());
        UInt data = wire(hwName(fieldName) + "_data", uint(width));
        fields.add(new FieldHw(f, null, null, null, null, strobe, data));
        return new RegisterFile.Strobe(strobe, data);
    }

    /**
     * Sticky bits, one per bit of {@code set}: a bit goes to 1 in the cycle after {@code set} has
     * it and stays until software writes 1 to it (a set in the same cycle wins). Returns them.
     */
    public UInt w1c(String fieldName, Bits set, String fieldDoc) {
        FieldSpec f = field(fieldName, set.width(), Access.W1C, 0L, 0, FieldSpec.fullRange(set.width()), fieldDoc);
        UInt sticky = reg(hwName(fieldName), uint(set.width())).init(0);
        fields.add(new FieldHw(f, sticky, null, sticky, set, null, null));
        return sticky;
    }

    private FieldSpec field(String fieldName, int width, Access access, Long reset, long min, long max, String fieldDoc) {
        FieldSpec f = null;
        try {
            f = new FieldSpec(fieldName, nextLsb, width, access, reset, min, max, fieldDoc);
        } catch (IllegalArgumentException e) {
            require(false, "register " + name + ": " + e.getMessage());
        }
        nextLsb += width;
        return f;
    }

    private String hwName(String fieldName) {
        return file.prefix() + "_" + name.toLowerCase() + "_" + fieldName.toLowerCase();
    }

    String name() {
        return name;
    }

    long offset() {
        return offset;
    }

    List<FieldHw> fields() {
        return fields;
    }

    RegisterSpec spec() {
        List<FieldSpec> specs = new ArrayList<>();
        for (FieldHw f : fields) {
            specs.add(f.spec());
        }
        try {
            return new RegisterSpec(name, offset, 1, doc, specs);
        } catch (IllegalArgumentException e) {
            require(false, e.getMessage());
            return null;
        }
    }
}
