// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.encap;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.lib.fifo.FifoStorage;
import dev.sue.hdl.lib.fifo.StreamFifo;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;

/**
 * A multi-port plane's frame routes, from the assembler to the framer's output beside the beats
 * (sue-rtl/DESIGN-PORTS.md, "Failover per connection"). The R-CRC and FCS appenders and the
 * control-frame merge move beats, not side information, so two queues of routes keep frame order:
 * one from a frame's first assembled beat until its last beat enters the merge, one (with
 * FCS_BY_SUE) from each merged frame's first beat (a control frame asks for no port) until its last
 * beat leaves the framer. Each queue's head is a register, loaded when the frame before leaves (or
 * straight from the push when the queue is empty): a push is at least a cycle ahead of its frame's
 * first beat at the reader (the R-CRC stage's register; the FCS stage's output register), so the
 * head is there in time, and the output is a register, constant through a frame.
 *
 * <p>A route names a port only while that port is live ({@code port_live}, checked as the route
 * enters each head register): a connection moved to a port that has since gone down sends on the
 * plane's port until its own timeouts move it again.
 */
final class FrameRoutes {
    /** Frames between a queue's push and its head: above an appender queue's beats (engine latency + 4) plus its register. */
    static final int DEPTH = 32;

    FrameRoutes(FrameAssembler asm, SueFramer.Entry head, Stream<PacketBeat> framed, Stream<PacketBeat> merged,
            Bool fromCtl, Stream<PacketBeat> m, Bool fcsBySue, Bits portLive, FramePort out) {
        int ports = portLive.width();
        FramePort assembledIn = wire("route_assembled_in", new FramePort(ports));
        assembledIn.moved.set(head.route.moved);
        assembledIn.to.set(mux(head.route.moved, B(1, ports).shl(head.route.port.resize(log2Up(ports))), B(0, ports)));
        FramePort atMerge = queue("route_assembled", asm.asmFire.and(asm.j.eq(0)), assembledIn,
                framed.fire().and(framed.payload.last), portLive);
        FramePort mergedIn = wire("route_merged_in", new FramePort(ports));
        mergedIn.moved.set(atMerge.moved.andNot(fromCtl));
        mergedIn.to.set(mux(fromCtl, B(0, ports), atMerge.to));
        Bool mergedMid = reg("route_merged_mid", bool()).init(false);
        when(merged.fire(), () -> mergedMid.set(merged.payload.last.not()));
        FramePort atOut = queue("route_merged", merged.fire().andNot(mergedMid).and(fcsBySue), mergedIn,
                m.fire().and(m.payload.last).and(fcsBySue), portLive);
        out.moved.set(mux(fcsBySue, atOut.moved, mergedIn.moved));
        out.to.set(mux(fcsBySue, atOut.to, mergedIn.to));
    }

    /**
     * A queue of routes whose head is a register: {@code push} enters {@code value}; {@code pop}
     * (the head's frame's last beat leaves) loads the next one, or the value pushed in that cycle.
     */
    private static FramePort queue(String name, Bool push, FramePort value, Bool pop, Bits portLive) {
        int ports = portLive.width();
        StreamFifo<FramePort> fifo = instance(name, () -> new StreamFifo<>(() -> new FramePort(ports), DEPTH,
                FifoStorage.LUT_RAM, DEPTH));
        Bool headValid = reg(name + "_head_valid", bool()).init(false);
        FramePort headReg = reg(name + "_head", new FramePort(ports));
        Bool load = headValid.not().or(pop).named(name + "_load");
        FramePort next = wire(name + "_next", new FramePort(ports));
        assignLeaves(next, value);
        when(fifo.m.valid, () -> assignLeaves(next, fifo.m.payload));
        Bool nextValid = fifo.m.valid.or(push);
        when(load, () -> {
            headValid.set(nextValid);
            // the route's port must be live: else the frame takes the plane's port
            Bool live = next.to.and(portLive).ne(0);
            headReg.moved.set(live);
            headReg.to.set(mux(live, next.to, B(0, ports)));
        });
        fifo.m.ready.set(load);
        fifo.s.valid.set(push.andNot(load.andNot(fifo.m.valid)));
        assignLeaves(fifo.s.payload, value);
        assertThat(fifo.s.valid.not().or(fifo.s.ready), "internal: " + name + " overflow");
        assertThat(pop.not().or(headValid), "internal: " + name + ": a frame left without its route");
        return headReg;
    }
}
