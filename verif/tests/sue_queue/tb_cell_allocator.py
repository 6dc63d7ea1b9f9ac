# SPDX-License-Identifier: Apache-2.0
"""cocotb tests for cell_allocator against a Python model (a set of allocated cells).

Configuration from the environment (set by test_cell_allocator.py): CELLS.

Every cycle: free_count equals the model; an allocated cell is in range and not already
allocated (no cell handed out twice); alloc_valid is high whenever a cell freed two or more
cycles ago (or never allocated) exists, and low when the model has no free cell. At the end
free + allocated == CELLS, and allocating everything yields every cell exactly once.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge

from common.stream_bfm import start_clock_and_reset

CELLS = int(os.environ["CELLS"])
REUSE_DELAY = 2  # a cell freed in cycle n can be allocated from cycle n + 2 (Javadoc)


class Bench:
    def __init__(self, dut, rng: random.Random):
        self.dut = dut
        self.rng = rng
        self.allocated: set[int] = set()
        self.never_used = set(range(CELLS))
        self.freed_at: dict[int, int] = {}  # free cell -> cycle it was freed
        self.cycle = 0
        self.allocations = 0
        self.frees = 0
        dut.alloc_ready.value = 0
        dut.free_valid.value = 0
        dut.free_payload.value = 0

    async def step(self, p_alloc: float, p_free: float) -> None:
        dut = self.dut
        ready = self.rng.random() < p_alloc
        free = None
        if self.allocated and self.rng.random() < p_free:
            free = self.rng.choice(sorted(self.allocated))
        dut.alloc_ready.value = int(ready)
        dut.free_valid.value = int(free is not None)
        dut.free_payload.value = free if free is not None else self.rng.randrange(CELLS)
        await ReadOnly()
        valid = bool(dut.alloc_valid.value)
        count = int(dut.free_count.value)
        assert count == CELLS - len(self.allocated), (
            f"cycle {self.cycle}: free_count {count}, model {CELLS - len(self.allocated)}")
        available = bool(self.never_used) or any(
            c not in self.allocated and t <= self.cycle - REUSE_DELAY for c, t in self.freed_at.items())
        if available and self.cycle >= 1:  # cycle 0 is still under the reset's last edge
            assert valid, f"cycle {self.cycle}: alloc_valid low with an allocatable free cell"
        if len(self.allocated) == CELLS:
            assert not valid, f"cycle {self.cycle}: alloc_valid with every cell allocated"
        if valid and ready:
            cell = int(dut.alloc_payload.value)
            assert 0 <= cell < CELLS, f"cycle {self.cycle}: allocated cell {cell} out of range"
            assert cell not in self.allocated, f"cycle {self.cycle}: cell {cell} allocated twice"
            if cell not in self.never_used:
                assert self.freed_at[cell] <= self.cycle - REUSE_DELAY, (
                    f"cycle {self.cycle}: cell {cell} reused {self.cycle - self.freed_at[cell]} cycle(s) after its free")
            self.never_used.discard(cell)
            self.freed_at.pop(cell, None)
            self.allocated.add(cell)
            self.allocations += 1
        if free is not None:
            self.allocated.discard(free)
            self.freed_at[free] = self.cycle
            self.frees += 1
        await RisingEdge(dut.clk)
        self.cycle += 1

    def check_conservation(self) -> None:
        free = set(range(CELLS)) - self.allocated
        assert len(free) + len(self.allocated) == CELLS
        # (free_count itself is compared with the model in every step's ReadOnly phase)


async def begin(dut, seed: int) -> Bench:
    bench = Bench(dut, random.Random(seed))
    await start_clock_and_reset(dut)
    return bench


@cocotb.test()
async def random_alloc_free(dut):
    """Random mixes of allocation and free rates, including long full and empty stretches."""
    bench = await begin(dut, cocotb.RANDOM_SEED)
    for p_alloc, p_free, cycles in [(1.0, 0.0, CELLS + 5), (0.5, 0.5, 4 * CELLS), (0.0, 1.0, CELLS + 5),
                                    (0.9, 0.3, 4 * CELLS), (0.3, 0.9, 4 * CELLS), (1.0, 1.0, 4 * CELLS),
                                    (0.7, 0.7, 8 * CELLS)]:
        for _ in range(cycles):
            await bench.step(p_alloc, p_free)
        bench.check_conservation()
    dut._log.info("%d allocations, %d frees", bench.allocations, bench.frees)


@cocotb.test()
async def exhaust_and_recover(dut):
    """Allocate every cell (each exactly once), then free all, then allocate all again."""
    bench = await begin(dut, cocotb.RANDOM_SEED + 1)
    for rnd in range(3):
        while len(bench.allocated) < CELLS:
            await bench.step(1.0, 0.0)
        for _ in range(5):
            await bench.step(1.0, 0.0)
        assert not dut.alloc_valid.value and int(dut.free_count.value) == 0, f"round {rnd}: not empty"
        while bench.allocated:
            await bench.step(0.0, 1.0)
        bench.check_conservation()


@cocotb.test()
async def one_alloc_and_one_free_per_cycle(dut):
    """Steady state with both sides busy every cycle: one allocation per cycle, no bubble
    (needs at least REUSE_DELAY + 1 free cells in circulation, so CELLS >= 6 here)."""
    if CELLS < 6:
        return
    bench = await begin(dut, cocotb.RANDOM_SEED + 2)
    for _ in range(CELLS // 2):
        await bench.step(1.0, 0.0)
    before = bench.allocations
    cycles = 4 * CELLS
    for _ in range(cycles):
        await bench.step(1.0, 1.0)
    assert bench.allocations - before == cycles, (
        f"{bench.allocations - before} allocations in {cycles} cycles with alloc_ready always high")
