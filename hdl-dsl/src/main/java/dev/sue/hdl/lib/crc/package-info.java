// SPDX-License-Identifier: Apache-2.0
/**
 * Parallel CRC for packet streams: {@link dev.sue.hdl.lib.crc.CrcSpec} (any CRC of width 1..32
 * in the catalogue parameter model, presets {@code CRC32} and {@code CRC32C}),
 * {@link dev.sue.hdl.lib.crc.CrcMatrices} (the XOR matrices, computed at elaboration by running
 * the bit-serial algorithm symbolically over GF(2)), {@link dev.sue.hdl.lib.crc.XorPlan}
 * (LUT-sized XOR networks that share sub-sums between outputs) and
 * {@link dev.sue.hdl.lib.crc.CrcEngine} (the engine: any bus width 8..2048, frames of any byte
 * length, one result per frame; see its Javadoc for ports, protocol and latency),
 * {@link dev.sue.hdl.lib.crc.CrcAppender} (appends the CRC to each packet; optional fast-CRC input
 * for one-beat packets) and {@link dev.sue.hdl.lib.crc.CrcWindow} (the CRC of a short message
 * given whole in a fixed window, latency 1 whatever its length: the fast path).
 *
 * <p><b>Short messages: a fixed window and a trailing-zero undo.</b> A one-beat packet would
 * wait for the engine's byte-tail correction (5-6 cycles). {@code CrcWindow} runs one fixed XOR
 * network over the whole window and multiplies by {@code A8^-t} for the {@code t} trailing zero
 * bytes, a 32 x 32 matrix read from a ROM by {@code t} and applied as an AND-XOR whose first level
 * is registered with the network's output (32 x 11 flip-flops, not the 1,024 of a registered
 * matrix). Measured: 22-byte window (the 512-bit SUE framer's) 1,576 LUTs, 353 FFs, 4 levels;
 * 86-byte window (1024 bits) 3,158 LUTs, 353 FFs, 5 levels, the value engine's depth.
 *
 * <h2>Design choices and what was measured</h2>
 * All figures: yosys 0.23 {@code synth_xilinx -flatten -noiopad -noclkbuf -nowidelut}, CRC-32,
 * LUTs counted as LUT1..6 + INV + SRL, depth in LUT levels (see
 * {@code verif/bench/synth_bench.py}; {@code make bench} reproduces the engine's rows).
 *
 * <p><b>XOR networks: shared, not flat.</b> A flat network (each output bit one XOR tree)
 * of the 512-bit CRC-32 step maps to 2,638 LUTs, 4 levels (with yosys' default wide-LUT mapping
 * 4,603 LUTs + 3,066 MUXF7/8, 9 cells deep). The rows of a CRC matrix are dense and highly
 * correlated, so {@link dev.sue.hdl.lib.crc.XorPlan} first extracts groups of up to 6 inputs
 * used together by several outputs (greedy, in rounds by logic level, never deeper than the
 * flat tree), then builds each output as a 6-ary tree: 779 gates planned instead of 1,708, and
 * the whole engine for whole words maps to 910 LUTs, 4 levels (1,600 LUTs at 1024 bits).
 * The reference flat 512-bit engine is about 2,300 LUTs.
 *
 * <p><b>Byte tails: zero padding undone, not per-length matrices.</b> Three ways were built and
 * measured:
 * <ul>
 *   <li>per-tail-length matrices selected by {@code keep} ({@code A(8k)*s ^ B(8k)*d} for every
 *       k, shared networks): 1,281 / 3,628 / 11,169 LUTs at 64 / 128 / 256 bits, quadratic in the
 *       width (the chosen design: 516 / 785 / 1,159);</li>
 *   <li>zero the invalid bytes and undo the padding afterwards: a last beat with {@code p}
 *       invalid bytes gives {@code A8^p} times the wanted register, and {@code A8} is invertible
 *       (the polynomial has the {@code x^0} term). This keeps one data network for all beats;
 *       the undo runs outside the feedback loop (the chosen design);</li>
 *   <li>the data shifter alternative (right-align the last beat, correct the state) needs a
 *       W-bit byte barrel shifter (about W*log4(N) LUTs) plus the same state correction: not
 *       built.</li>
 * </ul>
 * How the invalid bytes are zeroed matters more than the undo: ANDing each data bit with its
 * {@code keep} bit in front of the network breaks the sharing (the gates no longer fit one LUT)
 * and costs 2,599 LUTs at 512 bits; the engine instead registers the beat and clears the
 * invalid bytes through the flip-flops' synchronous reset (an FDRE's R pin; one LUT2 per byte
 * for the clear signal): 512 flip-flops and one cycle instead of about 1,650 LUTs.
 *
 * <p><b>Undoing the padding ({@code crc_value}).</b> {@code A8^-p} for {@code p} in
 * {@code 0..N-1} as {@code log2(N)} conditional steps {@code p[b] ? A8^-(2^b) * c : c}, each
 * planned as a shared network whose last gate leaves two LUT inputs for the mux (2 levels,
 * 40-120 gates per step). Measured alternatives for the 6 steps of a 512-bit bus: one 4-way
 * or 8-way selection per 2 or 3 steps (975 / 1,545 LUTs), every bit as {@code XOR_j x_j &
 * rom_ij(p)} (1,318 LUTs, 4 levels), a ROM of {@code x^-8p mod P} and a carry-less 32x32
 * multiplier with reduction (880-910 LUTs), against about 730 for the binary steps. The value
 * engine at 512 bits: 1,727 LUTs, 682 FFs, latency 5 (2 steps per stage; yosys maps that stage
 * at 5 levels, although planned at 4), or 1,780 LUTs, 4 levels, latency 8 with one step per
 * stage. Since session 10 the default ({@code tailMatrix}) is the ROM matrix in one stage:
 * latency 3 at every width (5 at 512 bits, 6 at 1024 with two steps per stage); yosys: 2,230 LUTs,
 * 624 FFs, 4 levels at 512 bits, 3,743 LUTs, 1,138 FFs, 5 levels at 1024 (the matrix product
 * from {@code frame_pad}). A TX appender holds a frame's last beat for the engine's latency, so
 * every cycle of it is a cycle of transmit latency (the R-CRC and FCS appenders of SUE). Since
 * session 15 the product starts on the register's next value in the last beat's cycle, its
 * first AND-XOR level registered ({@code unpad_part_<r>}, 11 partials per bit for CRC-32) and
 * XORed on the way out: latency 2; yosys at 512 bits 3,031 LUTs, 1,334 FFs, 5 levels (the state
 * network's 4 and the first product level), against 2,152 LUTs, 1,053 FFs, 4 levels for the
 * capture stage of latency 3 measured the same day.
 *
 * <p><b>Checking an FCS ({@code crc_ok}) needs no undo.</b> A receiver only asks whether the
 * frame (with its FCS) leaves the good-frame residue: with padding, the register must equal
 * {@code A8^p * good}, a constant per {@code p} (a ROM of N x 32 bits, about one LUT per bit
 * per 64 entries). At 512 bits the check engine is 1,044 LUTs, 4 levels, latency 3 (1,885 LUTs
 * at 1024 bits), so an RX FCS checker costs little more than a whole-word CRC. Since session 15
 * the expected value is an XOR of keep bits (keep is a thermometer code of {@code p}: the
 * constants telescope), registered with the beat, and {@code next ^ expected} comes from extra
 * roots of the state network (planned with one root input free), zero-detected into
 * {@code crc_ok}: latency 2; yosys at 512 bits 1,159 LUTs, 580 FFs, 6 levels (the state network's
 * 4 and the zero detect's 2: the library's budget).
 *
 * <p><b>Interface for the Ethernet blocks.</b> The engine is a sink on the beats that transfer
 * (a {@code Flow}; {@link dev.sue.hdl.lib.crc.CrcEngine#tap} follows a {@code Stream}'s
 * {@code fire()}) and gives one result per frame, in order, a fixed number of cycles after the
 * frame's last beat, with no back-pressure (at most one frame ends per beat). A TX FCS inserter
 * delays its beats by that latency and appends {@code CrcSpec.appendBytes(crc_value)}; an RX
 * checker runs the engine over the whole frame, FCS included, and uses {@code crc_ok}.
 */
package dev.sue.hdl.lib.crc;
