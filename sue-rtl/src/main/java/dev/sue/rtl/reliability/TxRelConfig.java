// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.reliability;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.UInt;
import dev.sue.rtl.ports.TxDispatcher;

/**
 * The configuration registers of {@link TxReliability} (addresses in its Javadoc): WINDOW, RTO,
 * RETRY_LIMIT and ACK_PIGGYBACK_WAIT take effect at once; a per-connection write (NEXT_PSN,
 * CONN) waits in a one-entry buffer ({@code cfg_ready} low) until the engine has applied it,
 * because it is an engine event like any other.
 */
final class TxRelConfig {
    final Bool ready;
    final UInt window;
    final UInt rto;
    final UInt retryLimit;
    final UInt ackWait;
    /** A per-connection write waits for the engine ({@link #connDest}, {@link #isConn}, {@link #value}). */
    final Bool connPending;
    /** Set once the engine has issued the pending write (it is in its pipeline). */
    final Bool connIssued;
    final UInt connDest;
    final Bool isConn;
    final UInt value;
    /** Driven by the engine: issue / finish the pending per-connection write. */
    final Bool issue;
    final Bool done;
    /** A write with a value out of range (ignored; {@code cnt_bad_cfg}), one per register. */
    final Bool[] bad;
    /**
     * A multi-port plane's connection moves (else null): {@code CONN_MOVE_RETRIES} is on, and the
     * retry count at which a timeout moves the connection ({@code CONN_MOVE_RETRIES - 1}, so the
     * compare reads a register); the move generation, advanced by each {@code PORT_MODE} write.
     */
    final Bool moveOn;
    final UInt moveFrom;
    final UInt moveGeneration;

    TxRelConfig(int xpus, int windowMax, boolean moves, Bool valid, UInt addr, Bits data, Bool clearing) {
        int xw = log2Up(xpus);
        int ww = bitsFor(windowMax);
        UInt val = data.asUInt();
        window = reg("window", uint(ww)).init(Math.min(64, windowMax));
        rto = reg("rto", uint(TxReliability.TW)).init(TxReliability.RTO_DEFAULT);
        retryLimit = reg("retry_limit", uint(8)).init(TxReliability.RETRY_DEFAULT);
        ackWait = reg("ack_wait", uint(16)).init(TxReliability.ACK_WAIT_DEFAULT);
        connPending = reg("cfg_conn_pending", bool()).init(false);
        connIssued = reg("cfg_conn_issued", bool()).init(false);
        connDest = reg("cfg_conn_dest", uint(xw)).init(0);
        isConn = reg("cfg_conn_is_conn", bool()).init(false);
        value = reg("cfg_conn_value", uint(16)).init(0);
        issue = wire("cfg_issue", bool());
        done = wire("cfg_done", bool());
        ready = connPending.not().and(clearing.not()).named("cfg_ready_int");

        Bool w = valid.and(ready).named("cfg_w");
        Bool wWin = w.and(addr.eq(TxReliability.ADDR_WINDOW));
        Bool wRto = w.and(addr.eq(TxReliability.ADDR_RTO));
        Bool wRetry = w.and(addr.eq(TxReliability.ADDR_RETRY_LIMIT));
        Bool wWait = w.and(addr.eq(TxReliability.ADDR_ACK_WAIT));
        Bool winOk = val.ge(1).and(val.le(windowMax));
        Bool rtoOk = val.ge(1).and(val.lt(1L << (TxReliability.TW - 1)));
        Bool retryOk = val.le(255);
        Bool waitOk = val.le(32767);
        when(wWin.and(winOk), () -> window.set(val.resize(ww)));
        when(wRto.and(rtoOk), () -> rto.set(val.resize(TxReliability.TW)));
        when(wRetry.and(retryOk), () -> retryLimit.set(val.resize(8)));
        when(wWait.and(waitOk), () -> ackWait.set(val.resize(16)));
        Bool wMove = moves ? w.and(addr.eq(TxReliability.ADDR_CONN_MOVE_RETRIES)) : null;
        if (moves) {
            moveOn = reg("conn_move_on", bool()).init(TxReliability.CONN_MOVE_DEFAULT != 0);
            moveFrom = reg("conn_move_from", uint(8)).init(Math.max(0, TxReliability.CONN_MOVE_DEFAULT - 1));
            moveGeneration = reg("conn_move_generation", uint(ConnMove.BITS)).init(0);
            when(wMove.and(retryOk), () -> {
                moveOn.set(val.ne(0));
                moveFrom.set(val.resize(8).sub(1));
            });
            when(valid.and(addr.eq(TxDispatcher.ADDR_PORT_MODE)), () -> moveGeneration.set(moveGeneration.add(1)));
        } else {
            moveOn = null;
            moveFrom = null;
            moveGeneration = null;
        }
        bad = moves
                ? new Bool[] {wWin.andNot(winOk), wRto.andNot(rtoOk), wRetry.andNot(retryOk), wWait.andNot(waitOk),
                    wMove.andNot(retryOk)}
                : new Bool[] {wWin.andNot(winOk), wRto.andNot(rtoOk), wRetry.andNot(retryOk), wWait.andNot(waitOk)};

        UInt dest = addr.slice(13, 4).named("cfg_dest");
        Bool table = w.and(addr.slice(15, 14).eq(1)).and(AckInfo.inRange(dest, xpus)).named("cfg_table");
        Bool conn = addr.slice(3, 0).eq(TxReliability.T_CONN);
        Bool take = table.and(conn.or(addr.slice(3, 0).eq(TxReliability.T_NEXT_PSN))).named("cfg_conn_take");
        when(take, () -> {
            connPending.set(true);
            connDest.set(dest.resize(xw));
            isConn.set(conn);
            value.set(val.resize(16));
        }).elseWhen(done, () -> connPending.set(false));
        when(issue, () -> connIssued.set(true)).elseWhen(done, () -> connIssued.set(false));
    }
}
