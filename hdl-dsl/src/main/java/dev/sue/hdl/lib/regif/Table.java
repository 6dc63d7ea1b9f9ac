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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A table of one-word entries at consecutive word addresses whose storage is the owner's RAM
 * (per-destination settings, sequence numbers): the register file decodes the access and checks
 * legality, the owner performs it through the handshakes of this port. Declare the fields (in bit
 * order), then drive the owner's side:
 * <ul>
 * <li>write: {@link #wrValid} with {@link #wrIndex} and {@link #wrField} held until the owner
 *     raises {@link #wrReady} (it writes that cycle);
 * <li>read: {@link #rdValid} with {@link #rdIndex} held until {@link #rdReady}; the owner later
 *     raises {@link #rdRspValid} for one cycle with each {@link #rdField} driven.
 * </ul>
 * One access at a time. Fields are read-write (range-checked like registers), write-only (read
 * as 0) or read-only. A table with no writable field never writes ({@link #wrReady} is tied here);
 * one with no readable field answers reads itself with 0 (the read side is tied here): the owner
 * drives only the side it has.
 */
public final class Table {
    private final RegisterFile file;
    private final String name;
    private final long offset;
    private final int count;
    private final String doc;
    private final List<FieldSpec> fields = new ArrayList<>();
    private final Map<String, UInt> readFields = new LinkedHashMap<>();
    private int nextLsb;
    private boolean portMade;

    public Bool wrValid;
    public UInt wrIndex;
    public Bits wrData;
    public Bool wrReady;
    public Bool rdValid;
    public UInt rdIndex;
    public Bool rdReady;
    public Bool rdRspValid;

    Table(RegisterFile file, String name, long offset, int count, String doc) {
        this.file = file;
        this.name = name;
        this.offset = offset;
        this.count = count;
        this.doc = doc;
        require(count >= 2, "table " + name + " needs at least 2 entries, got " + count);
        long span = Long.highestOneBit(count - 1L) << 1;
        require(offset % span == 0, String.format("table %s of %d entries must start at a multiple of %d words, "
                + "got 0x%X", name, count, span, offset));
    }

    /** A read-write field with the legal range {@code min..max}. */
    public Table rw(String fieldName, int width, long min, long max, String fieldDoc) {
        return add(fieldName, width, Access.RW, min, max, fieldDoc);
    }

    /** A read-write field, every value legal. */
    public Table rw(String fieldName, int width, String fieldDoc) {
        return add(fieldName, width, Access.RW, 0, FieldSpec.fullRange(width), fieldDoc);
    }

    /** A write-only field: the owner takes written values, reads return 0 (the owner still answers reads). */
    public Table wo(String fieldName, int width, String fieldDoc) {
        return add(fieldName, width, Access.WO, 0, FieldSpec.fullRange(width), fieldDoc);
    }

    /** A read-only field. */
    public Table ro(String fieldName, int width, String fieldDoc) {
        return add(fieldName, width, Access.RO, 0, FieldSpec.fullRange(width), fieldDoc);
    }

    private Table add(String fieldName, int width, Access access, long min, long max, String fieldDoc) {
        require(!portMade, "table " + name + ": declare every field before using the port");
        try {
            fields.add(new FieldSpec(fieldName, nextLsb, width, access, null, min, max, fieldDoc));
        } catch (IllegalArgumentException e) {
            require(false, "table " + name + ": " + e.getMessage());
        }
        nextLsb += width;
        return this;
    }

    /** Makes the port's signals (wires of the component being built); call after the fields. */
    public Table port() {
        require(!fields.isEmpty(), "table " + name + " has no field");
        require(!portMade, "table " + name + ": port() called twice");
        portMade = true;
        String p = file.prefix() + "_" + name.toLowerCase();
        int indexBits = Math.max(1, bitsFor(count - 1L));
        wrValid = wire(p + "_wr_valid", bool());
        wrIndex = wire(p + "_wr_index", uint(indexBits));
        wrData = wire(p + "_wr_data", bits(RegisterSpec.WORD_BITS));
        wrReady = wire(p + "_wr_ready", bool());
        rdValid = wire(p + "_rd_valid", bool());
        rdIndex = wire(p + "_rd_index", uint(indexBits));
        rdReady = wire(p + "_rd_ready", bool());
        rdRspValid = wire(p + "_rd_rsp_valid", bool());
        boolean readable = false;
        boolean writable = false;
        for (FieldSpec f : fields) {
            readable |= f.access().readable();
            writable |= f.access().writable();
            if (f.access().readable()) {
                readFields.put(f.name(), wire(p + "_rd_" + f.name().toLowerCase(), uint(f.width())));
            }
        }
        // A side nothing can use is answered here, so the owner connects only the other one.
        if (!writable) {
            wrReady.set(TRUE);
        }
        if (!readable) {
            rdReady.set(TRUE);
            Bool answered = reg(p + "_rd_zero", bool()).init(false);
            answered.set(rdValid);
            rdRspValid.set(answered);
        }
        return this;
    }

    /** The written value of a field (valid with {@link #wrValid}). */
    public UInt wrField(String fieldName) {
        FieldSpec f = find(fieldName);
        return wrData.slice(f.msb(), f.lsb()).asUInt();
    }

    /** The owner drives a readable field's value here (sampled with {@link #rdRspValid}). */
    public UInt rdField(String fieldName) {
        FieldSpec f = find(fieldName);
        require(f.access().readable(), "table " + name + ": field " + fieldName + " is write-only, it reads 0");
        return readFields.get(fieldName);
    }

    private FieldSpec find(String fieldName) {
        require(portMade, "table " + name + ": call port() first");
        for (FieldSpec f : fields) {
            if (f.name().equals(fieldName)) {
                return f;
            }
        }
        require(false, "table " + name + " has no field " + fieldName);
        return null;
    }

    /** The read word assembled from the owner's field values. */
    Bits readWord() {
        Bits word = B(0, RegisterSpec.WORD_BITS);
        for (FieldSpec f : fields) {
            if (!f.access().readable()) {
                continue;
            }
            UInt v = readFields.get(f.name());
            word = word.or(v.resize(RegisterSpec.WORD_BITS).shl(f.lsb()).asBits());
        }
        return word;
    }

    String name() {
        return name;
    }

    long offset() {
        return offset;
    }

    int count() {
        return count;
    }

    boolean portMade() {
        return portMade;
    }

    RegisterSpec spec() {
        try {
            return new RegisterSpec(name, offset, count, doc, fields);
        } catch (IllegalArgumentException e) {
            require(false, e.getMessage());
            return null;
        }
    }
}
