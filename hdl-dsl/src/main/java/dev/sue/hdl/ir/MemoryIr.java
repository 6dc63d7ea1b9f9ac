// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import dev.sue.hdl.Component;
import dev.sue.hdl.Location;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** A memory array with its ports; emitted as the RAM template tools infer. */
public final class MemoryIr {
    private final Component owner;
    private final int width;
    private final int depth;
    private final Location location;
    private final List<MemPorts.Write> writes = new ArrayList<>();
    private final List<MemPorts.Read> reads = new ArrayList<>();
    private String name;

    public MemoryIr(Component owner, int width, int depth, Location location) {
        this.owner = owner;
        this.width = width;
        this.depth = depth;
        this.location = location;
    }

    public Component owner() {
        return owner;
    }

    public int width() {
        return width;
    }

    public int depth() {
        return depth;
    }

    public int addressWidth() {
        return Math.max(1, 32 - Integer.numberOfLeadingZeros(depth - 1));
    }

    public Location location() {
        return location;
    }

    public String name() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public List<MemPorts.Write> writes() {
        return Collections.unmodifiableList(writes);
    }

    public List<MemPorts.Read> reads() {
        return Collections.unmodifiableList(reads);
    }

    public void addWrite(MemPorts.Write w) {
        writes.add(w);
    }

    public void addRead(MemPorts.Read r) {
        reads.add(r);
    }
}
