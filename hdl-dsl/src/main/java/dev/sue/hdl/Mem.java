package dev.sue.hdl;

import dev.sue.hdl.ir.MemPorts;
import dev.sue.hdl.ir.MemoryIr;
import dev.sue.hdl.ir.Node;
import dev.sue.hdl.ir.Signal;
import dev.sue.hdl.ir.SignalKind;

/**
 * A memory of {@code depth} words of {@code width} bits, emitted as the template that
 * Verilator, Yosys and FPGA tools infer as RAM. Ports use the clock domain current where
 * they are created; ports created inside {@code when} blocks are enabled only there.
 */
public final class Mem {
    private final MemoryIr ir;

    private Mem(MemoryIr ir) {
        this.ir = ir;
    }

    public static Mem of(int depth, int width) {
        Elaboration e = Elaboration.current();
        if (depth < 2 || width < 1) {
            e.error("a memory needs depth >= 2 and width >= 1, got depth " + depth + ", width " + width);
            throw new HdlAbort();
        }
        MemoryIr m = new MemoryIr(e.component(), width, depth, Location.here());
        e.component().ir().addMemory(m);
        return new Mem(m);
    }

    public Mem named(String name) {
        ir.setName(name);
        return this;
    }

    public int depth() {
        return ir.depth();
    }

    public int width() {
        return ir.width();
    }

    public int addressWidth() {
        return ir.addressWidth();
    }

    /** Writes {@code data} at {@code address} on the clock edge when {@code enable}. */
    public void write(UInt address, Bits data, Bool enable) {
        addWrite(address, data, enable, null);
    }

    /** Byte-lane write: lane i ({@code data[8i+7:8i]}) is written when {@code byteEnable[i]}. */
    public void write(UInt address, Bits data, Bool enable, Bits byteEnable) {
        if (ir.width() % 8 != 0) {
            Elaboration.current().error("byte enables need a width that is a multiple of 8, this memory is "
                    + ir.width() + " bits wide");
        } else if (byteEnable.width() != ir.width() / 8) {
            Elaboration.current().error("byte enable must be " + ir.width() / 8 + " bit(s) wide, got " + byteEnable.width());
        }
        addWrite(address, data, enable, byteEnable);
    }

    private void addWrite(UInt address, Bits data, Bool enable, Bits byteEnable) {
        Elaboration e = Elaboration.current();
        checkAddress(address);
        if (data.width() != ir.width()) {
            e.error("write data must be " + ir.width() + " bit(s) wide, got " + data.width());
        }
        Node en = Hdl.guarded(enable).node();
        ir.addWrite(new MemPorts.Write(e.frame().domain, address.node(), data.node(), en,
                byteEnable == null ? null : byteEnable.node(), Location.here()));
    }

    /** Registered read: the data appears one cycle after {@code enable}, and holds otherwise. */
    public Bits readSync(UInt address, Bool enable) {
        Elaboration e = Elaboration.current();
        checkAddress(address);
        Signal data = new Signal(SignalKind.MEM_DATA, ir.width(), e.newNodeId(), e.component(), Location.here());
        data.setDomain(e.frame().domain);
        e.component().ir().addSignal(data);
        ir.addRead(new MemPorts.Read(e.frame().domain, address.node(), Hdl.guarded(enable).node(), data,
                data.location()));
        return new Bits(data);
    }

    public Bits readSync(UInt address) {
        return readSync(address, Hdl.TRUE);
    }

    /** Combinational read (distributed RAM / register file). */
    public Bits readAsync(UInt address) {
        Elaboration e = Elaboration.current();
        checkAddress(address);
        Signal data = new Signal(SignalKind.MEM_DATA, ir.width(), e.newNodeId(), e.component(), Location.here());
        e.component().ir().addSignal(data);
        ir.addRead(new MemPorts.Read(null, address.node(), null, data, data.location()));
        return new Bits(data);
    }

    private void checkAddress(UInt address) {
        if (address.width() != ir.addressWidth()) {
            Elaboration.current().error("address of a " + ir.depth() + "-word memory must be " + ir.addressWidth()
                    + " bit(s) wide, got " + address.width());
        }
    }

    MemoryIr ir() {
        return ir;
    }
}
