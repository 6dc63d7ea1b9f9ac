// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import java.util.ArrayList;
import java.util.List;

/**
 * CRC of a short message given at once in a fixed window, with a one-cycle latency whatever its
 * length: the fast path for packets that fit in one bus beat, which a {@link CrcEngine} would
 * otherwise hold for its byte-tail correction (5-6 cycles for CRC-32 at 512-1024 bits).
 *
 * <h2>Why it works</h2>
 * The register of a CRC after a message {@code M} is {@code A^|M| * init ^ raw(M)}, with
 * {@code raw} the zero-init register (linear in the bytes) and {@code A8} the one-zero-byte
 * advance. Zero bytes after {@code M} multiply the register by {@code A8} each, and {@code A8}
 * is invertible because the polynomial has the {@code x^0} term. So for a window
 * {@code W = M || 0^t} of fixed size {@code B}, the register of {@code M} is
 * {@code A8^-t * (A8^B * init ^ raw(W))}: one fixed XOR network over the whole window (the
 * {@link CrcMatrices} data matrix, planned by {@link XorPlan} like the engine's) plus a
 * {@code width x width} correction {@code A8^-t} selected by {@code t} from a ROM and applied
 * as an AND-XOR. No per-length networks and no shifter.
 *
 * <h2>Pipeline (why this split)</h2>
 * Stage 1, in the cycle the window is valid: the window network {@code S} (the same depth as
 * the engine's data network), the ROM read {@code M_t} in parallel, and the first level of the
 * AND-XOR, {@code p[i][g] = XOR over j in group g of (M_t[i][j] & S[j])} with groups of 3
 * (one 6-input LUT each), registered: {@code width * ceil(width/3)} flip-flops instead of the
 * {@code width^2} of a registered matrix. Stage 2, combinational after those registers: the
 * XOR of the {@code ceil(width/3)} partials per bit (2 LUT levels for CRC-32), reflection and
 * {@code xorOut} (free), so a consumer can still mux the value into an output beat in the
 * cycle after the window.
 *
 * <h2>Parameters</h2>
 * <ul>
 *   <li>{@code spec}: the CRC, any {@link CrcSpec}.</li>
 *   <li>{@code windowBytes} ({@code B}): 1..512; byte 0 of {@code window} is the message's
 *       first byte.</li>
 *   <li>{@code maxTrail}: 0..B, the largest number of trailing window bytes after the message
 *       (the ROM holds {@code maxTrail + 1} matrices).</li>
 * </ul>
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code valid} (in): a window to process this cycle.</li>
 *   <li>{@code window} (in, {@code 8B} bits): the message in bytes {@code 0..B-t-1}; bytes
 *       {@code B-t..B-1} must be zero (an SVA assertion checks it).</li>
 *   <li>{@code trail} (in, {@code bitsFor(maxTrail)} bits): {@code t}, at most
 *       {@code maxTrail} (asserted).</li>
 *   <li>{@code crc_valid} (out): {@code valid} one cycle later.</li>
 *   <li>{@code crc_value} (out, {@code width} bits): in the {@code crc_valid} cycle, the CRC
 *       of the message ({@link CrcSpec#compute}; {@code zlib.crc32} for CRC-32), after
 *       {@code reflectOut} and {@code xorOut}; combinational from stage-1 registers, undefined
 *       in other cycles.</li>
 * </ul>
 *
 * <h2>Latency</h2>
 * 1 cycle, declared with {@code latency(1)}.
 */
public final class CrcWindow extends Component {
    /** Columns of the correction matrix ANDed and XORed per stage-1 LUT. */
    static final int GROUP = 3;

    public final Bool valid = in(bool());
    public final Bits window;
    public final UInt trail;
    public final Bool crcValid = out(bool());
    public final Bits crcValue;

    public CrcWindow(CrcSpec spec, int windowBytes, int maxTrail) {
        require(spec != null, "spec must be a CrcSpec, e.g. CrcSpec.CRC32");
        param("crc", spec.name());
        param("windowBytes", windowBytes);
        param("maxTrail", maxTrail);
        require(windowBytes >= 1 && windowBytes <= 512, "windowBytes must be 1..512, got " + windowBytes);
        require(maxTrail >= 0 && maxTrail <= windowBytes,
                "maxTrail must be 0..windowBytes (" + windowBytes + "), got " + maxTrail);
        final int w = spec.width();
        final int bits = 8 * windowBytes;
        final int tw = Math.max(1, bitsFor(maxTrail));
        window = in(bits(bits));
        trail = in(uint(tw));
        crcValue = out(bits(w));

        if ((1 << tw) - 1 > maxTrail) {
            assertThat(valid.not().or(trail.le(maxTrail)), "trail must be at most maxTrail = " + maxTrail);
        }
        // byte i is after the message when trail >= B - i
        List<Bool> stray = new ArrayList<>();
        for (int i = windowBytes - maxTrail; i < windowBytes; i++) {
            stray.add(trail.ge(windowBytes - i).and(window.byteAt(i).ne(0)));
        }
        if (!stray.isEmpty()) {
            assertThat(valid.not().or(cat(stray).orR().not()),
                    "window bytes after the message (the last trail bytes) must be zero");
        }

        // ---- stage 1: S = A8^B * init ^ B_W * window, and the correction matrix M_t
        Gf2Matrix data = CrcMatrices.dataMatrix(spec, bits);
        long initTerm = CrcMatrices.zeroBytesAdvance(spec, windowBytes).apply(spec.init());
        Bits raw = CrcEngine.xorNetwork(data, window::bit, "win", CrcEngine.LUT_INPUTS);
        Bits s = (initTerm != 0 ? raw.xor(B(initTerm, w)) : raw).named("win_state");
        Gf2Matrix[] undo = new Gf2Matrix[maxTrail + 1];
        Gf2Matrix back = CrcMatrices.zeroBytesAdvance(spec, 1).inverse();
        undo[0] = Gf2Matrix.identity(w);
        for (int t = 1; t <= maxTrail; t++) {
            undo[t] = undo[t - 1].multiply(back);
        }
        int groups = (w + GROUP - 1) / GROUP;
        List<Bits> partialRegs = new ArrayList<>();
        for (int i = 0; i < w; i++) {
            List<Bool> ps = new ArrayList<>();
            for (int g = groups - 1; g >= 0; g--) {
                Bool p = FALSE;
                for (int j = g * GROUP; j < Math.min(w, (g + 1) * GROUP); j++) {
                    Bool mij = matrixBit(undo, trail, tw, i, j);
                    Bool term = mij == FALSE ? FALSE : mij == TRUE ? s.bit(j) : mij.and(s.bit(j));
                    p = p == FALSE ? term : term == FALSE ? p : p.xor(term);
                }
                ps.add(p);
            }
            Bits pr = reg("part_" + i, bits(groups));
            pr.set(cat(ps));
            partialRegs.add(pr);
        }
        Bool v1 = reg("valid_q", bool()).init(false);
        v1.set(valid);

        // ---- stage 2: the XOR of the partials, then reflection and xorOut
        List<Bool> state = new ArrayList<>();
        for (int i = w - 1; i >= 0; i--) {
            state.add(partialRegs.get(i).xorR());
        }
        Bits reg = cat(state).named("msg_state");
        crcValid.set(v1);
        crcValue.set(CrcEngine.finish(spec, reg));
        latency(1);
    }

    /** Entry (i, j) of {@code A8^-trail} as a ROM bit over the trail values. */
    private static Bool matrixBit(Gf2Matrix[] undo, UInt trail, int tw, int i, int j) {
        boolean[] column = new boolean[1 << tw];
        for (int t = 0; t < undo.length; t++) {
            column[t] = undo[t].get(i, j);
        }
        // trail values beyond maxTrail are excluded by the assertion: repeat the last entry so
        // the constant subtrees fold
        for (int t = undo.length; t < column.length; t++) {
            column[t] = column[undo.length - 1];
        }
        Bool b = CrcEngine.romBit(trail, tw, column, 0);
        return b;
    }
}
