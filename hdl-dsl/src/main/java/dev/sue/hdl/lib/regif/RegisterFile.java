// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.regif;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.Counter;
import dev.sue.hdl.regmap.FieldSpec;
import dev.sue.hdl.regmap.RegisterBlockSpec;
import dev.sue.hdl.regmap.RegisterSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The registers of one block, declared once: each declaration makes the hardware (a register, a
 * strobe, a sticky bit, a port to a table in RAM) and the documentation entry, and {@link #build}
 * makes the address decode, the legality checks and the read-back behind the block's
 * {@link RegBus}, and returns the {@link RegisterBlockSpec} every export is made from. Used inside
 * the constructor of the component that owns the registers (as SpinalHDL's {@code BusIf}):
 * <pre>
 * RegisterFile regs = new RegisterFile("tx_rel", "Transmit reliability", bus);
 * UInt window = regs.rw("WINDOW", 0x20, 8, 64, 1, 128, "PDUs in flight per connection");
 * UInt drops = regs.counter("DROPS", 0x30, dropEvent, "PDUs dropped");
 * RegisterBlockSpec spec = regs.build();
 * </pre>
 *
 * <p>Semantics: a write to a read-only field, a field value outside its legal range, or a 1 in a
 * bit no field writes is <em>illegal</em>: nothing changes and the response is SLVERR (the bus
 * adapter counts those in one place). An address with no register answers DECERR. Reads of
 * write-only fields return 0.
 *
 * <p>Timing: the request is registered, then the decode, legality and the read data each take a
 * registered stage (3 cycles from request to response for registers, more for tables: the owner's
 * RAM answers when it can). Every stage is a compare of the registered address or data with
 * constants or an AND-OR over the registers' words: a few LUT levels whatever the count.
 */
public final class RegisterFile {
    /** A write-only field's strobe: {@code valid} for one cycle with the written {@code data}. */
    public record Strobe(Bool valid, UInt data) {
    }

    private final String name;
    private final String doc;
    private final RegBus bus;
    private final String prefix;
    private final List<Register> registers = new ArrayList<>();
    private final List<Table> tables = new ArrayList<>();
    private RegisterBlockSpec spec;

    /**
     * @param name block name (an identifier: the prefix of its registers in the exports and of
     *             the hardware names)
     * @param doc  one sentence for the documentation
     * @param bus  the block's register bus, a slave port or a wire of the component being built
     */
    public RegisterFile(String name, String doc, RegBus bus) {
        this.name = name;
        this.doc = doc;
        this.bus = bus;
        this.prefix = name.toLowerCase();
    }

    /** A register of several fields at word {@code offset}; declare them in bit order. */
    public Register register(String regName, long offset, String regDoc) {
        checkOpen();
        Register r = new Register(this, regName, offset, regDoc);
        registers.add(r);
        return r;
    }

    /** A register of one read-write field {@code value} with the legal range {@code min..max}. */
    public UInt rw(String regName, long offset, int width, long reset, long min, long max, String fieldDoc) {
        return register(regName, offset, fieldDoc).rw("value", width, reset, min, max, fieldDoc);
    }

    /** A register of one read-write field {@code value}, every value legal. */
    public UInt rw(String regName, long offset, int width, long reset, String fieldDoc) {
        return rw(regName, offset, width, reset, 0, (1L << width) - 1, fieldDoc);
    }

    /** A register of one read-only field {@code value} reading {@code value}. */
    public void ro(String regName, long offset, UInt value, String fieldDoc) {
        register(regName, offset, fieldDoc).ro("value", value, null, fieldDoc);
    }

    /** A read-only 32-bit saturating event counter (reset 0); returns its value. */
    public UInt counter(String regName, long offset, Bool event, String fieldDoc) {
        UInt count = Counter.saturating(prefix + "_" + regName.toLowerCase(), RegBus.DATA_BITS, event);
        register(regName, offset, fieldDoc).ro("count", count, 0L, fieldDoc);
        return count;
    }

    /** A table of {@code count} one-word entries held in the owner's RAM; declare its fields, then take its port. */
    public Table table(String regName, long offset, int count, String regDoc) {
        checkOpen();
        Table t = new Table(this, regName, offset, count, regDoc);
        tables.add(t);
        return t;
    }

    /** Builds the decode and read-back; returns the block's documentation. Call once, after every declaration. */
    public RegisterBlockSpec build() {
        checkOpen();
        List<RegisterSpec> specs = new ArrayList<>();
        for (Register r : registers) {
            specs.add(r.spec());
        }
        for (Table t : tables) {
            specs.add(t.spec());
        }
        try {
            spec = new RegisterBlockSpec(name, doc, bus.addrBits(), specs);
        } catch (IllegalArgumentException e) {
            require(false, e.getMessage());
        }
        new RegisterFileLogic(prefix, bus, registers, tables).build();
        return spec;
    }

    /** The documentation after {@link #build}. */
    public RegisterBlockSpec spec() {
        if (spec == null) {
            throw new IllegalStateException("register file " + name + " is not built yet");
        }
        return spec;
    }

    String prefix() {
        return prefix;
    }

    int addrBits() {
        return bus.addrBits();
    }

    private void checkOpen() {
        if (spec != null) {
            throw new IllegalStateException("register file " + name + " is already built");
        }
    }

    /**
     * A write of {@code data} (32 bits) to a register of layout {@code spec} is legal: a writable
     * register, no 1 outside its writable fields, every field in its legal range (the one policy
     * for illegal writes; also for blocks that check writes themselves).
     */
    public static Bool legalWrite(RegisterSpec spec, Bits data) {
        long writable = spec.writableMask();
        if (writable == 0) {
            return FALSE;
        }
        Bool ok = TRUE;
        long reserved = ~writable & FieldSpec.fullRange(RegBus.DATA_BITS);
        if (reserved != 0) {
            ok = data.and(B(reserved, RegBus.DATA_BITS)).eq(0);
        }
        for (FieldSpec f : spec.fields()) {
            if (!f.access().writable() || f.fullyLegal()) {
                continue;
            }
            UInt v = data.slice(f.msb(), f.lsb()).asUInt();
            if (f.min() > 0) {
                ok = ok.and(v.ge(f.min()));
            }
            if (f.max() < FieldSpec.fullRange(f.width())) {
                ok = ok.and(v.le(f.max()));
            }
        }
        return ok;
    }
}
