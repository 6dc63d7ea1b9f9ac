// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Bundle;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Flow;

/**
 * The follow per connection of a multi-port plane (sue-rtl/DESIGN-PORTS.md, "Failover per
 * connection"): per peer, the last of its move counts taken, a candidate (count, port) waiting for
 * a second frame to confirm it, and the port this end's frames to the peer follow. A frame whose
 * count is one or two ahead of the last taken (modulo 4; an older one is a straggler from before
 * the peer's last move) is a candidate; the next such frame with the same count and port confirms
 * it (a count in a frame the receive path then drops must not move the connection). A follow never
 * advances this end's own count, so two ends never chase each other; it is void in a later move
 * generation ({@code PORT_MODE} written). One event per cycle (a plane receives from one port at a
 * time), read and written in the same cycle (the table is read asynchronously); zeroed by the PSN
 * table's sweep after reset.
 */
final class PeerRoutes {
    /** One peer's entry. */
    static final class Entry extends Bundle {
        final Bits last = bits(ConnMove.BITS);
        final Bool candValid = bool();
        final Bits candCount = bits(ConnMove.BITS);
        final UInt candPort = uint(ConnMove.BITS);
        final Bool follows = bool();
        final UInt port = uint(ConnMove.BITS);
        final UInt generation = uint(ConnMove.BITS);

        @Override
        public Entry copyType() {
            return new Entry();
        }
    }

    /** The connection at the engine's read stage follows the peer ({@link #port}), read this cycle. */
    final Bool follows;
    final UInt port;
    /** Confirmed follows, for the counter. */
    final Bool followed;

    /**
     * @param event      the plane's frames from peers (registered)
     * @param generation the move generation
     * @param readAddr   the engine's read-stage connection
     */
    PeerRoutes(int xpus, Flow<PeerRoute> event, UInt generation, UInt readAddr, Bool clearing, UInt sweepAddr) {
        int xw = log2Up(xpus);
        Mem<Entry> mem = Mem.of(xpus, new Entry()).named("peer_routes");
        UInt addr = event.payload.source.resize(xw);
        Entry e = mem.readAsync(addr);
        Bits count = event.payload.count;
        Bits ahead = count.asUInt().sub(e.last.asUInt()).resize(ConnMove.BITS).asBits();
        Bool newer = event.valid.and(ahead.bit(0).xor(ahead.bit(1))).named("peer_route_newer");
        Bool confirm = newer.and(e.candValid).and(e.candCount.eq(count)).and(e.candPort.eq(event.payload.port))
                .named("peer_route_confirm");
        Entry w = wire("peer_route_word", new Entry());
        assignLeaves(w, e);
        when(newer, () -> {
            w.candValid.set(confirm.not());
            w.candCount.set(count);
            w.candPort.set(event.payload.port);
        });
        when(confirm, () -> {
            w.last.set(count);
            w.follows.set(true);
            w.port.set(event.payload.port);
            w.generation.set(generation);
        });
        Entry zero = wire("peer_route_zero", new Entry());
        assignFromBits(zero, B(0, zero.bitWidth()));
        Entry written = wire("peer_route_written", new Entry());
        assignLeaves(written, w);
        when(clearing, () -> assignLeaves(written, zero));
        mem.write(mux(clearing, sweepAddr, addr), written, clearing.or(newer));
        followed = confirm.andNot(clearing);

        Entry r = mem.readAsync(readAddr);
        follows = r.follows.and(r.generation.eq(generation)).named("peer_route_follows");
        port = r.port;
    }
}
