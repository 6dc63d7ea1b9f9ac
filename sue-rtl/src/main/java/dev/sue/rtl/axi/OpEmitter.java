// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.axi;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Stream;

/**
 * Turns a buffered op (a header that is valid once every data beat is in {@code data}) into a
 * stream of {@link OpBeat}s for {@link OpSender}: the header on every beat, one data beat each,
 * {@code last} on beat {@code lastBeat}. The caller pops {@code data} with {@link #pop} (it may
 * add its own pops) and its header with {@link #done}. Registers named {@code <name>_*}.
 */
final class OpEmitter {
    final Stream<OpBeat> out;
    /** A data beat goes out this cycle. */
    final Bool pop;
    /** The op's last beat goes out this cycle. */
    final Bool done;

    /**
     * @param dataOp a constant: the ops carry data (else they are one command-only beat and
     *     {@code data} is not read)
     */
    OpEmitter(String name, int dataWidth, int beatBits, Bool headValid, boolean dataOp, UInt xpuid, Bits control,
            UInt lastBeat, Stream<Bits> data) {
        out = wire(Stream.of(() -> new OpBeat(dataWidth, beatBits))).named(name + "_ops");
        out.payload.dataOp.set(dataOp);
        out.payload.xpuid.set(xpuid);
        out.payload.control.set(control);
        out.payload.lastBeat.set(lastBeat);
        if (dataOp) {
            UInt index = reg(name + "_beat", uint(beatBits)).init(0);
            Bool last = index.eq(lastBeat);
            out.valid.set(headValid.and(data.valid));
            out.payload.data.set(data.payload);
            out.payload.last.set(last);
            pop = out.fire();
            done = pop.and(last);
            when(pop, () -> index.set(mux(last, U(0, beatBits), index.add(1))));
        } else {
            out.valid.set(headValid);
            out.payload.data.set(B(0, dataWidth));
            out.payload.last.set(true);
            pop = FALSE;
            done = out.fire();
        }
    }
}
