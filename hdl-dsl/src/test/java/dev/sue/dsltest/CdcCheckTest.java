// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.HdlError;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Clock-domain crossings outside synchronisers. */
class CdcCheckTest {
    static final ClockDomain RX = ClockDomain.external("rx");

    private static String at(String mark) {
        return Marks.at(CdcCheckTest.class, mark);
    }

    private static final String ADVICE = "without a synchroniser; cross with a library synchroniser or async FIFO";

    static final class RegisterCrossing extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        RegisterCrossing() {
            Bool ra = reg("ra", bool()).init(false);
            ra.set(a);
            withDomain(RX, () -> {
                Bool rb = reg("rb", bool()).init(false); // MARK:rb
                rb.set(ra.not());
                y.set(rb);
            });
        }
    }

    @Test
    void aRegisterSamplingAnotherDomainsRegisterIsReported() {
        Errors.only(Errors.of(RegisterCrossing::new), "rb", "register 'rb' at " + at("rb")
                + " in the clock domain 'rx' uses signals from the default clock domain " + ADVICE);
    }

    static final class InputCrossing extends Component {
        final Bool a = in(bool());
        final Bool b = inDomain(RX, in(bool()));
        final Bool y = out(bool());

        InputCrossing() {
            withDomain(RX, () -> {
                Bool ok = reg("ok", bool()).init(false);
                ok.set(b);
                Bool bad = reg("bad", bool()).init(false); // MARK:bad
                bad.set(a.and(b));
                y.set(ok.or(bad));
            });
        }
    }

    @Test
    void topLevelInputsBelongToTheDefaultDomainUnlessMarked() {
        Errors.only(Errors.of(InputCrossing::new), "bad", "register 'bad' at " + at("bad")
                + " in the clock domain 'rx' uses signals from the default clock domain");
    }

    static final class Synchroniser extends Component {
        final Bool d = in(bool());
        final Bool q = out(bool());

        Synchroniser(boolean allowed) {
            if (allowed) {
                allowClockCrossing();
            }
            Bool s1 = reg("s1", bool()).init(false); // MARK:sync-s1
            Bool s2 = reg("s2", bool()).init(false);
            s1.set(d);
            s2.set(s1);
            q.set(s2);
        }
    }

    static final class UsesSynchroniser extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        UsesSynchroniser(boolean allowed) {
            Bool ra = reg("ra", bool()).init(false);
            ra.set(a);
            withDomain(RX, () -> {
                Synchroniser s = instance("sync", () -> new Synchroniser(allowed));
                s.d.set(ra);
                Bool after = reg("after", bool()).init(false);
                after.set(s.q);
                y.set(after);
            });
        }
    }

    @Test
    void aComponentThatAllowsClockCrossingMaySampleOtherDomains() {
        Emit.elaborate(() -> new UsesSynchroniser(true));
    }

    @Test
    void theCrossingIsFoundInsideAChildThroughItsInputPort() {
        Errors.only(Errors.of(() -> new UsesSynchroniser(false)), "sync-s1", "register 's1' at " + at("sync-s1")
                + " in the clock domain 'rx' uses signals from the default clock domain");
    }

    static final class MemAndAssertCrossing extends Component {
        final UInt addr = in(uint(2));
        final Bits data = in(bits(8));
        final Bool we = in(bool());
        final Bits q = out(bits(8));

        MemAndAssertCrossing() {
            Mem<Bits> m = Mem.of(4, 8).named("m");
            withDomain(RX, () -> {
                m.write(addr, data, we); // MARK:mem-write
                q.set(m.readSync(addr)); // MARK:mem-read
                assertThat(we.not(), "no writes"); // MARK:assert
            });
        }
    }

    @Test
    void memoryPortsAndAssertionsAreCheckedToo() {
        List<HdlError> errors = Errors.of(MemAndAssertCrossing::new);
        Errors.expect(errors, "mem-write", "write port of memory 'm' in the clock domain 'rx' uses signals from the "
                + "default clock domain " + ADVICE);
        Errors.expect(errors, "mem-read", "read port of memory 'm' in the clock domain 'rx'");
        Errors.expect(errors, "assert", "assertion 'no writes' in the clock domain 'rx'");
        assertEquals(3, errors.size(), Errors.describe(errors));
    }

    static final class CombinationalOutput extends Component {
        final Bool a = in(bool());
        final Bool y = out(bool());

        CombinationalOutput() {
            Bool ra = reg("ra", bool()).init(false);
            ra.set(a);
            withDomain(RX, () -> {
                Bool rb = reg("rb", bool()).init(false);
                rb.set(a.not().not().and(TRUE).or(FALSE).xor(FALSE).not().not().andNot(TRUE).not().not()
                        .or(ra).and(FALSE));
                y.set(rb);
            });
        }
    }

    @Test
    void aCrossingIsFoundThroughAnyCombinationalPath() {
        List<HdlError> errors = Errors.of(CombinationalOutput::new);
        assertEquals(1, errors.size(), Errors.describe(errors));
    }
}
