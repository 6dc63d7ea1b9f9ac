// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.ir;

import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.Location;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything elaboration recorded about one component instance. Kept apart from
 * {@link Component} so user subclasses keep a clean namespace.
 */
public final class ComponentIr {
    /** Clock, reset and clock-enable inputs through which a clock domain reaches a component. */
    public record DomainPorts(Signal clock, Signal reset, Signal enable) {
    }

    private final Component component;
    private final Component parent;
    private final Location location;
    private final List<Signal> signals = new ArrayList<>();
    private final List<Signal> ports = new ArrayList<>();
    private final List<Op> namedOps = new ArrayList<>();
    private final Map<Op, Location> namedOpLocations = new java.util.IdentityHashMap<>();
    private final Block body = new Block();
    private final List<Component> children = new ArrayList<>();
    private final List<MemoryIr> memories = new ArrayList<>();
    private final List<Assertion> assertions = new ArrayList<>();
    private final Map<String, Object> parameters = new LinkedHashMap<>();
    private final List<RegisterEntry> registerMap = new ArrayList<>();
    private dev.sue.hdl.regmap.RegisterMap exportedMap;
    private final Map<ClockDomain, DomainPorts> domainPorts = new LinkedHashMap<>();
    private String instanceName;
    private boolean instanceNameExplicit;
    private boolean clockCrossingAllowed;
    private Integer latency;
    private String blackBoxModule;
    private Map<String, Object> blackBoxParameters = Map.of();
    private String blackBoxSource;

    public ComponentIr(Component component, Component parent, Location location) {
        this.component = component;
        this.parent = parent;
        this.location = location;
    }

    public Component component() {
        return component;
    }

    public Component parent() {
        return parent;
    }

    public Location location() {
        return location;
    }

    public Block body() {
        return body;
    }

    /** All declared signals in declaration order, ports included. */
    public List<Signal> signals() {
        return Collections.unmodifiableList(signals);
    }

    /** Ports in emission order: clock-domain ports first, then in declaration order. */
    public List<Signal> ports() {
        return Collections.unmodifiableList(ports);
    }

    public void addSignal(Signal s) {
        signals.add(s);
        if (s.kind().isPort()) {
            ports.add(s);
        }
    }

    /** Adds clock-domain inputs ahead of the declared ports (done after elaboration). */
    public void addDomainPorts(ClockDomain domain, DomainPorts dp, int position) {
        domainPorts.put(domain, dp);
        List<Signal> added = new ArrayList<>();
        added.add(dp.clock());
        if (dp.reset() != null) {
            added.add(dp.reset());
        }
        if (dp.enable() != null) {
            added.add(dp.enable());
        }
        ports.addAll(position, added);
        signals.addAll(position, added);
    }

    public Map<ClockDomain, DomainPorts> domainPorts() {
        return Collections.unmodifiableMap(domainPorts);
    }

    public List<Op> namedOps() {
        return Collections.unmodifiableList(namedOps);
    }

    public void addNamedOp(Op op) {
        namedOps.add(op);
    }

    /** Adds a named operation with the line that named it (for errors about the name). */
    public void addNamedOp(Op op, Location where) {
        namedOps.add(op);
        namedOpLocations.put(op, where);
    }

    /** Where {@code op} was named, or this component's location when it was named after a field. */
    public Location namedOpLocation(Op op) {
        return namedOpLocations.getOrDefault(op, location);
    }

    public List<Component> children() {
        return Collections.unmodifiableList(children);
    }

    public void addChild(Component c) {
        children.add(c);
    }

    public List<MemoryIr> memories() {
        return Collections.unmodifiableList(memories);
    }

    public void addMemory(MemoryIr m) {
        memories.add(m);
    }

    public List<Assertion> assertions() {
        return Collections.unmodifiableList(assertions);
    }

    public void addAssertion(Assertion a) {
        assertions.add(a);
    }

    /** Generation parameters, in the order the component declared them. */
    public Map<String, Object> parameters() {
        return Collections.unmodifiableMap(parameters);
    }

    public void putParameter(String name, Object value) {
        parameters.put(name, value);
    }

    /** One documented word of a component's register map (machine-readable in the JSON report). */
    public record RegisterEntry(long address, String name, String access, String description) {
    }

    /** The register map the component documented, in declaration order. */
    public List<RegisterEntry> registerMap() {
        return Collections.unmodifiableList(registerMap);
    }

    public void addRegister(RegisterEntry entry) {
        for (RegisterEntry e : registerMap) {
            if (e.address() == entry.address()) {
                throw new IllegalArgumentException("register address 0x" + Long.toHexString(entry.address())
                        + " documented twice: " + e.name() + " and " + entry.name());
            }
        }
        registerMap.add(entry);
    }

    /** The register map this component exports with the design (a top's: JSON, SystemRDL, Python, Markdown), or null. */
    public dev.sue.hdl.regmap.RegisterMap exportedMap() {
        return exportedMap;
    }

    public void exportMap(dev.sue.hdl.regmap.RegisterMap map) {
        if (exportedMap != null) {
            throw new IllegalArgumentException("register map exported twice: " + exportedMap.name() + " and " + map.name());
        }
        exportedMap = map;
    }

    public String instanceName() {
        return instanceName;
    }

    public boolean instanceNameExplicit() {
        return instanceNameExplicit;
    }

    public void setInstanceName(String name, boolean explicit) {
        this.instanceName = name;
        this.instanceNameExplicit = explicit;
    }

    public boolean clockCrossingAllowed() {
        return clockCrossingAllowed;
    }

    public void allowClockCrossing() {
        this.clockCrossingAllowed = true;
    }

    /** Declared latency in cycles from input to output, or null when the block did not declare one. */
    public Integer latency() {
        return latency;
    }

    public void setLatency(int cycles) {
        this.latency = cycles;
    }

    public boolean isBlackBox() {
        return blackBoxModule != null;
    }

    public String blackBoxModule() {
        return blackBoxModule;
    }

    public Map<String, Object> blackBoxParameters() {
        return blackBoxParameters;
    }

    /** SystemVerilog source of the black box, copied to the output so the design lints stand-alone. */
    public String blackBoxSource() {
        return blackBoxSource;
    }

    public void setBlackBox(String module, Map<String, Object> params, String source) {
        this.blackBoxModule = module;
        this.blackBoxParameters = params;
        this.blackBoxSource = source;
    }
}
