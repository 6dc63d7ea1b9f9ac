// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.rtl.queue.TxQueueManager;

/**
 * The send windows of {@link TxReliability}, from the PSN table's registered writes: a
 * connection's window closes while {@code next_psn - una >= WINDOW} or it is rewinding, reopens
 * below {@code WINDOW - WINDOW/4} (hysteresis keeps the scheduler's wake-up FIFO small), and is
 * always open in error (its queued PDUs drain and are dropped). Only changes go to the
 * scheduler ({@code win}). Two register stages (the subtraction, then the compare and the
 * per-connection open bit) behind the write: a change shows three cycles after the engine's
 * decide stage. Writes are taken in engine order, so each sees the state the one before left.
 */
final class WindowFlow {
    WindowFlow(int xpus, Flow<TxQueueManager.Window> win, Bool wen, UInt dest, ConnState word, UInt window) {
        int xw = dest.width();
        Bool valid = reg("win_ev_valid", bool()).init(false);
        UInt evDest = reg("win_ev_dest", uint(xw)).init(0);
        UInt outstanding = reg("win_ev_outstanding", uint(16)).init(0);
        Bool err = reg("win_ev_err", bool()).init(false);
        Bool rew = reg("win_ev_rew", bool()).init(false);
        valid.set(wen);
        evDest.set(dest);
        outstanding.set(word.outstanding());
        err.set(word.error);
        rew.set(word.rewinding);
        UInt window16 = window.resize(16).named("window16");
        UInt reopen = regNext(window16.sub(window16.shr(2)).named("win_reopen"));
        Bits open = reg("win_state", bits(xpus))
                .init(java.math.BigInteger.ONE.shiftLeft(xpus).subtract(java.math.BigInteger.ONE));
        Bool wasOpen = open.bit(evDest);
        Bool openNew = err.or(rew.not().and(mux(wasOpen, outstanding.lt(window16), outstanding.lt(reopen))))
                .named("open_new");
        Bool change = valid.and(openNew.ne(wasOpen)).named("win_change");
        Bits sel = B(1, xpus).shl(evDest);
        when(change, () -> open.set(mux(openNew, open.or(sel), open.and(sel.not()))));
        Bool v = reg("win_v_q", bool()).init(false);
        UInt d = reg("win_d_q", uint(10)).init(0);
        Bool o = reg("win_open_q", bool()).init(false);
        v.set(change);
        d.set(evDest.resize(10));
        o.set(openNew);
        win.valid.set(v);
        win.payload.dest.set(d);
        win.payload.open.set(o);
    }
}
