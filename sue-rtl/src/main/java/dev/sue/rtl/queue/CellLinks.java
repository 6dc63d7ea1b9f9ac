// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;

/**
 * The next-cell pointers of the cell chains ({@code cell_next}, shared by the {@link Packer},
 * the {@link Reader} and the {@link ReplayFreeWalker}), in two banks by the parity of the cell
 * that points: the packer links up to two cells per cycle (tail -> A -> B, a chunk of up to
 * B + 18 bytes crossing two cell boundaries), and A's parity is the tail's opposite, so each
 * bank takes at most one write per cycle. The storage is that of one {@code cells}-deep memory.
 * The links written in a cycle are registered ({@link #lastValid} ...) for the reader's
 * forwarding (a read issued in the cycle of the write sees the old pointer).
 */
final class CellLinks {
    private final Mem<Bits> bank0;
    private final Mem<Bits> bank1;
    private final int cw;
    /** Per link port (0: tail -> A, 1: A -> B): a link was written in the cycle before, from cell {@link #lastFrom} to {@link #lastTo}. */
    final Bool[] lastValid = new Bool[2];
    final UInt[] lastFrom = new UInt[2];
    final UInt[] lastTo = new UInt[2];

    CellLinks(int cells) {
        cw = log2Up(cells);
        bank0 = Mem.of(cells / 2, cw).named("cell_next_b0");
        bank1 = Mem.of(cells / 2, cw).named("cell_next_b1");
    }

    /**
     * This cycle's links: {@code tail} -> {@code a} when {@code linkA}, {@code a} -> {@code b}
     * when {@code linkB}; {@code a}'s parity must be {@code tail}'s opposite when both are written.
     */
    void write(Bool linkA, UInt tail, UInt a, Bool linkB, UInt b) {
        Bool tailOdd = tail.bit(0);
        UInt tailRow = row(tail);
        UInt aRow = row(a);
        // bank 0 takes the link from the even cell of {tail, a}, bank 1 the other
        bank0.write(mux(tailOdd, aRow, tailRow), mux(tailOdd, b, a).asBits(), mux(tailOdd, linkB, linkA));
        bank1.write(mux(tailOdd, tailRow, aRow), mux(tailOdd, a, b).asBits(), mux(tailOdd, linkA, linkB));
        assertThat(linkA.and(linkB).not().or(a.bit(0).ne(tailOdd)), "two links from cells of one parity");
        Bool[] en = {linkA, linkB};
        UInt[] from = {tail, a};
        UInt[] to = {a, b};
        for (int k = 0; k < 2; k++) {
            lastValid[k] = reg("nw" + k + "_valid", bool()).init(false);
            lastFrom[k] = reg("nw" + k + "_addr", uint(cw)).init(0);
            lastTo[k] = reg("nw" + k + "_data", uint(cw)).init(0);
            lastValid[k].set(en[k]);
            lastFrom[k].set(from[k]);
            lastTo[k].set(to[k]);
        }
    }

    /**
     * A registered read of the pointer of {@code cell} issued when {@code enable} (valid in the
     * next cycle); {@code name} names the register of the bank choice.
     */
    UInt read(String name, UInt cell, Bool enable) {
        UInt r = row(cell);
        UInt rd0 = bank0.readSync(r, enable).asUInt();
        UInt rd1 = bank1.readSync(r, enable).asUInt();
        Bool odd = reg(name + "_odd", bool()).init(false);
        when(enable, () -> odd.set(cell.bit(0)));
        return mux(odd, rd1, rd0).named(name);
    }

    private UInt row(UInt cell) {
        return cell.shr(1).resize(cw - 1);
    }
}
