// SPDX-License-Identifier: Apache-2.0
package dev.sue.dsltest;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.ClockDomain.Reset;
import dev.sue.hdl.Component;
import dev.sue.hdl.EnumType;
import dev.sue.hdl.HwEnum;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;

/** Small designs whose complete output is compared with files under {@code src/test/resources/golden}. */
final class GoldenDesigns {
    private GoldenDesigns() {
    }

    /** States of {@link RequestFsm}. */
    enum State { IDLE, REQUEST, WAIT_ACK, DONE }

    static final EnumType<State> STATE = EnumType.of(State.class);

    /**
     * Issues a request when {@code start}, waits for {@code ack} with a timeout, reports
     * {@code done} for one cycle and counts timeouts.
     */
    static final class RequestFsm extends Component {
        final Bool start = in(bool());
        final Bool ack = in(bool());
        final Bool req = out(bool());
        final Bool done = out(bool());
        final Bool busy = out(bool());
        final UInt timeouts = out(uint(8));
        final HwEnum<State> stateOut = out(enumOf(STATE));

        RequestFsm(int timeoutCycles) {
            param("timeoutCycles", timeoutCycles);
            require(timeoutCycles >= 2 && timeoutCycles <= 255, "timeoutCycles must be 2..255, got " + timeoutCycles);
            HwEnum<State> state = reg("state", enumOf(STATE)).init(State.IDLE);
            UInt timer = reg("timer", uint(8)).init(0);
            UInt timeoutCount = reg("timeout_count", uint(8)).init(0);

            switchOn(state, s -> s
                    .is(State.IDLE, () -> when(start, () -> state.set(State.REQUEST)))
                    .is(State.REQUEST, () -> {
                        timer.set(0);
                        state.set(State.WAIT_ACK);
                    })
                    .is(State.WAIT_ACK, () -> {
                        timer.set(timer.add(1));
                        when(ack, () -> state.set(State.DONE))
                                .elseWhen(timer.eq(timeoutCycles - 1), () -> {
                                    timeoutCount.set(timeoutCount.add(1));
                                    state.set(State.IDLE);
                                });
                    })
                    .is(State.DONE, () -> state.set(State.IDLE)));

            req.set(state.is(State.REQUEST).or(state.is(State.WAIT_ACK)));
            done.set(state.is(State.DONE));
            busy.set(state.isNot(State.IDLE));
            timeouts.set(timeoutCount);
            stateOut.set(state);
            cover(state.is(State.DONE), "a request completes");
            when(state.is(State.WAIT_ACK), () -> assertThat(timer.lt(timeoutCycles), "timer stays below the timeout"));
        }
    }

    /** Two flip-flops in the current domain: the library-style synchroniser for one bit. */
    static final class SyncBit extends Component {
        final Bool d = in(bool());
        final Bool q = out(bool());

        SyncBit() {
            allowClockCrossing();
            latency(2);
            Bool meta = reg("meta", bool()).init(false);
            Bool stable = reg("stable", bool()).init(false);
            meta.set(d);
            stable.set(meta);
            q.set(stable);
        }
    }

    /**
     * A toggle in the default domain (sync reset) crosses into the {@code io} domain (async,
     * active-low reset, clock enable) through {@link SyncBit}; the io side counts toggles.
     * A free-running counter in a {@code dbg} domain without reset shows the third style.
     */
    static final class TwoDomainBridge extends Component {
        static final ClockDomain IO = ClockDomain.external("io").withReset(Reset.ASYNC, true).withClockEnable()
                .withFrequencyMhz(250);
        static final ClockDomain DBG = ClockDomain.external("dbg").withReset(Reset.NONE, false);

        final Bool pulse = in(bool());
        final Bool ioClear = inDomain(IO, in(bool()));
        final UInt ioCount = out(uint(8));
        final Bool toggleOut = out(bool());
        final UInt dbgTicks = out(uint(4));

        TwoDomainBridge() {
            Bool toggle = reg("toggle", bool()).init(false);
            when(pulse, () -> toggle.set(toggle.not()));
            toggleOut.set(toggle);

            withDomain(IO, () -> {
                SyncBit sync = instance("toggle_sync", SyncBit::new);
                sync.d.set(toggle);
                Bool seen = regNext(sync.q).named("seen");
                UInt count = reg("count", uint(8)).init(0);
                when(ioClear, () -> count.set(0))
                        .elseWhen(sync.q.xor(seen), () -> count.set(count.add(1)));
                ioCount.set(count);
            });

            withDomain(DBG, () -> {
                UInt ticks = reg("ticks", uint(4));
                ticks.set(ticks.add(1));
                dbgTicks.set(ticks);
            });
        }
    }

    /**
     * A 32-bit, 16-word RAM with byte enables: port A writes (with byte enables) or reads
     * synchronously; port B reads asynchronously.
     */
    static final class ByteEnableRam extends Component {
        final Bool aEn = in(bool());
        final Bool aWrite = in(bool());
        final UInt aAddr = in(uint(4));
        final Bits aWdata = in(bits(32));
        final Bits aStrb = in(bits(4));
        final Bits aRdata = out(bits(32));
        final UInt bAddr = in(uint(4));
        final Bits bRdata = out(bits(32));
        final Mem<Bits> ram = Mem.of(16, 32);

        ByteEnableRam() {
            when(aEn, () -> ram.write(aAddr, aWdata, aWrite, aStrb));
            aRdata.set(ram.readSync(aAddr, aEn.andNot(aWrite)));
            bRdata.set(ram.readAsync(bAddr));
            latency(1);
        }
    }
}
