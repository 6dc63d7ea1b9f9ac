// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.rtl.pdu.TxPdu;

/**
 * The registers of one event between two stages of {@link TxRelEngine}: what it is (at most one
 * kind set; none is a bubble), its connection, and for a descriptor the PDU.
 */
final class EngineStage {
    final Bool valid;
    final Bool cfg;
    final Bool send;
    final Bool replay;
    final Bool empty;
    final Bool job;
    final Bool rewind;
    final Bool timer;
    final UInt addr;
    /** The descriptor's destination names a connection (else its PDU is dropped). */
    final Bool destOk;
    final TxPdu pdu;

    /** Registers named {@code <prefix>_*}, a bubble after reset. */
    EngineStage(String prefix, int addrBits) {
        this(prefix, addrBits, true);
    }

    /** Registers, or (for the issue stage) wires the user drives. */
    EngineStage(String prefix, int addrBits, boolean registered) {
        valid = bit(prefix + "_valid", registered);
        cfg = bit(prefix + "_cfg", registered);
        send = bit(prefix + "_send", registered);
        replay = bit(prefix + "_replay", registered);
        empty = bit(prefix + "_empty", registered);
        job = bit(prefix + "_job", registered);
        rewind = bit(prefix + "_rewind", registered);
        timer = bit(prefix + "_timer", registered);
        addr = registered ? reg(prefix + "_addr", uint(addrBits)).init(0) : wire(prefix + "_addr", uint(addrBits));
        destOk = bit(prefix + "_dest_ok", registered);
        pdu = registered ? reg(prefix + "_pdu", new TxPdu()) : wire(prefix + "_pdu", new TxPdu());
    }

    private static Bool bit(String name, boolean registered) {
        return registered ? reg(name, bool()).init(false) : wire(name, bool());
    }

    /** Takes {@code from}'s event at the edge. */
    void follow(EngineStage from) {
        valid.set(from.valid);
        cfg.set(from.cfg);
        send.set(from.send);
        replay.set(from.replay);
        empty.set(from.empty);
        job.set(from.job);
        rewind.set(from.rewind);
        timer.set(from.timer);
        addr.set(from.addr);
        destOk.set(from.destOk);
        assignLeaves(pdu, from.pdu);
    }

    /** A descriptor (new PDU or replay): it has a place in the output and verdict FIFOs. */
    Bool desc() {
        return send.or(replay);
    }
}
