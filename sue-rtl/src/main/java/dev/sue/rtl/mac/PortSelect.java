// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.mac;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Component;
import dev.sue.hdl.Vec;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;

/**
 * Chooses the MAC port each frame of one transmit path leaves on. Today only {@code ports = 1}:
 * the frame stream passes straight through. A multi-port endpoint is built of planes, one
 * single-port transmit and receive path per port ({@code sue_endpoint -p ports=N},
 * sue-rtl/DESIGN-PORTS.md), so this block is where failover will steer a plane's frames to a live
 * port (frames merged at frame boundaries, the RH plane field telling the receiver their plane).
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
        require(ports == 1, "one transmit path drives one port (ports = 1), got " + ports
                + "; an endpoint with 2 or 4 ports has a plane per port: sue_endpoint -p ports=" + ports);
        s = slave(Stream.of(() -> new PacketBeat(dataWidth)));
        m = master(Vec.of(ports, i -> Stream.of(() -> new PacketBeat(dataWidth))));
        m.get(0).connectFrom(s);
        latency(0);
    }
}
