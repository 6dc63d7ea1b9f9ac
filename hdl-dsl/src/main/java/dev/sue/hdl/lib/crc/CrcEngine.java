package dev.sue.hdl.lib.crc;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Component;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.stream.Flow;
import dev.sue.hdl.lib.stream.PacketBeat;
import dev.sue.hdl.lib.stream.Stream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Parallel CRC engine over a packet stream with byte-granular ends: one CRC per frame.
 *
 * <h2>Parameters</h2>
 * <ul>
 *   <li>{@code spec}: the CRC ({@link CrcSpec}: any width 1..32, polynomial, reflection, init,
 *       xorOut), e.g. {@link CrcSpec#CRC32} for the Ethernet FCS.</li>
 *   <li>{@code dataWidth}: bus width in bits, 8..2048, a multiple of 8 ({@code N = dataWidth/8}
 *       byte lanes).</li>
 *   <li>{@code byteTails}: true (the default use) honours {@code keep} on the last beat, so frames
 *       may have any byte length; false accepts whole words only ({@code keep} must be all ones)
 *       and saves the tail logic.</li>
 *   <li>{@code dataPipeline}: 0 or 1. With 1, the data term {@code B*data} is registered before it
 *       meets the state, so the feedback loop holds only the {@code width x width} state term
 *       (plus one XOR input) and wide buses close timing; costs one cycle of latency and
 *       {@code width} flip-flops.</li>
 *   <li>{@code tailStepsPerCycle}: 1..8 (default {@value #DEFAULT_TAIL_STEPS}); how many of the
 *       {@code log2(N)} tail-correction steps share one pipeline stage (see below). Fewer steps
 *       per cycle: shorter logic paths, more latency.</li>
 * </ul>
 *
 * <h2>Ports</h2>
 * <ul>
 *   <li>{@code s} (in, {@link Flow} of {@link PacketBeat}: {@code s_valid}, {@code s_data},
 *       {@code s_keep}, {@code s_last}): the beats of the frames, one beat per cycle with
 *       {@code s_valid}; there is no back-pressure (to follow a {@link Stream}, drive
 *       {@code s_valid} with its {@code fire()}: see {@link #tap}). Byte 0 ({@code data[7:0]})
 *       is the first on the wire. Every beat but the last has all {@code keep} bits set; the
 *       last beat's {@code keep} is contiguous from bit 0 with at least bit 0 set (1..N valid
 *       bytes). Invalid bytes may hold anything.</li>
 *   <li>{@code crc} (out, {@link Flow} of {@code Bits(width)}: {@code crc_valid},
 *       {@code crc_payload}): one pulse per frame, in frame order, {@link #latencyCycles()} cycles after
 *       the frame's last beat; the payload is the final CRC (after {@code reflectOut} and
 *       {@code xorOut}), equal to e.g. {@code zlib.crc32(frame)} for CRC-32, and holds its value
 *       until the next result.</li>
 * </ul>
 *
 * <h2>How it works</h2>
 * Every beat does {@code state = A*state ^ B*(data & keep)} with XOR matrices computed in Java
 * ({@link CrcMatrices}); the last beat reloads {@code init} for the next frame and hands the
 * updated state to the output pipeline. A last beat with {@code k < N} valid bytes is processed
 * as a full word whose {@code p = N-k} invalid bytes are zeroed: that is the wanted state advanced
 * over {@code p} zero bytes, {@code A8^p * wanted}. The output pipeline undoes the padding by
 * multiplying with {@code A8^-p} (it exists because the polynomial has the {@code x^0} term),
 * built as {@code log2(N)} conditional steps {@code c = p[b] ? A8^-(2^b) * c : c}. So the tail
 * costs one AND per data bit (the mask, which synthesis folds into the XOR tree's first level)
 * and about {@code 4*width} LUTs per step, all outside the feedback loop; no per-length data
 * matrices and no data shifter. Frames may end on every beat, back to back.
 *
 * <h2>Latency</h2>
 * {@code dataPipeline + 1} cycles without tail correction ({@code byteTails} false or
 * {@code N == 1}), else {@code dataPipeline + 1 + ceil(log2(N) / tailStepsPerCycle)}: the
 * {@code crc} result of a frame whose last beat is accepted in cycle {@code t} is valid in
 * cycle {@code t + latency}. Declared with {@code latency(n)}.
 *
 * <h2>Using it for an Ethernet FCS</h2>
 * TX: run the engine over the frame's bytes (without FCS) and append
 * {@link CrcSpec#appendBytes} of {@code crc_payload} (least significant byte first for CRC-32);
 * the appender holds the frame's last beat for {@code latencyCycles()} cycles. RX: run it over the
 * whole frame including the received FCS; the frame is good when {@code crc_payload} equals
 * {@link CrcSpec#goodFrameCrc()} (0x2144DF1C for CRC-32), so the FCS never has to be located.
 */
public final class CrcEngine extends Component {
    /** Steps of the tail correction per pipeline stage by default: two steps are about 4 LUT levels. */
    public static final int DEFAULT_TAIL_STEPS = 2;

    /** Input beats (no back-pressure). */
    public final Flow<PacketBeat> s;
    /** One CRC per frame. */
    public final Flow<Bits> crc;

    private final int latency;

    /** An engine with the default tail-correction pipelining. */
    public CrcEngine(CrcSpec spec, int dataWidth, boolean byteTails, int dataPipeline) {
        this(spec, dataWidth, byteTails, dataPipeline, DEFAULT_TAIL_STEPS);
    }

    public CrcEngine(CrcSpec spec, int dataWidth, boolean byteTails, int dataPipeline, int tailStepsPerCycle) {
        require(spec != null, "spec must be a CrcSpec, e.g. CrcSpec.CRC32");
        param("crc", spec.name());
        param("crcWidth", spec.width());
        param("polynomial", String.format("0x%X", spec.polynomial()));
        param("reflectIn", spec.reflectIn());
        param("reflectOut", spec.reflectOut());
        param("init", String.format("0x%X", spec.init()));
        param("xorOut", String.format("0x%X", spec.xorOut()));
        param("dataWidth", dataWidth);
        param("byteTails", byteTails);
        param("dataPipeline", dataPipeline);
        param("tailStepsPerCycle", tailStepsPerCycle);
        require(dataWidth >= 8 && dataWidth <= 2048 && dataWidth % 8 == 0,
                "dataWidth must be a multiple of 8 in 8..2048, got " + dataWidth);
        require(dataPipeline == 0 || dataPipeline == 1, "dataPipeline must be 0 or 1, got " + dataPipeline);
        require(tailStepsPerCycle >= 1 && tailStepsPerCycle <= 8,
                "tailStepsPerCycle must be 1..8, got " + tailStepsPerCycle);

        final int w = spec.width();
        final int lanes = dataWidth / 8;
        final boolean correct = byteTails && lanes > 1;
        final int padBits = correct ? log2Up(lanes) : 0;

        s = slave(Flow.of(() -> new PacketBeat(dataWidth)));
        crc = master(Flow.of(() -> bits(w)));

        Gf2Matrix step = CrcMatrices.step(spec, dataWidth);
        Bits initValue = B(spec.init(), w);

        // ---- input checks (simulation only) ----
        Bits keep = s.payload.keep;
        Bool keepFull = keep.andR();
        if (byteTails) {
            Bool contiguous = keep.bit(0).and(keep.asUInt().and(keep.asUInt().add(1)).eq(0));
            assertThat(s.valid.not().or(contiguous),
                    "s_keep must be contiguous from byte 0 with at least byte 0 set");
            assertThat(s.valid.not().or(s.payload.last).or(keepFull), "s_keep must be all ones except on the last beat");
        } else {
            assertThat(s.valid.not().or(keepFull), "byteTails=false takes whole words only: s_keep must be all ones");
        }

        // ---- data term: B * (data & keep), optionally registered ----
        Bits data = s.payload.data;
        if (correct) {
            List<Bits> laneMasks = new ArrayList<>();
            for (int i = lanes - 1; i >= 0; i--) {
                laneMasks.add(repeat(keep.bit(i), 8));
            }
            data = data.and(cat(laneMasks)).named("data_masked");
        }
        Bits dataIn = data;
        UInt pad = correct ? padBytes(keep, lanes, padBits).named("pad_bytes") : null;

        Bool valid = s.valid;
        Bool last = s.payload.last;
        Bits state = reg("state", bits(w)).init(spec.init());
        Bits next;
        if (dataPipeline == 0) {
            next = xorNetwork(step, c -> c < w ? state.bit(c) : dataIn.bit(c - w), "state_next");
        } else {
            Bits dataTerm = xorNetwork(step.columns(w, w + dataWidth), dataIn::bit, "data_term");
            Bits dataTermQ = reg("data_term_q", bits(w));
            dataTermQ.set(dataTerm);
            Bool validQ = reg("valid_q", bool()).init(false);
            validQ.set(valid);
            Bool lastQ = reg("last_q", bool());
            lastQ.set(last);
            if (pad != null) {
                UInt padQ = reg("pad_bytes_q", uint(padBits));
                padQ.set(pad);
                pad = padQ;
            }
            valid = validQ;
            last = lastQ;
            next = xorNetwork(step.columns(0, w).concatColumns(Gf2Matrix.identity(w)),
                    c -> c < w ? state.bit(c) : dataTermQ.bit(c - w), "state_next");
        }
        Bits nextFinal = next;
        Bool valid1 = valid;
        Bool last1 = last;
        when(valid1, () -> state.set(mux(last1, initValue, nextFinal)));
        Bool frameEnd = valid.and(last).named("frame_end");

        // ---- output pipeline: tail correction, reflection, xorOut ----
        Bits value = next;
        Bool outValid = frameEnd;
        UInt sel = pad;
        int stages = 0;
        if (correct) {
            Bits fin = regNextWhen(next, frameEnd).named("frame_state");
            UInt finPad = regNextWhen(pad, frameEnd).named("frame_pad");
            Bool finValid = reg("frame_state_valid", bool()).init(false);
            finValid.set(frameEnd);
            value = fin;
            sel = finPad;
            outValid = finValid;
            stages = 1;
            Gf2Matrix undo = CrcMatrices.zeroBytesAdvance(spec, 1).inverse();
            for (int b = 0; b < padBits; b++) {
                // undo 2^b padding bytes when bit b of the padding count is set
                Bits in = value;
                Bits stepped = xorNetwork(undo, in::bit, "unpad" + b);
                value = mux(sel.bit(b), stepped, value).named("unpad" + b + "_out");
                undo = undo.multiply(undo);
                boolean lastStep = b == padBits - 1;
                if (!lastStep && (b + 1) % tailStepsPerCycle == 0) {
                    Bool v = outValid;
                    value = regNextWhen(value, v).named("unpad" + b + "_q");
                    sel = regNextWhen(sel, v).named("unpad" + b + "_pad_q");
                    Bool vq = reg("unpad" + b + "_valid_q", bool()).init(false);
                    vq.set(v);
                    outValid = vq;
                    stages++;
                }
            }
        }
        Bits result = value;
        if (spec.reflectOut()) {
            result = reversed(result);
        }
        if (spec.xorOut() != 0) {
            result = result.xor(B(spec.xorOut(), w));
        }
        Bits crcQ = regNextWhen(result, outValid).named("crc_q");
        Bool crcValidQ = reg("crc_valid_q", bool()).init(false);
        crcValidQ.set(outValid);
        stages++;
        crc.valid.set(crcValidQ);
        crc.payload.set(crcQ);
        assertInReset(crcValidQ.not(), "crc_valid during reset");

        this.latency = dataPipeline + stages;
        latency(latency);
    }

    /** Cycles from a frame's last beat to its {@code crc_valid}. */
    public int latencyCycles() {
        return latency;
    }

    /**
     * Instantiates an engine that follows {@code stream}'s transfers (its {@code fire()}) in the
     * component being built; read the result from the returned engine's {@link #crc}.
     */
    public static CrcEngine tap(Stream<PacketBeat> stream, CrcSpec spec, boolean byteTails, int dataPipeline) {
        int width = stream.payload.dataWidth();
        CrcEngine e = instance(() -> new CrcEngine(spec, width, byteTails, dataPipeline));
        e.s.valid.set(stream.fire());
        assignLeaves(e.s.payload, stream.payload);
        return e;
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
            Bool acc = null;
            // p in [(2j+1)*unit, (2j+2)*unit): bit b set
            for (int lo = unit; lo < lanes; lo += 2 * unit) {
                int hi = lo + unit; // exclusive
                Bool atLeastLo = keep.bit(lanes - lo).not();
                Bool term = lanes - hi <= 0 ? atLeastLo : atLeastLo.and(keep.bit(lanes - hi));
                acc = acc == null ? term : acc.or(term);
            }
            bits.add(acc == null ? FALSE : acc);
        }
        return cat(bits).asUInt();
    }

    /**
     * Each output bit {@code r} is the XOR of the inputs that row {@code r} of {@code m} selects;
     * {@code input.apply(c)} makes a fresh bit select of column {@code c} for every use, so the
     * emitted SystemVerilog reads {@code ^{state[3], data[17], ...}} without temporaries.
     */
    static Bits xorNetwork(Gf2Matrix m, IntFunction<Bool> input, String name) {
        List<Bool> outs = new ArrayList<>();
        for (int r = m.rows() - 1; r >= 0; r--) {
            int[] terms = m.rowTerms(r);
            Bool bit;
            if (terms.length == 0) {
                bit = FALSE;
            } else if (terms.length == 1) {
                bit = input.apply(terms[0]);
            } else {
                List<Bool> sel = new ArrayList<>(terms.length);
                for (int i = terms.length - 1; i >= 0; i--) {
                    sel.add(input.apply(terms[i]));
                }
                bit = cat(sel).xorR().named(name + "_" + r);
            }
            outs.add(bit);
        }
        return cat(outs).named(name);
    }

    private static Bits reversed(Bits v) {
        List<Bool> out = new ArrayList<>(v.width());
        for (int i = 0; i < v.width(); i++) {
            out.add(v.bit(i)); // bit 0 ends up most significant
        }
        return cat(out);
    }
}
