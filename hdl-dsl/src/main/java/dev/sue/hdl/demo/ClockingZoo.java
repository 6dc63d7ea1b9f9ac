// SPDX-License-Identifier: Apache-2.0
package dev.sue.hdl.demo;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.ClockDomain;
import dev.sue.hdl.Component;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import java.math.BigInteger;

/**
 * Clocking semantics in one design: registers with and without reset in two unrelated
 * clock domains, a clock enable, a memory with byte-enable writes and synchronous and
 * asynchronous reads, {@code regNext}/{@code regNextWhen}, and two-flop synchronisers
 * carrying a toggle bit each way between the domains. A testbench with two clocks checks
 * it against a cycle model.
 *
 * <h2>Parameters</h2>
 * {@code width} (W, a multiple of 8): data width; {@code memDepth} (D, at least 2, need not be
 * a power of two): words of the main memory. Reset values: {@code ACC_INIT} = 0xA5 repeated,
 * {@code AUX_ACC_INIT} = 0x3C repeated (W bits).
 *
 * <h2>Default domain</h2> ({@code clk}, synchronous active-high {@code rst})
 * <ul>
 *   <li>{@code a_count}: UInt(8), reset 0, +1 on every edge with {@code a_en};</li>
 *   <li>{@code a_acc}: UInt(W), reset {@code ACC_INIT}, XORs in {@code a_in} when {@code a_en};</li>
 *   <li>{@code a_toggle}: reset 0, inverts when {@code a_en} (source of the a-to-aux synchroniser);</li>
 *   <li>{@code a_en_delayed}: {@code regNext(a_en)} (register {@code a_en_d1}) with reset 0;</li>
 *   <li>{@code a_in_delayed}: {@code regNext(a_in)}, no reset; {@code a_in_held}:
 *       {@code regNextWhen(a_in, a_en)} (register {@code a_in_reg}), no reset;</li>
 *   <li>memory {@code mem} (D x W): write {@code m_wdata} at {@code m_waddr} when {@code m_we}, byte lane
 *       i only when {@code m_wbe[i]}; {@code m_rdata} = word at {@code m_raddr} one edge after
 *       {@code m_ren} (holds otherwise; a read of the word being written returns the old word);
 *       {@code m_adata} = word at {@code m_araddr}, combinationally;</li>
 *   <li>{@code aux_toggle_sync}: {@code aux_toggle} through a {@link TwoFlopSync} in this domain;</li>
 *   <li>memory {@code lit_mem} (4 x W) with two write ports at {@code l_addr}: {@code a_in} in the lanes
 *       {@code m_wbe} selects when {@code l_we}; else, when {@code l_lit}, the literal {@code LIT_DATA}
 *       (byte i = 0xC0 + i) in the even lanes (literal byte enable 0b..0101). {@code l_rdata} is the
 *       word at {@code l_addr}, combinationally. (Literals as byte-lane write data and enables.)</li>
 * </ul>
 *
 * <h2>Domain {@code aux}</h2> ({@code aux_clk}, asynchronous active-low {@code aux_rst_n}, clock
 * enable {@code aux_ce}; inputs {@code aux_*} are synchronous to it). Every register and memory
 * port here changes only on edges where {@code aux_ce} is 1; the reset acts at once,
 * without an edge and regardless of {@code aux_ce}.
 * <ul>
 *   <li>{@code aux_count}: UInt(8), reset 0, +1 when {@code aux_en};</li>
 *   <li>{@code aux_acc}: UInt(W), reset {@code AUX_ACC_INIT}, adds {@code aux_in} when {@code aux_en};</li>
 *   <li>{@code aux_toggle}: reset 0, inverts when {@code aux_en};</li>
 *   <li>{@code aux_in_delayed}: {@code regNext(aux_in)}, no reset;</li>
 *   <li>memory {@code aux_mem} (4 x W): writes {@code aux_in} at {@code aux_waddr} when {@code aux_we};
 *       {@code aux_rdata} is the word at {@code aux_raddr}, registered (read enable always on);</li>
 *   <li>{@code a_toggle_sync}: {@code a_toggle} through a {@link TwoFlopSync} in this domain.</li>
 * </ul>
 */
public final class ClockingZoo extends Component {
    public final Bool aEn = in(bool());
    public final UInt aIn;
    public final UInt aCount = out(uint(8));
    public final UInt aAcc;
    public final Bool aToggle = out(bool());
    public final Bool aEnDelayed = out(bool());
    public final UInt aInDelayed;
    public final UInt aInHeld;

    public final UInt mWaddr;
    public final Bits mWdata;
    public final Bool mWe = in(bool());
    public final Bits mWbe;
    public final UInt mRaddr;
    public final Bool mRen = in(bool());
    public final UInt mAraddr;
    public final Bits mRdata;
    public final Bits mAdata;
    public final Bool auxToggleSync = out(bool());
    public final UInt lAddr = in(uint(2));
    public final Bool lWe = in(bool());
    public final Bool lLit = in(bool());
    public final Bits lRdata;

    public final Bool auxEn;
    public final UInt auxIn;
    public final UInt auxWaddr;
    public final Bool auxWe;
    public final UInt auxRaddr;
    public final UInt auxCount = out(uint(8));
    public final UInt auxAcc;
    public final Bool auxToggle = out(bool());
    public final UInt auxInDelayed;
    public final Bits auxRdata;
    public final Bool aToggleSync = out(bool());

    private final Mem<Bits> mem;
    private final Mem<Bits> litMem;
    private final Mem<Bits> auxMem;
    private final TwoFlopSync toDefault;
    private final TwoFlopSync toAux;

    public ClockingZoo(int width, int memDepth) {
        param("width", width);
        param("memDepth", memDepth);
        require(width >= 8 && width % 8 == 0, "width must be a positive multiple of 8, got " + width);
        require(memDepth >= 2, "memDepth must be at least 2, got " + memDepth);
        // One instance: domains compare by identity, so every use must share this object.
        final ClockDomain aux = ClockDomain.external("aux").withReset(ClockDomain.Reset.ASYNC, true).withClockEnable();
        final int aw = log2Up(memDepth);

        aIn = in(uint(width));
        aAcc = out(uint(width));
        aInDelayed = out(uint(width));
        aInHeld = out(uint(width));
        mWaddr = in(uint(aw));
        mWdata = in(bits(width));
        mWbe = in(bits(width / 8));
        mRaddr = in(uint(aw));
        mAraddr = in(uint(aw));
        mRdata = out(bits(width));
        lRdata = out(bits(width));
        mAdata = out(bits(width));
        auxEn = inDomain(aux, in(bool()));
        auxIn = inDomain(aux, in(uint(width)));
        auxWaddr = inDomain(aux, in(uint(2)));
        auxWe = inDomain(aux, in(bool()));
        auxRaddr = inDomain(aux, in(uint(2)));
        auxAcc = out(uint(width));
        auxInDelayed = out(uint(width));
        auxRdata = out(bits(width));

        // ---- default domain: synchronous reset.
        UInt countA = reg("count_a", uint(8)).init(0);
        UInt accA = reg("acc_a", uint(width)).init(repeatByte(0xA5, width));
        Bool toggleA = reg("toggle_a", bool()).init(false);
        when(aEn, () -> {
            countA.set(countA.add(1));
            accA.set(accA.xor(aIn));
            toggleA.set(toggleA.not());
        });
        aCount.set(countA);
        aAcc.set(accA);
        aToggle.set(toggleA);
        aEnDelayed.set(regNext(aEn).init(false));
        aInDelayed.set(regNext(aIn));
        aInHeld.set(regNextWhen(aIn, aEn));

        mem = Mem.of(memDepth, width);
        mem.write(mWaddr, mWdata, mWe, mWbe);
        mRdata.set(mem.readSync(mRaddr, mRen));
        mAdata.set(mem.readAsync(mAraddr));

        // Two write ports that never write in the same cycle (the second yields to the first).
        litMem = Mem.of(4, width);
        BigInteger litData = BigInteger.ZERO;
        BigInteger litLanes = BigInteger.ZERO;
        for (int lane = 0; lane < width / 8; lane++) {
            litData = litData.or(BigInteger.valueOf(0xC0 + lane).shiftLeft(8 * lane));
            litLanes = lane % 2 == 0 ? litLanes.setBit(lane) : litLanes;
        }
        litMem.write(lAddr, aIn.asBits(), lWe, mWbe);
        litMem.write(lAddr, B(litData, width), lLit.andNot(lWe), B(litLanes, width / 8));
        lRdata.set(litMem.readAsync(lAddr));

        // ---- domain aux: asynchronous active-low reset and a clock enable. Registers,
        // memory ports and sub-components take the domain current where they are created.
        withDomain(aux, () -> {
            UInt countAux = reg("count_aux", uint(8)).init(0);
            UInt accAux = reg("acc_aux", uint(width)).init(repeatByte(0x3C, width));
            Bool toggleAux = reg("toggle_aux", bool()).init(false);
            when(auxEn, () -> {
                countAux.set(countAux.add(1));
                accAux.set(accAux.add(auxIn));
                toggleAux.set(toggleAux.not());
            });
            auxCount.set(countAux);
            auxAcc.set(accAux);
            auxToggle.set(toggleAux);
            auxInDelayed.set(regNext(auxIn));
        });
        auxMem = Mem.of(4, width);
        withDomain(aux, () -> {
            auxMem.write(auxWaddr, auxIn.asBits(), auxWe);
            auxRdata.set(auxMem.readSync(auxRaddr));
        });

        // ---- synchronisers, one per direction, each in its destination domain.
        toDefault = instance(() -> new TwoFlopSync());
        toDefault.d.set(auxToggle);
        auxToggleSync.set(toDefault.q);
        TwoFlopSync[] made = new TwoFlopSync[1];
        withDomain(aux, () -> made[0] = instance(() -> new TwoFlopSync()));
        toAux = made[0];
        toAux.d.set(aToggle);
        aToggleSync.set(toAux.q);
        latency(0);
    }

    /** {@code value} (one byte) repeated to fill {@code width} bits. */
    static BigInteger repeatByte(int value, int width) {
        BigInteger r = BigInteger.ZERO;
        for (int i = 0; i < width / 8; i++) {
            r = r.shiftLeft(8).or(BigInteger.valueOf(value));
        }
        return r;
    }
}
