// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl;

import dev.sue.hdl.ir.Assign;
import dev.sue.hdl.ir.MemPorts;
import dev.sue.hdl.ir.MemoryIr;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.OpKind;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;
import java.util.List;
import java.util.function.Supplier;

/**
 * A memory of {@code depth} words of hardware type {@code T}, emitted as the template that
 * Verilator, Yosys and FPGA tools infer as RAM.
 *
 * <p>The word type is any hardware type: a leaf ({@code Mem.of(64, uint(16))}, or
 * {@code Mem.of(64, 16)} for {@code Bits}), a {@link Bundle} or a {@link Vec}. A word is stored
 * as {@code asBits(word)} (first field at the most significant end); reads return a {@code T}
 * whose fields are read by name. In the SystemVerilog a read of a composite word is the
 * port's data vector ({@code <mem>_rdata...}) plus one wire per field, named after the read
 * value ({@code <value>_<field>}, by default {@code <mem>_rdata..._<field>}).
 *
 * <p>Ports use the clock domain current where they are created; ports created inside
 * {@code when} blocks are enabled only there. All writes of one memory must be in one clock
 * domain: they are emitted in one {@code always_ff} in the order they were described, so when
 * two writes hit the same word on the same edge, the one described <em>later</em> wins.
 *
 * @param <T> word type
 */
public final class Mem<T extends Data> {
    private final MemoryIr ir;
    private final Supplier<T> freshWord;
    private final T prototype;

    private Mem(MemoryIr ir, T prototype, Supplier<T> freshWord) {
        this.ir = ir;
        this.prototype = prototype;
        this.freshWord = freshWord;
    }

    /** A memory of {@code depth} words of {@code width} untyped bits. */
    public static Mem<Bits> of(int depth, int width) {
        if (depth < 2 || width < 1) {
            Elaboration.current().error("a memory needs depth >= 2 and width >= 1, got depth " + depth + ", width " + width);
            throw new HdlAbort();
        }
        return create(depth, new Bits(width), () -> new Bits(width));
    }

    /**
     * A memory of {@code depth} words of {@code type}: a fresh type such as {@code uint(12)},
     * {@code new Entry()} or {@code Vec.of(4, i -> bits(8))}, never hardware. Further words of
     * its shape (read values) are made with {@link Data#copyType()}, which bundles with
     * constructor parameters must override; {@link #ofFactory(int, Supplier)} avoids that.
     */
    @SuppressWarnings("unchecked")
    public static <T extends Data> Mem<T> of(int depth, T type) {
        if (type == null) {
            Elaboration.current().error("the word type of a memory is null");
            throw new HdlAbort();
        }
        return create(depth, type, () -> (T) type.copyType());
    }

    /**
     * A memory of {@code depth} words made by {@code type} (called for the prototype and once per
     * composite read), e.g. {@code () -> new Entry(w)}: the form for the library blocks that take
     * their payload type as a supplier, and for bundles without {@code copyType()}.
     */
    public static <T extends Data> Mem<T> ofFactory(int depth, Supplier<T> type) {
        T prototype = type == null ? null : type.get();
        if (prototype == null) {
            Elaboration.current().error("the word type of a memory is null");
            throw new HdlAbort();
        }
        return create(depth, prototype, type);
    }

    private static <T extends Data> Mem<T> create(int depth, T prototype, Supplier<T> freshWord) {
        Elaboration e = Elaboration.current();
        if (depth < 2) {
            e.error("a memory needs depth >= 2, got depth " + depth + " (a single word is a register: use reg())");
            throw new HdlAbort();
        }
        if (isHardware(prototype)) {
            e.error("the word type of a memory must be a fresh type (bits(8), new Entry(), ...), but this "
                    + describe(prototype) + " is already hardware (a port, wire, register or expression)");
            throw new HdlAbort();
        }
        int width = prototype.bitWidth();
        if (width < 1) {
            e.error("the word type " + describe(prototype) + " of a memory has no bits");
            throw new HdlAbort();
        }
        MemoryIr m = new MemoryIr(e.component(), width, depth, Location.here());
        e.component().ir().addMemory(m);
        return new Mem<>(m, prototype, freshWord);
    }

    public Mem<T> named(String name) {
        ir.setName(name);
        return this;
    }

    public int depth() {
        return ir.depth();
    }

    /** Bits per word ({@code asBits(word).width()}). */
    public int width() {
        return ir.width();
    }

    public int addressWidth() {
        return ir.addressWidth();
    }

    /** Writes {@code value} at {@code address} on the clock edge when {@code enable}. */
    public void write(UInt address, T value, Bool enable) {
        addWrite(address, value, enable, null);
    }

    /**
     * Byte-lane write (words of a multiple of 8 bits): lane i, bits {@code [8i+7:8i]} of
     * {@code asBits(value)}, is written when {@code byteEnable[i]}. For a bundle the lanes count
     * from the least significant end of its last field.
     */
    public void write(UInt address, T value, Bool enable, Bits byteEnable) {
        if (ir.width() % 8 != 0) {
            Elaboration.current().error("byte enables need a width that is a multiple of 8, this memory is "
                    + ir.width() + " bits wide");
        } else if (byteEnable.width() != ir.width() / 8) {
            Elaboration.current().error("byte enable must be " + ir.width() / 8 + " bit(s) wide, got " + byteEnable.width());
        }
        addWrite(address, value, enable, byteEnable);
    }

    private void addWrite(UInt address, T value, Bool enable, Bits byteEnable) {
        Elaboration e = Elaboration.current();
        checkAddress(address);
        String problem = value == null ? "the value is null" : shapeProblem(prototype, value, "value");
        if (problem != null) {
            e.error("write to a memory of " + describe(prototype) + ": " + problem);
            return;
        }
        if (!isHardware(value)) {
            e.error("write to a memory of " + describe(prototype) + ": the value is a type, not hardware; "
                    + "write a port, wire, register or expression");
            return;
        }
        ClockDomain domain = e.frame().domain;
        Location here = Location.here();
        for (MemPorts.Write other : ir.writes()) {
            if (other.domain() != domain) {
                e.error(here, "this memory (declared at " + ir.location() + ") is written in " + other.domain()
                        + " at " + other.location() + " and here in " + domain + "; a memory's writes must share "
                        + "one clock domain (a true dual-clock RAM needs its own template: write in one domain and "
                        + "cross with an AsyncStreamFifo or a synchroniser)");
                return;
            }
        }
        Node en = Hdl.guarded(enable).node();
        ir.addWrite(new MemPorts.Write(domain, address.node(), Hdl.asBits(value).node(), en,
                byteEnable == null ? null : byteEnable.node(), here));
    }

    /** Registered read: the word appears one cycle after {@code enable}, and holds otherwise. */
    public T readSync(UInt address, Bool enable) {
        Elaboration e = Elaboration.current();
        checkAddress(address);
        Signal data = new Signal(SignalKind.MEM_DATA, ir.width(), e.newNodeId(), e.component(), Location.here());
        data.setDomain(e.frame().domain);
        e.component().ir().addSignal(data);
        ir.addRead(new MemPorts.Read(e.frame().domain, address.node(), Hdl.guarded(enable).node(), data,
                data.location()));
        return word(data);
    }

    public T readSync(UInt address) {
        return readSync(address, Hdl.TRUE);
    }

    /** Combinational read (distributed RAM / register file). */
    public T readAsync(UInt address) {
        Elaboration e = Elaboration.current();
        checkAddress(address);
        Signal data = new Signal(SignalKind.MEM_DATA, ir.width(), e.newNodeId(), e.component(), Location.here());
        e.component().ir().addSignal(data);
        ir.addRead(new MemPorts.Read(null, address.node(), null, data, data.location()));
        return word(data);
    }

    /**
     * The read data as a {@code T}: a leaf wraps the port's data signal; a composite is a wire
     * tree named after it, each field driven (unconditionally, whatever {@code when} encloses the
     * read) by its slice of the data.
     */
    @SuppressWarnings("unchecked")
    private T word(Signal data) {
        if (prototype instanceof BaseType leaf) {
            return (T) leaf.wrapSame(data);
        }
        Elaboration e = Elaboration.current();
        T word = freshWord.get();
        String problem = word == null ? "the type supplier returned null" : shapeProblem(prototype, word, "new word");
        if (problem != null) {
            e.error("reading a memory of " + describe(prototype) + ": " + problem);
            throw new HdlAbort();
        }
        Location here = data.location();
        word.bind(SignalKind.WIRE, false, here);
        e.declared(e.component(), word);
        word.nameAfter(new Bits(data), "");
        int hi = ir.width() - 1;
        for (BaseType leaf : word.leaves()) {
            int lo = hi - leaf.width() + 1;
            Node slice = Ops.op(OpKind.SLICE, leaf.width(), hi, lo, data);
            e.component().ir().body().add(new Assign(leaf.signal(), slice, here));
            hi = lo - 1;
        }
        return word;
    }

    private void checkAddress(UInt address) {
        if (address.width() != ir.addressWidth()) {
            Elaboration.current().error("address of a " + ir.depth() + "-word memory must be " + ir.addressWidth()
                    + " bit(s) wide, got " + address.width());
        }
    }

    private static boolean isHardware(Data d) {
        for (BaseType leaf : d.leaves()) {
            if (leaf.isHardware()) {
                return true;
            }
        }
        return false;
    }

    /** Why {@code got} does not have the shape of {@code expected} (class, fields, widths), or null. */
    private static String shapeProblem(Data expected, Data got, String path) {
        if (expected.getClass() != got.getClass()) {
            return path + " is " + describe(got) + ", the word is " + describe(expected);
        }
        if (expected instanceof BaseType a) {
            BaseType b = (BaseType) got;
            return a.width() == b.width() ? null
                    : path + " is " + b.typeName() + ", the word needs " + a.typeName();
        }
        List<Data.Member> a = expected.members();
        List<Data.Member> b = got.members();
        if (a.size() != b.size()) {
            return path + " has " + b.size() + " field(s), the word has " + a.size();
        }
        for (int i = 0; i < a.size(); i++) {
            String name = a.get(i).name().isEmpty() ? path : path + "." + a.get(i).name();
            String p = shapeProblem(a.get(i).data(), b.get(i).data(), name);
            if (p != null) {
                return p;
            }
        }
        return null;
    }

    private static String describe(Data d) {
        return d instanceof BaseType b ? b.typeName() : d.getClass().getSimpleName() + " (" + d.bitWidth() + " bits)";
    }

    MemoryIr ir() {
        return ir;
    }
}
