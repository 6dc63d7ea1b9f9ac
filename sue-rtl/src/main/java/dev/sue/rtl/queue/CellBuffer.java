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
 * bytes, written by the packer one chunk per cycle, read by the reader one cell per cycle.
 *
 * <p><b>Byte lanes with their own write address.</b> The buffer is B memories of one byte (lane i
 * holds byte i of every cell). A chunk of n <= B bytes placed at fill offset f of its queue's
 * open PDU goes to lanes f.. of the current cell and, when f + n > B, to lanes 0..f+n-B-1 of the
 * next cell: both in one write, because these lanes never overlap (f + n - B <= f). So a chunk
 * that crosses a cell boundary needs no spill register and no extra write cycle: the packer
 * takes one chunk per cycle whatever the fill (at 1024 bits a 64-byte write, one chunk, crossed
 * a cell in more than half of the cases and then cost a second cycle). Reads use one address
 * for every lane. The storage bits are those of one W-bit memory; in block RAM a lane is a
 * cells x 8 memory (a RAMB18 holds 2K x 9), so the count should stay close to that of a W-bit
 * memory (not yet synthesised at 8192 cells; at 16 XPUs the LUT count moved by under 2 %).
 *
 * <p><b>Write stage.</b> The packer hands its decision over in registers (the chunk, n, f, the
 * current and the next cell); the rotation to f and the lane enables are computed here, one
 * cycle later, from flip-flops (the packer computes f late: queue state, limit close). A read
 * issued in the cycle of a write to its cell gets that write's lanes forwarded
 * ({@link #read}); a read issued in the cycle a chunk is still in the packer does not see it (the
 * reader waits for an early-closed PDU's last chunk to leave the packer, see the reader).
 */
final class CellBuffer {
    private final List<Mem<Bits>> lanes = new ArrayList<>();
    private final int bytes;
    private final Bool lastValid;
    private final UInt lastAddr;
    private final UInt lastNext;
    private final Bits lastHigh;
    private final Bits lastBe;
    private final Bits lastData;

    /**
     * @param write a chunk is written (taken by the packer) this cycle
     * @param addr the cell for lanes fill.. (the open cell, or a new one at fill 0)
     * @param next the cell for the lanes that wrap (used when fill + n > B)
     * @param fill the byte the chunk starts at
     * @param end fill + n (the packer computes it anyway; registered here, so the lane enables
     *     start from a register)
     * @param chunk the chunk, byte 0 in bits 7:0
     */
    CellBuffer(int cells, int bytesPerBeat, Bool write, UInt addr, UInt next, UInt fill, UInt end, Bits chunk) {
        this.bytes = bytesPerBeat;
        int w = bytesPerBeat * 8;
        int lb = log2Up(bytesPerBeat);
        int cw = log2Up(cells);
        for (int i = 0; i < bytesPerBeat; i++) {
            lanes.add(Mem.of(cells, 8).named("cell_lane_" + i));
        }
        Bool valid = reg("cwr_valid", bool()).init(false);
        UInt wAddr = reg("cwr_addr", uint(cw)).init(0);
        UInt wNext = reg("cwr_next", uint(cw)).init(0);
        UInt f = reg("cwr_fill", uint(lb)).init(0);
        UInt wEnd = reg("cwr_end", uint(lb + 1)).init(0);
        Bits data = reg("cwr_data", bits(w));
        valid.set(write);
        when(write, () -> {
            wAddr.set(addr);
            wNext.set(next);
            f.set(fill);
            wEnd.set(end);
            data.set(chunk);
        });

        Bits shifted = cat(B(0, w), data).shl(f.resize(lb + 4).shl(3)).named("cwr_shifted");
        // rotated left by f bytes: lanes f.. hold bytes 0.., lanes ..f-1 the bytes that wrap
        Bits rot = shifted.slice(w - 1, 0).or(shifted.slice(2 * w - 1, w)).named("cwr_rot");
        // lane i >= f takes byte i - f (written when i < end), lane i < f the wrapped byte
        // i + B - f (written when i + B < end): constant compares of two registers
        List<Bool> high = new ArrayList<>();
        List<Bool> be = new ArrayList<>();
        for (int i = 0; i < bytesPerBeat; i++) {
            Bool hi = i == bytesPerBeat - 1 ? TRUE : f.le(i);
            high.add(hi);
            be.add(mux(hi, wEnd.gt(i), wEnd.gt(i + bytesPerBeat)));
        }
        Bits highLanes = OneHot.fromBools(high).named("cwr_high");
        Bits laneBe = OneHot.fromBools(be).named("cwr_be");
        for (int i = 0; i < bytesPerBeat; i++) {
            lanes.get(i).write(mux(highLanes.bit(i), wAddr, wNext), rot.slice(8 * i + 7, 8 * i),
                    valid.and(laneBe.bit(i)));
        }

        lastValid = reg("cw_valid", bool()).init(false);
        lastAddr = reg("cw_addr", uint(cw)).init(0);
        lastNext = reg("cw_next", uint(cw)).init(0);
        lastHigh = reg("cw_high", bits(bytesPerBeat));
        lastBe = reg("cw_be", bits(bytesPerBeat));
        lastData = reg("cw_data", bits(w));
        lastValid.set(valid);
        lastAddr.set(wAddr);
        lastNext.set(wNext);
        lastHigh.set(highLanes);
        lastBe.set(laneBe);
        lastData.set(rot);
    }

    /**
     * A registered read of cell {@code addr} issued when {@code enable}: the cell's bytes in the
     * next cycle, with the lanes the buffer writes in the issue cycle forwarded; {@code addrQ} is
     * the caller's register of the address read.
     */
    Bits read(UInt addr, Bool enable, UInt addrQ) {
        List<Bits> parts = new ArrayList<>();
        for (int i = bytes - 1; i >= 0; i--) {
            parts.add(lanes.get(i).readSync(addr, enable));
        }
        Bits ram = cat(parts).named("cell_rd_ram");
        Bool hitAddr = lastValid.and(lastAddr.eq(addrQ)).named("cw_hit_addr");
        Bool hitNext = lastValid.and(lastNext.eq(addrQ)).named("cw_hit_next");
        List<Bool> hit = new ArrayList<>();
        for (int i = 0; i < bytes; i++) {
            hit.add(lastBe.bit(i).and(mux(lastHigh.bit(i), hitAddr, hitNext)));
        }
        Bits mask = ByteMask.expand(OneHot.fromBools(hit)).named("cw_mask");
        return ram.and(mask.not()).or(lastData.and(mask)).named("cell_rd");
    }
}
