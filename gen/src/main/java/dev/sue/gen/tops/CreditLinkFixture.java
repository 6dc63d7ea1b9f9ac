// SPDX-License-Identifier: Apache-2.0
package dev.sue.gen.tops;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.credit.CreditReceiver;
import dev.sue.hdl.lib.credit.CreditSender;
import dev.sue.hdl.lib.stream.Stream;

/**
 * Test fixture: a {@link CreditSender} and a {@link CreditReceiver} side by side, so one
 * simulation can close the credit loop through a testbench that plays the link (delays for
 * data and credits) and the receive buffer. Not a library block.
 */
final class CreditLinkFixture extends Component {
    public final Stream<Bits> s;
    public final Stream<Bits> m;
    public final UInt txCreditsReturned;
    public final UInt txCredits;
    public final Bool rxReceived = in(bool());
    public final UInt rxFreed;
    public final UInt rxCreditsReturned;
    public final UInt rxOccupancy;
    public final UInt rxPending;

    CreditLinkFixture(int dataWidth, int capacity, int initialCredits, int maxReturnPerCycle, int maxFreePerCycle) {
        CreditSender<Bits> tx = instance("tx", () -> new CreditSender<>(() -> bits(dataWidth), capacity,
                initialCredits, maxReturnPerCycle));
        CreditReceiver rx = instance("rx", () -> new CreditReceiver(capacity, maxFreePerCycle, maxReturnPerCycle,
                capacity - initialCredits));
        s = slave(Stream.of(() -> bits(dataWidth)));
        m = master(Stream.of(() -> bits(dataWidth)));
        txCreditsReturned = in(uint(tx.creditsReturned.width()));
        txCredits = out(uint(tx.credits.width()));
        rxFreed = in(uint(rx.freed.width()));
        rxCreditsReturned = out(uint(rx.creditsReturned.width()));
        rxOccupancy = out(uint(rx.occupancy.width()));
        rxPending = out(uint(rx.pending.width()));

        tx.s.connectFrom(s);
        m.connectFrom(tx.m);
        tx.creditsReturned.set(txCreditsReturned);
        txCredits.set(tx.credits);
        rx.received.set(rxReceived);
        rx.freed.set(rxFreed);
        rxCreditsReturned.set(rx.creditsReturned);
        rxOccupancy.set(rx.occupancy);
        rxPending.set(rx.pending);
    }

    @Override
    public String moduleBaseName() {
        return "credit_link";  // the top's name, so the report is credit_link.json
    }
}
