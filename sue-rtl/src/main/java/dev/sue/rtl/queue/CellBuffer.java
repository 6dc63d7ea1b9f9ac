// SPDX-License-Identifier: Apache-2.0
package dev.sue.rtl.queue;

import static dev.sue.hdl.Hdl.*;

import dev.sue.hdl.Bits;
import dev.sue.hdl.Bool;
import dev.sue.hdl.Mem;
import dev.sue.hdl.UInt;
import dev.sue.hdl.lib.util.ByteMask;
import dev.sue.hdl.lib.util.OneHot;
import java.util.ArrayList;
import java.util.List;

/**
 * The queue manager's cell buffer (a stage of {@link TxQueueManager}): {@code cells} cells of B
 * bytes, written by the packer one chunk (up to B + 18 bytes) per cycle, read by the reader one
 * cell per cycle.
 *
 * <p><b>Two banks of byte lanes with their own write address.</b> Cell c lives in bank c[0] at
 * row c / 2; a bank is B memories of one byte (lane i holds byte i of each of its cells). A chunk
 * of n <= B + 18 bytes placed at fill offset f of its queue's open PDU goes to lanes f.. of its
 * first cell c0, to lanes 0..f+n-B-1 of the next cell c1 when f + n > B, and to lanes
 * 0..f+n-2B-1 of the cell after, c2, when f + n > 2B. The packer allocates a PDU's cells with
 * alternating parity (see {@link Packer}), so c0 and c2 are in one bank and use disjoint lanes
 * (f+n-2B <= f), c1 is in the other: each lane of each bank is written once per cycle, so a chunk
 * that crosses one or two cell boundaries needs no spill register and no extra write cycle. The
 * storage bits are those of one W-bit memory of {@code cells} rows (the banks split the rows).
 * Reads use one address for every lane of both banks and pick the bank by the address's parity.
 *
 * <p><b>Write stage.</b> The packer hands its decision over in registers (the chunk, f, f + n
 * and the three cells); the rotation to f and the lane enables are computed here, one cycle
 * later, from flip-flops (the packer computes f late: queue state, limit close). A read issued
 * in the cycle of a write to its cell gets that write's lanes of c0 and c2 forwarded
 * ({@link #read}): such a read is the first cell of a PDU that the idle bypass starts in the
 * cycle its last chunk is written, and a PDU starts at byte 0 of a cell, so never at a c1
 * (checked by an assertion).
 */
final class CellBuffer {
    private final List<List<Mem<Bits>>> banks = new ArrayList<>();
    private final int bytes;
    private final Bool lastValid;
    private final UInt lastAddr;
    private final UInt lastNext;
    private final Bits lastHigh;
    private final Bits lastBe;
    private final Bits lastData;
    private final Bool lastC1Used;
    private final UInt lastC1;

    /**
     * @param write a chunk is written (taken by the packer) this cycle
     * @param c0 the cell for lanes fill.. (the open cell, or a new one at fill 0)
     * @param c1 the next cell (used when fill + n > B; its parity is c0's opposite)
     * @param c2 the cell after (used when fill + n > 2B; c0's parity)
     * @param fill the byte the chunk starts at
     * @param end fill + n (the packer computes it anyway; registered here, so the lane enables
     *     start from a register), {@code log2(B) + 2} bits
     * @param chunk the chunk, byte 0 in bits 7:0, at most 2B bytes
     */
    CellBuffer(int cells, int bytesPerBeat, Bool write, UInt c0, UInt c1, UInt c2, UInt fill, UInt end, Bits chunk) {
        this.bytes = bytesPerBeat;
        int w = bytesPerBeat * 8;
        int lb = log2Up(bytesPerBeat);
        int cw = log2Up(cells);
        for (int b = 0; b < 2; b++) {
            List<Mem<Bits>> lanes = new ArrayList<>();
            for (int i = 0; i < bytesPerBeat; i++) {
                lanes.add(Mem.of(cells / 2, 8).named("cell_b" + b + "_lane_" + i));
            }
            banks.add(lanes);
        }
        Bool valid = reg("cwr_valid", bool()).init(false);
        UInt wC0 = reg("cwr_c0", uint(cw)).init(0);
        UInt wC1 = reg("cwr_c1", uint(cw)).init(0);
        UInt wC2 = reg("cwr_c2", uint(cw)).init(0);
        UInt f = reg("cwr_fill", uint(lb)).init(0);
        UInt wEnd = reg("cwr_end", uint(lb + 2)).init(0);
        Bits data = reg("cwr_data", bits(chunk.width()));
        valid.set(write);
        when(write, () -> {
            wC0.set(c0);
            wC1.set(c1);
            wC2.set(c2);
            f.set(fill);
            wEnd.set(end);
            data.set(chunk);
        });

        // shifted up by f bytes over 3B bytes: bytes 0..B-1 go to c0, B..2B-1 to c1, 2B.. to c2
        Bits shifted = data.resize(3 * w).shl(f.resize(lb + 4).shl(3)).named("cwr_shifted");
        // c0's and c2's lanes are disjoint: one B-byte word for c0's bank
        Bits lo = shifted.slice(w - 1, 0).or(shifted.slice(3 * w - 1, 2 * w)).named("cwr_lo");
        Bits hi = shifted.slice(2 * w - 1, w).named("cwr_hi");
        // lane i: c0 when f <= i < end, c1 when i + B < end, c2 when i + 2B < end (then i < f):
        // constant compares of two registers
        List<Bool> high = new ArrayList<>();
        List<Bool> beLo = new ArrayList<>();
        List<Bool> beHi = new ArrayList<>();
        for (int i = 0; i < bytesPerBeat; i++) {
            Bool h = i == bytesPerBeat - 1 ? TRUE : f.le(i);
            high.add(h);
            beLo.add(mux(h, wEnd.gt(i), wEnd.gt(i + 2 * bytesPerBeat)));
            beHi.add(wEnd.gt(i + bytesPerBeat));
        }
        Bits highLanes = OneHot.fromBools(high).named("cwr_high");
        Bits loBe = OneHot.fromBools(beLo).named("cwr_lo_be");
        Bits hiBe = OneHot.fromBools(beHi).named("cwr_hi_be");
        UInt row0 = wC0.shr(1).resize(cw - 1);
        UInt row1 = wC1.shr(1).resize(cw - 1);
        UInt row2 = wC2.shr(1).resize(cw - 1);
        for (int b = 0; b < 2; b++) {
            // c0 (and c2) in this bank, else c1
            Bool loBank = b == 0 ? wC0.bit(0).not() : wC0.bit(0);
            for (int i = 0; i < bytesPerBeat; i++) {
                UInt row = mux(loBank, mux(highLanes.bit(i), row0, row2), row1);
                Bits byteVal = mux(loBank, lo.slice(8 * i + 7, 8 * i), hi.slice(8 * i + 7, 8 * i));
                banks.get(b).get(i).write(row, byteVal, valid.and(mux(loBank, loBe.bit(i), hiBe.bit(i))));
            }
        }
        assertThat(valid.not().or(hiBe.bit(0).not()).or(wC1.bit(0).ne(wC0.bit(0))), "c0 and c1 of one bank");
        assertThat(valid.not().or(wEnd.le(2 * bytesPerBeat)).or(wC2.bit(0).eq(wC0.bit(0))), "c1 and c2 of one bank");

        lastValid = reg("cw_valid", bool()).init(false);
        lastAddr = reg("cw_addr", uint(cw)).init(0);
        lastNext = reg("cw_next", uint(cw)).init(0);
        lastHigh = reg("cw_high", bits(bytesPerBeat));
        lastBe = reg("cw_be", bits(bytesPerBeat));
        lastData = reg("cw_data", bits(w));
        lastC1Used = reg("cw_c1_used", bool()).init(false);
        lastC1 = reg("cw_c1", uint(cw)).init(0);
        lastValid.set(valid);
        lastAddr.set(wC0);
        lastNext.set(wC2);
        lastHigh.set(highLanes);
        lastBe.set(loBe);
        lastData.set(lo);
        lastC1Used.set(valid.and(hiBe.bit(0)));
        lastC1.set(wC1);
    }

    /**
     * A registered read of cell {@code addr} issued when {@code enable}: the cell's bytes in the
     * next cycle, with the lanes of c0 and c2 the buffer writes in the issue cycle forwarded;
     * {@code addrQ} is the caller's register of the address read.
     */
    Bits read(UInt addr, Bool enable, UInt addrQ) {
        int cw = addr.width();
        UInt row = addr.shr(1).resize(cw - 1);
        List<Bits> bankRd = new ArrayList<>();
        for (int b = 0; b < 2; b++) {
            List<Bits> parts = new ArrayList<>();
            for (int i = bytes - 1; i >= 0; i--) {
                parts.add(banks.get(b).get(i).readSync(row, enable));
            }
            bankRd.add(cat(parts).named("cell_rd_b" + b));
        }
        Bits ram = mux(addrQ.bit(0), bankRd.get(1), bankRd.get(0)).named("cell_rd_ram");
        Bool hitAddr = lastValid.and(lastAddr.eq(addrQ)).named("cw_hit_addr");
        Bool hitNext = lastValid.and(lastNext.eq(addrQ)).named("cw_hit_next");
        List<Bool> hit = new ArrayList<>();
        for (int i = 0; i < bytes; i++) {
            hit.add(lastBe.bit(i).and(mux(lastHigh.bit(i), hitAddr, hitNext)));
        }
        Bits mask = ByteMask.expand(OneHot.fromBools(hit)).named("cw_mask");
        Bool issued = reg("cell_rd_issued", bool()).init(false);
        issued.set(enable);
        assertThat(issued.and(lastC1Used).and(lastC1.eq(addrQ)).not(), "a cell read in the cycle its c1 part is written");
        return ram.and(mask.not()).or(lastData.and(mask)).named("cell_rd");
    }
}
