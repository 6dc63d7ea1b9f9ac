// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.lib.crc;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Parallel CRC engine over a packet stream with byte-granular ends: one result per frame.
 *
 * <h2>Parameters</h2>
 * <ul>
 *   <li>{@code spec}: the CRC ({@link CrcSpec}: any width 1..32, polynomial, reflection, init,
 *       xorOut), e.g. {@link CrcSpec#CRC32} for the Ethernet FCS.</li>
 *   <li>{@code dataWidth}: bus width in bits, 8..2048, a multiple of 8 ({@code N = dataWidth/8}
 *       byte lanes).</li>
 *   <li>{@link Options#byteTails}: true honours {@code keep} on the last beat, so frames may have
 *       any byte length; false takes whole words only ({@code keep} must be all ones) and saves
 *       the tail logic. Irrelevant when {@code N == 1}.</li>
 *   <li>{@link Options#dataPipeline}: 0 or 1. With 1 the data term {@code B*data} is registered
 *       before it meets the state, so the feedback loop holds only the {@code width x width}
 *       state term (plus one XOR input per bit) and wide buses close timing; one more cycle of
 *       latency and {@code width} flip-flops.</li>
 *   <li>{@link Options#value}: output the CRC value ({@code crc_value}), e.g. for a transmitter
 *       that appends the FCS.</li>
 *   <li>{@link Options#check}: output {@code crc_ok}, true when the frame's CRC equals
 *       {@link CrcSpec#goodFrameCrc()}, i.e. the frame ends with its own correct CRC (a
 *       receiver's FCS check). Needs a whole-byte width and {@code reflectIn == reflectOut}.
 *       With byte tails this is far cheaper
 *       than the value (no tail correction, see below). At least one of value and check.</li>
 *   <li>{@link Options#tailMatrix} (default true): the value path undoes a last beat's padding
 *       with one matrix chosen by the padding count, in one pipeline stage (below); false: in
 *       {@code log2(N)} steps, {@link Options#tailStepsPerCycle} per stage.</li>
 *   <li>{@link Options#tailStepsPerCycle}: 1..8 (default 2): tail-correction steps (below) per
 *       pipeline stage without {@code tailMatrix}; each step is two LUT levels.</li>
 * </ul>
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code s} (in, {@link Flow} of {@link PacketBeat}: {@code s_valid}, {@code s_data},
 *       {@code s_keep}, {@code s_last}): the frames' beats, one per cycle with {@code s_valid};
 *       no back-pressure (to follow a {@link Stream}, drive {@code s_valid} with its
 *       {@code fire()}: see {@link #tap}). Byte 0 ({@code data[7:0]}) is first on the wire. Every
 *       beat but the last has all {@code keep} bits set; the last beat's {@code keep} is
 *       contiguous from bit 0 with at least bit 0 set (1..N valid bytes); SVA assertions check
 *       both in simulation. Invalid bytes may hold anything. Frames may end on every beat; a
 *       reset drops the frame in progress.</li>
 *   <li>{@code crc_valid} (out): one pulse per frame, in frame order, exactly
 *       {@link #latencyCycles()} cycles after the frame's last beat.</li>
 *   <li>{@code crc_value} (out, {@code width} bits, with {@code value}): the final CRC (after
 *       {@code reflectOut} and {@code xorOut}), equal to {@code zlib.crc32(frame)} for CRC-32;
 *       holds its value until the next result. With byte tails and {@code tailMatrix} it is the
 *       XOR of registered partial sums (two LUT levels after flip-flops, see below); otherwise a
 *       register.</li>
 *   <li>{@code crc_ok} (out, with {@code check}): the frame's CRC equals
 *       {@link CrcSpec#goodFrameCrc()}; holds until the next result. One LUT level (an AND of 6
 *       flip-flops) after registers.</li>
 * </ul>
 *
 * <h2>How it works</h2>
 * Every beat does {@code state = A*state ^ B*data} with XOR matrices computed in Java
 * ({@link CrcMatrices}) and built as shared, LUT-sized XOR networks ({@link XorPlan}); the last
 * beat reloads {@code init} for the next frame and hands the updated state to the output
 * pipeline. With byte tails, the beat is first registered with every byte beyond {@code keep}
 * cleared by the register's synchronous reset (one LUT2 per byte drives the clear of its eight
 * flip-flops; masking every bit in logic would break the sharing), so a last beat with
 * {@code k < N} valid bytes is processed as a whole word ending in {@code p = N-k} zero bytes.
 * That yields the wanted register advanced over {@code p} zero bytes, {@code A8^p * wanted}:
 * <ul>
 *   <li>the value path undoes the padding, multiplying by {@code A8^-p} (it exists because the
 *       polynomial has the {@code x^0} term), outside the feedback loop: with {@code tailMatrix}
 *       as one product {@code M(p) * c}, each entry of {@code M(p)} a ROM bit of {@code p} and each
 *       output bit an XOR of up to {@code width} AND terms, for {@code N * width^2} ROM bits.
 *       The product starts in the cycle of the frame's last beat, on the register's next value
 *       {@code c}: the first level (groups of terms, one 6-input LUT each: three ROM terms or six
 *       constant ones) is registered with the frame's end ({@code unpad_part_<r>}, about 11 bits
 *       per output bit for CRC-32, held until the next result), and {@code crc_value} is the XOR of
 *       those partials (two levels), so the value is there a cycle after the last beat's state
 *       update, with no register in between. Else in {@code log2(N)} conditional steps
 *       {@code c = p[b] ? A8^-(2^b) * c : c} after the register is captured;</li>
 *   <li>the check path needs no undoing: the padded register must equal {@code A8^p * good}.
 *       That expected value is an XOR of keep bits (keep is a thermometer code of {@code p}, so
 *       the constants per {@code p} telescope into a linear function of keep), registered with
 *       the beat; the state network's roots are planned with one input free, so
 *       {@code next ^ expected} is one more root per bit beside {@code next} (the sub-sums
 *       shared); its zero detect's first level (a LUT per 6 bits) is registered with the frame's
 *       end and {@code crc_ok} is the AND of those 6 flip-flops (one LUT level after registers,
 *       for the consumer): 4 + 1 levels for CRC-32 at 512 bits, 5 + 1 at 1024 in yosys, no cycle
 *       spent capturing the register first.</li>
 * </ul>
 * No per-length data matrices and no data shifter: the data network is the same as for whole
 * words.
 *
 * <h2>Latency</h2>
 * {@code [1 +] dataPipeline + 1 + S} cycles: 1 for the input register with tail handling
 * ({@code byteTails} and {@code N > 1}); {@code S = ceil(log2(N) / tailStepsPerCycle)} for the
 * value with tail handling in steps (the register after the last beat is captured first), else
 * 0. For CRC-32 with byte tails: value and check 2 at every width (5 at 512 bits and 6 at 1024
 * with the tail in two steps per cycle; before session 15 value and check were 3, the register
 * after the last beat captured first). Both outputs share {@code crc_valid}. Declared with
 * {@code latency(n)}.
 *
 * <h2>Ethernet FCS</h2>
 * TX: run a value engine over the frame's bytes (without FCS) and append
 * {@link CrcSpec#appendBytes} of {@code crc_value} (least significant byte first for CRC-32);
 * the appender delays the beats by {@code latencyCycles()} cycles. RX: run a check
 * engine over the whole frame including the received FCS and use {@code crc_ok}; the FCS never
 * has to be located.
 */
public final class CrcEngine extends Component {
    /** Steps of the tail correction per pipeline stage by default: two steps, four LUT levels. */
    public static final int DEFAULT_TAIL_STEPS = 2;
    /** LUT size the XOR networks are planned for (6-input LUTs of current FPGAs). */
    static final int LUT_INPUTS = 6;
    /** Sharing rounds tried by the planner (see {@link XorPlan#shared}). */
    static final int SHARING_ROUNDS = 2;

    /**
     * Generation options; {@link #defaults()} is byte tails, no data pipeline, value output.
     *
     * @param byteTails         honour {@code keep} on last beats
     * @param dataPipeline      0 or 1 register stages on the data term
     * @param value             output {@code crc_value}
     * @param check             output {@code crc_ok}
     * @param tailStepsPerCycle tail-correction steps per pipeline stage, 1..8 (without tailMatrix)
     * @param tailMatrix        undo the padding with one ROM-selected matrix in one stage
     */
    public record Options(boolean byteTails, int dataPipeline, boolean value, boolean check, int tailStepsPerCycle,
            boolean tailMatrix) {
        public static Options defaults() {
            return new Options(true, 0, true, false, DEFAULT_TAIL_STEPS, true);
        }

        public Options withByteTails(boolean v) {
            return new Options(v, dataPipeline, value, check, tailStepsPerCycle, tailMatrix);
        }

        public Options withDataPipeline(int v) {
            return new Options(byteTails, v, value, check, tailStepsPerCycle, tailMatrix);
        }

        public Options withValue(boolean v) {
            return new Options(byteTails, dataPipeline, v, check, tailStepsPerCycle, tailMatrix);
        }

        public Options withCheck(boolean v) {
            return new Options(byteTails, dataPipeline, value, v, tailStepsPerCycle, tailMatrix);
        }

        /** Tail correction in steps ({@code tailMatrix} off), {@code v} per stage. */
        public Options withTailStepsPerCycle(int v) {
            return new Options(byteTails, dataPipeline, value, check, v, false);
        }

        public Options withTailMatrix(boolean v) {
            return new Options(byteTails, dataPipeline, value, check, tailStepsPerCycle, v);
        }
    }

    /** Input beats (no back-pressure). */
    public final Flow<PacketBeat> s;
    /** One pulse per frame. */
    public final Bool crcValid;
    /** The frame's CRC (null without {@link Options#value}). */
    public final Bits crcValue;
    /** The frame ends with its correct CRC (null without {@link Options#check}). */
    public final Bool crcOk;

    private final int latency;

    /** A value engine with byte tails and no data pipeline. */
    public CrcEngine(CrcSpec spec, int dataWidth) {
        this(spec, dataWidth, Options.defaults());
    }

    public CrcEngine(CrcSpec spec, int dataWidth, Options options) {
        require(spec != null, "spec must be a CrcSpec, e.g. CrcSpec.CRC32");
        require(options != null, "options must be given, e.g. CrcEngine.Options.defaults()");
        param("crc", spec.name());
        param("crcWidth", spec.width());
        param("polynomial", String.format("0x%X", spec.polynomial()));
        param("reflectIn", spec.reflectIn());
        param("reflectOut", spec.reflectOut());
        param("init", String.format("0x%X", spec.init()));
        param("xorOut", String.format("0x%X", spec.xorOut()));
        param("dataWidth", dataWidth);
        param("byteTails", options.byteTails());
        param("dataPipeline", options.dataPipeline());
        param("value", options.value());
        param("check", options.check());
        param("tailStepsPerCycle", options.tailStepsPerCycle());
        param("tailMatrix", options.tailMatrix());
        require(dataWidth >= 8 && dataWidth <= 2048 && dataWidth % 8 == 0,
                "dataWidth must be a multiple of 8 in 8..2048, got " + dataWidth);
        require(options.dataPipeline() == 0 || options.dataPipeline() == 1,
                "dataPipeline must be 0 or 1, got " + options.dataPipeline());
        require(options.tailStepsPerCycle() >= 1 && options.tailStepsPerCycle() <= 8,
                "tailStepsPerCycle must be 1..8, got " + options.tailStepsPerCycle());
        require(options.value() || options.check(), "enable at least one output: value (crc_value) or check (crc_ok)");
        require(!options.check() || spec.width() % 8 == 0,
                "check (crc_ok) needs a CRC of whole bytes (an appended FCS); " + spec.name() + " is "
                        + spec.width() + " bits");
        require(!options.check() || spec.reflectIn() == spec.reflectOut(),
                "check (crc_ok) needs reflectIn == reflectOut: otherwise a frame with its CRC appended has no "
                        + "constant CRC; use the value output and compare it with the received FCS");

        final int w = spec.width();
        final int lanes = dataWidth / 8;
        final boolean tails = options.byteTails() && lanes > 1;
        final int padBits = tails ? log2Up(lanes) : 0;

        s = slave(Flow.of(() -> new PacketBeat(dataWidth)));
        crcValid = out(bool());
        crcValue = options.value() ? out(bits(w)) : null;
        crcOk = options.check() ? out(bool()) : null;

        Gf2Matrix step = CrcMatrices.step(spec, dataWidth);

        // ---- protocol checks (simulation only) ----
        Bits keep = s.payload.keep;
        Bool keepFull = keep.andR();
        if (options.byteTails()) {
            Bool contiguous = keep.bit(0).and(keep.asUInt().and(keep.asUInt().add(1)).eq(0));
            assertThat(s.valid.not().or(contiguous),
                    "s_keep must be contiguous from byte 0 with at least byte 0 set");
            assertThat(s.valid.not().or(s.payload.last).or(keepFull), "s_keep must be all ones except on the last beat");
        } else {
            assertThat(s.valid.not().or(keepFull), "byteTails=false takes whole words only: s_keep must be all ones");
        }

        // ---- input register (tails only): bytes beyond keep are cleared by the register's
        // synchronous reset (an FDRE's R pin, no LUTs), so the XOR network sees clean data ----
        Bits data = s.payload.data;
        Bool valid = s.valid;
        Bool last = s.payload.last;
        UInt pad = null;
        Bits goodQ = null;
        if (tails) {
            List<Bits> lanesQ = new ArrayList<>();
            for (int i = lanes - 1; i >= 0; i--) {
                Bits laneQ = reg("data_q_" + i, bits(8));
                int lane = i;
                // One active-high clear per byte (a LUT2 shared by its 8 flip-flops); a bare
                // ~keep[i] would become one inverter per flip-flop after flip-flop legalisation.
                Bool clear = s.valid.andNot(keep.bit(i)).named("clear_" + i);
                when(clear, () -> laneQ.set(0)).otherwise(() -> laneQ.set(s.payload.data.byteAt(lane)));
                lanesQ.add(laneQ);
            }
            data = cat(lanesQ).named("data_q");
            Bool validQ = reg("in_valid_q", bool()).init(false);
            validQ.set(valid);
            Bool lastQ = reg("in_last_q", bool());
            lastQ.set(last);
            UInt padQ = reg("in_pad_q", uint(padBits));
            UInt padNow = padBytes(keep, lanes, padBits).named("pad_bytes");
            padQ.set(padNow);
            if (options.check()) {
                // the good register advanced over this beat's padding, chosen before the register
                goodQ = regNext(goodFromKeep(spec, keep, lanes, goodRegister(spec))).named("in_good_q");
            }
            valid = validQ;
            last = lastQ;
            pad = padQ;
        }
        Bits dataIn = data;

        // ---- state update: next = A*state ^ B*data, optionally with B*data registered ----
        Bits state = reg("state", bits(w)).init(spec.init());
        Bits next;
        Bits diff = null; // with check: next ^ the good register (padded), zero for a good frame
        int root = LUT_INPUTS;
        if (options.dataPipeline() == 0 && goodQ != null) {
            // next and next ^ goodQ from one network: the sub-sums are shared, only the roots differ
            Bits[] both = xorNetworks(step, c -> c < w ? state.bit(c) : dataIn.bit(c - w), "state_next",
                    LUT_INPUTS - 1, goodQ, "frame_diff");
            next = both[0];
            diff = both[1];
        } else if (options.dataPipeline() == 0) {
            next = xorNetwork(step, c -> c < w ? state.bit(c) : dataIn.bit(c - w), "state_next", root);
        } else {
            Bits dataTerm = xorNetwork(step.columns(w, w + dataWidth), dataIn::bit, "data_term", LUT_INPUTS);
            Bits dataTermQ = reg("data_term_q", bits(w));
            dataTermQ.set(dataTerm);
            Bool validQ = reg("data_valid_q", bool()).init(false);
            validQ.set(valid);
            Bool lastQ = reg("data_last_q", bool());
            lastQ.set(last);
            if (pad != null) {
                UInt padQ = reg("data_pad_q", uint(padBits));
                padQ.set(pad);
                pad = padQ;
            }
            valid = validQ;
            last = lastQ;
            Gf2Matrix fold = step.columns(0, w).concatColumns(Gf2Matrix.identity(w));
            if (goodQ != null) {
                Bits good = regNext(goodQ).named("data_good_q");
                Bits[] both = xorNetworks(fold, c -> c < w ? state.bit(c) : dataTermQ.bit(c - w), "state_next",
                        LUT_INPUTS - 1, good, "frame_diff");
                next = both[0];
                diff = both[1];
            } else {
                next = xorNetwork(fold, c -> c < w ? state.bit(c) : dataTermQ.bit(c - w), "state_next", root);
            }
        }
        if (options.check() && diff == null) {
            // whole words: the good register is a constant (an XOR with it is a few inverters)
            diff = next.xor(B(goodRegister(spec), w)).named("frame_diff");
        }
        Bits nextFinal = next;
        Bool validFinal = valid;
        Bits initValue = B(spec.init(), w);
        Bool frameEnd = valid.and(last).named("frame_end");
        // Reload before enable: the flip-flops' synchronous set/reset and clock enable do it,
        // no LUT level after the XOR network.
        when(frameEnd, () -> state.set(initValue)).elseWhen(validFinal, () -> state.set(nextFinal));

        // ---- output pipeline ----
        // Check: the frame is good when the register after its last beat equals the good register
        // (advanced over the padding: A8^p * good, a constant per p chosen before the input
        // register). One XOR network gives next ^ expected beside next (the sub-sums shared); the
        // first level of its zero detect (one LUT per 6 bits) is registered with the frame's end
        // and crc_ok is the AND of those few flip-flops, no cycle spent on capturing the register
        // first. Depth: the whole zero detect before the register was 5 + 2 = 7 levels at 1024
        // bits (the XOR network of 1,100 inputs per bit maps in 5), over the library's 6.
        // Value with the tail matrix: the first AND-XOR level of A8^-p * next (a ROM bit of p and a
        // bit of next per term) is registered with the frame's end, the XOR of those partials (two
        // levels) is the output, combinationally from the registers: the value a cycle earlier.
        int stages = 1;
        Bool outValid = frameEnd;
        Bits valueOut = null;
        Bits okGroups = null;
        Bits partialsValue = null;
        if (options.check()) {
            okGroups = zeroGroups(diff).named("frame_ok_groups");
        }
        if (options.value() && !tails) {
            // whole words: the register after the last beat is the answer
            valueOut = finish(spec, next);
        } else if (options.value() && options.tailMatrix()) {
            List<Bits> partials = unpadPartials(spec, next, pad, lanes);
            List<Bool> rows = new ArrayList<>();
            for (int r = w - 1; r >= 0; r--) {
                Bits pq = regNextWhen(partials.get(r), frameEnd).named("unpad_part_" + r);
                rows.add(pq.width() == 1 ? pq.bit(0) : pq.xorR());
            }
            partialsValue = finish(spec, cat(rows)).named("unpad_value");
        } else if (options.value()) {
            // tail correction in steps (tailMatrix off): the register after the last beat is
            // captured first, then log2(N) conditional steps, tailStepsPerCycle per stage
            Bits fin = regNext(next).named("frame_state");
            UInt finPad = regNext(pad).named("frame_pad");
            Bool finValid = reg("frame_valid", bool()).init(false);
            finValid.set(frameEnd);
            outValid = finValid;
            if (okGroups != null) {
                okGroups = regNext(okGroups).named("frame_ok_groups_q");
            }
            Bits c = fin;
            UInt sel = finPad;
            Gf2Matrix undo = CrcMatrices.zeroBytesAdvance(spec, 1).inverse();
            int steps = options.tailStepsPerCycle();
            for (int b = 0; b < padBits; b++) {
                Bits in = c;
                // The mux takes 2 inputs of each bit's last LUT.
                Bits stepped = xorNetwork(undo, in::bit, "unpad" + b, LUT_INPUTS - 2);
                c = mux(sel.bit(b), stepped, c).named("unpad" + b + "_out");
                undo = undo.multiply(undo);
                if (b < padBits - 1 && (b + 1) % steps == 0) {
                    Bool v = outValid;
                    c = regNext(c).named("unpad" + b + "_q");
                    sel = regNext(sel).named("unpad" + b + "_pad_q");
                    Bool vq = reg("unpad" + b + "_valid_q", bool()).init(false);
                    vq.set(v);
                    outValid = vq;
                    if (okGroups != null) {
                        okGroups = regNext(okGroups).named("unpad" + b + "_ok_groups_q");
                    }
                    stages++;
                }
            }
            valueOut = finish(spec, c);
            stages++;
        }
        Bool validQ = reg("crc_valid_q", bool()).init(false);
        validQ.set(outValid);
        crcValid.set(validQ);
        if (partialsValue != null) {
            crcValue.set(partialsValue);
        } else if (valueOut != null) {
            crcValue.set(regNextWhen(valueOut, outValid).named("crc_value_q"));
        }
        if (okGroups != null) {
            Bits okGroupsQ = regNextWhen(okGroups, outValid);
            okGroupsQ.named("crc_ok_groups_q");
            crcOk.set(okGroupsQ.andR());
        }
        assertInReset(validQ.not(), "crc_valid during reset");

        this.latency = (tails ? 1 : 0) + options.dataPipeline() + stages;
        latency(latency);
    }

    /** Cycles from a frame's last beat to its {@code crc_valid}. */
    public int latencyCycles() {
        return latency;
    }

    /**
     * Instantiates an engine that follows {@code stream}'s transfers (its {@code fire()}) in the
     * component being built; read the results from the returned engine's outputs.
     */
    public static CrcEngine tap(Stream<PacketBeat> stream, CrcSpec spec, Options options) {
        int width = stream.payload.dataWidth();
        CrcEngine e = instance(() -> new CrcEngine(spec, width, options));
        e.s.valid.set(stream.fire());
        assignLeaves(e.s.payload, stream.payload);
        return e;
    }

    /** The register value whose finished CRC is {@link CrcSpec#goodFrameCrc()}. */
    static long goodRegister(CrcSpec spec) {
        long v = spec.goodFrameCrc() ^ spec.xorOut();
        return spec.reflectOut() ? CrcSpec.reverse(v, spec.width()) : v;
    }

    /** Reflection and xorOut: the register as the CRC value. */
    static Bits finish(CrcSpec spec, Bits reg) {
        Bits v = reg;
        if (spec.reflectOut()) {
            List<Bool> bits = new ArrayList<>(v.width());
            for (int i = 0; i < v.width(); i++) {
                bits.add(reg.bit(i)); // bit 0 ends up most significant
            }
            v = cat(bits);
        }
        return spec.xorOut() != 0 ? v.xor(B(spec.xorOut(), spec.width())) : v;
    }

    /**
     * {@code A8^p * good} for the padding {@code p} of a contiguous {@code keep} (p = lanes - k for
     * k valid bytes), as an XOR of keep bits: with {@code t_x = (p >= x) = ~keep[lanes - x]} (a
     * thermometer code), {@code E(p) = E(0) ^ XOR over x of (E(x) ^ E(x-1)) & t_x}, which
     * telescopes to {@code E(lanes - 1) ^ M * keep} with column {@code lanes - x} of {@code M} the
     * difference {@code E(x) ^ E(x-1)}: a LUT-sized XOR network of keep bits, no padding count
     * and no ROM in between.
     */
    /** One bit per group of up to 6 bits of {@code bits}: set when the group is all zero (a LUT each). */
    private static Bits zeroGroups(Bits bits) {
        List<Bool> groups = new ArrayList<>();
        for (int hi = bits.width() - 1; hi >= 0; hi -= LUT_INPUTS) {
            groups.add(bits.slice(hi, Math.max(0, hi - LUT_INPUTS + 1)).eq(0));
        }
        return cat(groups);
    }

    private static Bits goodFromKeep(CrcSpec spec, Bits keep, int lanes, long good) {
        int w = spec.width();
        Gf2Matrix a8 = CrcMatrices.stateMatrix(spec, 8);
        long[] table = new long[lanes];
        long v = good;
        for (int p = 0; p < lanes; p++) {
            table[p] = v;
            v = a8.apply(v);
        }
        long[][] rows = new long[w][Gf2Matrix.words(lanes)];
        for (int x = 1; x < lanes; x++) {
            long delta = table[x] ^ table[x - 1];
            int col = lanes - x;
            for (int r = 0; r < w; r++) {
                if ((delta >>> r & 1) != 0) {
                    rows[r][col >>> 6] |= 1L << col;
                }
            }
        }
        Bits sum = xorNetwork(Gf2Matrix.ofRows(lanes, rows), keep::bit, "good_keep", LUT_INPUTS);
        long c = table[lanes - 1];
        return (c != 0 ? sum.xor(B(c, w)) : sum).named("good_padded");
    }

    /**
     * Bit {@code column[addr]} for the low {@code n} address bits, {@code column} starting at
     * {@code base}: a mux tree on the address bits with constant leaves (Shannon expansion,
     * constant subtrees folded). Every 6-address-bit subtree is one LUT for synthesis; a sum
     * of minterms instead leaves the mapper a wide OR to untangle (measured: 2x the LUTs).
     */
    static Bool romBit(UInt addr, int n, boolean[] column, int base) {
        int size = 1 << n;
        int ones = 0;
        for (int a = 0; a < size; a++) {
            ones += column[base + a] ? 1 : 0;
        }
        if (ones == 0) {
            return FALSE;
        }
        if (ones == size) {
            return TRUE;
        }
        Bool sel = addr.bit(n - 1);
        Bool hi = romBit(addr, n - 1, column, base + size / 2);
        Bool lo = romBit(addr, n - 1, column, base);
        if (hi == TRUE && lo == FALSE) {
            return sel;
        }
        if (hi == FALSE && lo == TRUE) {
            return sel.not();
        }
        return mux(sel, hi, lo);
    }

    /** {@code A8^-p} for every padding count {@code p} the {@code pad} field can hold (beyond lanes - 1: the last). */
    private static Gf2Matrix[] unpadByPad(CrcSpec spec, UInt pad, int lanes) {
        int w = spec.width();
        Gf2Matrix undo = CrcMatrices.zeroBytesAdvance(spec, 1).inverse();
        // entries beyond lanes - 1 never occur: the ROM's default is the last padding's matrix
        int paddings = Math.min(lanes, 1 << pad.width());
        Gf2Matrix[] byPad = new Gf2Matrix[paddings];
        Gf2Matrix m = Gf2Matrix.identity(w);
        for (int p = 0; p < paddings; p++) {
            byPad[p] = m;
            m = undo.multiply(m);
        }
        return byPad;
    }

    /**
     * The entries of {@code A8^-p} that differ between paddings, from one case ROM on {@code pad}
     * ({@code unpad_rom}, a word per padding; null when none differs); {@code romIndex[r][j]} is
     * the entry's bit in the word, -1 for an entry that is the same for every padding (then
     * {@code byPad[0]} has it). Why a ROM and not a mux tree per entry ({@link #romBit}): at 1024
     * bits the 1024 trees made a 2 MB module that Icarus took 3 minutes to compile (0.2 s as a
     * case); synthesis maps each entry to the same 7-input function either way.
     */
    private static Bits unpadRom(Gf2Matrix[] byPad, int w, UInt pad, int[][] romIndex) {
        int paddings = byPad.length;
        int romBits = 0;
        for (int r = 0; r < w; r++) {
            for (int j = 0; j < w; j++) {
                boolean first = byPad[0].get(r, j);
                boolean varies = false;
                for (int p = 1; p < paddings && !varies; p++) {
                    varies = byPad[p].get(r, j) != first;
                }
                romIndex[r][j] = varies ? romBits++ : -1;
            }
        }
        if (romBits == 0) {
            return null;
        }
        Bits word = wire("unpad_rom", bits(romBits));
        int width = romBits;
        switchOn(pad, table -> {
            for (int p = 0; p < paddings; p++) {
                BigInteger value = BigInteger.ZERO;
                for (int r = 0; r < w; r++) {
                    for (int j = 0; j < w; j++) {
                        if (romIndex[r][j] >= 0 && byPad[p].get(r, j)) {
                            value = value.setBit(romIndex[r][j]);
                        }
                    }
                }
                Bits entry = B(value, width);
                if (p < paddings - 1) {
                    table.is(p, () -> word.set(entry));
                } else {
                    table.otherwise(() -> word.set(entry));
                }
            }
        });
        return word;
    }

    /**
     * The first AND-XOR level of {@code A8^-p * c} for the runtime padding count {@code pad}: per
     * output bit (index r of the list) the XOR of groups of its terms {@code M_p(r, j) & c[j]},
     * each group one 6-input LUT (a ROM term takes two inputs, its ROM bit and {@code c[j]}, a
     * constant-1 term one); the XOR of a row's groups is the row of the product. The ROM is
     * {@link #unpadRom}'s.
     */
    private static List<Bits> unpadPartials(CrcSpec spec, Bits c, UInt pad, int lanes) {
        int w = spec.width();
        Gf2Matrix[] byPad = unpadByPad(spec, pad, lanes);
        int[][] romIndex = new int[w][w];
        Bits rom = unpadRom(byPad, w, pad, romIndex);
        List<Bits> rows = new ArrayList<>(w);
        for (int r = 0; r < w; r++) {
            List<Bool> groups = new ArrayList<>();
            List<Bool> terms = new ArrayList<>();
            int inputs = 0;
            for (int j = 0; j < w; j++) {
                int cost = romIndex[r][j] >= 0 ? 2 : byPad[0].get(r, j) ? 1 : 0;
                if (cost == 0) {
                    continue;
                }
                if (inputs + cost > LUT_INPUTS) {
                    groups.add(terms.size() == 1 ? terms.get(0) : cat(terms).xorR());
                    terms = new ArrayList<>();
                    inputs = 0;
                }
                terms.add(cost == 2 ? rom.bit(romIndex[r][j]).and(c.bit(j)) : c.bit(j));
                inputs += cost;
            }
            if (!terms.isEmpty()) {
                groups.add(terms.size() == 1 ? terms.get(0) : cat(terms).xorR());
            }
            if (groups.isEmpty()) {
                groups.add(FALSE);
            }
            List<Bits> msbFirst = new ArrayList<>();
            for (int g = groups.size() - 1; g >= 0; g--) {
                msbFirst.add(groups.get(g).asBits());
            }
            rows.add(cat(msbFirst).named("unpad_grp_" + r));
        }
        return rows;
    }

    /** OR of {@code terms} as a balanced tree. */
    private static Bool orTree(List<Bool> terms) {
        if (terms.isEmpty()) {
            return FALSE;
        }
        List<Bool> level = terms;
        while (level.size() > 1) {
            List<Bool> up = new ArrayList<>((level.size() + 1) / 2);
            for (int i = 0; i < level.size(); i += 2) {
                up.add(i + 1 < level.size() ? level.get(i).or(level.get(i + 1)) : level.get(i));
            }
            level = up;
        }
        return level.get(0);
    }

    /**
     * Number of invalid bytes {@code p = N - k} of a beat whose {@code keep} holds {@code k >= 1}
     * contiguous ones: {@code p >= x} exactly when {@code keep[N-x]} is clear, so bit {@code b} of
     * {@code p} is an OR of two-literal terms over the thermometer code.
     */
    private static UInt padBytes(Bits keep, int lanes, int padBits) {
        List<Bool> bits = new ArrayList<>();
        for (int b = padBits - 1; b >= 0; b--) {
            int unit = 1 << b;
            List<Bool> terms = new ArrayList<>();
            // p in [(2j+1)*unit, (2j+2)*unit): bit b set
            for (int lo = unit; lo < lanes; lo += 2 * unit) {
                int hi = lo + unit; // exclusive
                Bool atLeastLo = keep.bit(lanes - lo).not();
                terms.add(lanes - hi <= 0 ? atLeastLo : atLeastLo.and(keep.bit(lanes - hi)));
            }
            bits.add(orTree(terms));
        }
        return cat(bits).asUInt();
    }

    /**
     * {@code m * inputs}: output bit {@code r} is the XOR of the inputs row {@code r} selects, built
     * as the {@link XorPlan} for 6-input LUTs (sub-sums shared between outputs, never deeper than a
     * flat XOR tree, each output's last XOR taking at most {@code rootInputs} operands). Shared and
     * intermediate sums are wires {@code <name>_x<j>}, output bits {@code <name>_<r>};
     * {@code input.apply(c)} makes a fresh bit select of column {@code c} for every use, so the
     * SystemVerilog reads {@code ^{state[3], data_q[17], ...}}.
     */
    static Bits xorNetwork(Gf2Matrix m, IntFunction<Bool> input, String name, int rootInputs) {
        return xorNetworks(m, input, name, rootInputs, null, null)[0];
    }

    /**
     * {@link #xorNetwork} and, with {@code extra}, a second output {@code m * inputs ^ extra}: the
     * same plan (planned with at most {@code rootInputs} operands per root, so the second root
     * has room for the extra bit), the same shared sub-sums, one more root per output bit. Returns
     * {plain, with extra} (the second null without extra); the second output's bits are
     * {@code <name2>_<r>}.
     */
    static Bits[] xorNetworks(Gf2Matrix m, IntFunction<Bool> input, String name, int rootInputs, Bits extra,
            String name2) {
        XorPlan plan = XorPlan.shared(m, LUT_INPUTS, SHARING_ROUNDS, rootInputs);
        int inputs = plan.inputs();
        List<Bool> nodes = new ArrayList<>(plan.nodes().size());
        IntFunction<Bool> operand = o -> o < inputs ? input.apply(o) : nodes.get(o - inputs);
        for (int[] ops : plan.nodes()) {
            nodes.add(xorOf(ops, operand).named(name + "_x" + nodes.size()));
        }
        List<Bool> outs = new ArrayList<>();
        List<Bool> outs2 = new ArrayList<>();
        for (int r = m.rows() - 1; r >= 0; r--) {
            int[] ops = plan.rowOperands(r);
            Bool bit = xorOf(ops, operand);
            if (ops.length > 1) {
                bit = bit.named(name + "_" + r);
            }
            outs.add(bit);
            if (extra != null) {
                int[] ops2 = Arrays.copyOf(ops, ops.length + 1);
                ops2[ops.length] = -1;
                int row = r;
                outs2.add(xorOf(ops2, o -> o < 0 ? extra.bit(row) : operand.apply(o)).named(name2 + "_" + r));
            }
        }
        Bits out = cat(outs);
        Bits out2 = extra == null ? null : cat(outs2).named(name2);
        return new Bits[] {outs.size() > 1 ? out.named(name) : out, out2};
    }

    private static Bool xorOf(int[] ops, IntFunction<Bool> operand) {
        if (ops.length == 0) {
            return FALSE;
        }
        if (ops.length == 1) {
            return operand.apply(ops[0]);
        }
        List<Bool> parts = new ArrayList<>(ops.length);
        for (int i = ops.length - 1; i >= 0; i--) {
            parts.add(operand.apply(ops[i]));
        }
        return cat(parts).xorR();
    }
}
