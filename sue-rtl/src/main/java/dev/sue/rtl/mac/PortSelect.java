// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.mac;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Component;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;

/**
 * Chooses the MAC port each frame leaves on. This is where load balancing over 2 or 4 ports
 * (per-frame choice by entropy/destination, whole frames only) and failover (a port whose link is
 * down is skipped) will go; today only {@code ports = 1} is implemented: the frame stream passes
 * straight through.
 *
 * <h2>Parameters</h2>
 * {@code dataWidth} (bits, a multiple of 8), {@code ports} (only 1 for now).
 *
 * <h2>Ports</h2>
 * {@code s} (slave {@code Stream<PacketBeat>}): frames; {@code m_0 .. m_<ports-1>} (master
 * {@code Stream<PacketBeat>}): one frame stream per MAC port ({@code data, keep, last, valid,
 * ready}).
 *
 * <h2>Timing</h2>
 * Combinational (latency 0), no bubbles.
 */
public final class PortSelect extends Component {
    public final Stream<PacketBeat> s;
    public final Vec<Stream<PacketBeat>> m;

    public PortSelect(int dataWidth, int ports) {
        param("dataWidth", dataWidth);
        param("ports", ports);
        require(dataWidth >= 8 && dataWidth % 8 == 0, "dataWidth must be a positive multiple of 8, got " + dataWidth);
        require(ports == 1, "ports must be 1 for now (2/4-port load balancing and failover are not implemented "
                + "yet), got " + ports);
        s = slave(Stream.of(() -> new PacketBeat(dataWidth)));
        m = master(Vec.of(ports, i -> Stream.of(() -> new PacketBeat(dataWidth))));
        m.get(0).connectFrom(s);
        latency(0);
    }
}
