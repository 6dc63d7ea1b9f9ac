# SPDX-License-Identifier: Apache-2.0
"""cocotb side of the ClockingZoo test: two unrelated clocks, random stimulus in
each domain against clocking_model, and directed checks of resets and the clock
enable.

Clocks: clk 10 ns; aux_clk 7.3 ns, started 1.13 ns after clk. Counted from
clk's start, clk edges fall on multiples of 100 ps (the gcd of the periods)
and aux_clk edges at 30 and 80 ps modulo 100 ps, so no aux_clk edge (rising or
falling) ever coincides with a clk edge: the synchronisers' sampling is
deterministic and the models can be advanced in time order.

Environment (set by test_clocking_zoo.py): CZ_DEPTH (memDepth), CZ_CYCLES
(clk cycles of the random test), CZ_SEED.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import Edge, FallingEdge, ReadOnly, RisingEdge, Timer
from clocking_model import AuxModel, DefaultModel, repeat_byte

CLK_NS = 10
AUX_NS = 7.3
AUX_OFFSET_PS = 1130


def val(handle) -> int:
    v = handle.value
    return v.to_unsigned() if hasattr(v, "to_unsigned") else int(v)


def check(dut, name: str, expected, where: str) -> bool:
    """Compare one output with the model (None = not defined yet: skipped). True if compared."""
    if expected is None:
        return False
    got = val(getattr(dut, name))
    assert got == expected, f"{where}: {name} = {got:#x}, model {expected:#x}"
    return True


def check_bytes(dut, name: str, expected: list, where: str) -> bool:
    """Compare the bytes of a memory word the model knows (None = never written)."""
    got = val(getattr(dut, name))
    known = False
    for lane, byte in enumerate(expected):
        if byte is not None:
            g = got >> (8 * lane) & 0xFF
            assert g == byte, f"{where}: {name} byte {lane} = {g:#04x}, model {byte:#04x} (word {got:#x})"
            known = True
    return known


class Bench:
    def __init__(self, dut, seed: int = 1):
        self.dut = dut
        self.width = len(dut.a_in)
        self.depth = int(os.environ.get("CZ_DEPTH", "12"))
        assert 1 << len(dut.m_waddr) >= self.depth > 1 << (len(dut.m_waddr) - 1) or self.depth == 2
        self.dm = DefaultModel(self.width, self.depth)
        self.am = AuxModel(self.width)
        self.rng = random.Random(seed)
        self.mask = (1 << self.width) - 1
        self.corners = [0, self.mask, 1 << (self.width - 1), 1]
        self.stop = False
        self.stats = dict(clk=0, aux=0, aux_ce_low=0, rst=0, aux_resets=0, compared=0, skipped=0,
                          rdw=0, a_sync_changes=0, aux_sync_changes=0)
        self.din = dict(rst=1, a_en=0, a_in=0, m_we=0, m_waddr=0, m_wdata=0, m_wbe=0, m_ren=0, m_raddr=0,
                        m_araddr=0, l_addr=0, l_we=0, l_lit=0)
        self.ain = dict(aux_rst_n=0, aux_ce=1, aux_en=0, aux_in=0, aux_we=0, aux_waddr=0, aux_raddr=0)

    def data(self) -> int:
        return self.rng.choice(self.corners) if self.rng.random() < 0.2 else self.rng.getrandbits(self.width)

    def drive(self, values: dict[str, int]) -> None:
        for k, v in values.items():
            getattr(self.dut, k).value = v

    async def start(self) -> None:
        """Inputs idle, clk domain in reset, aux in asynchronous reset; then both clocks."""
        self.drive(self.din)
        self.drive(self.ain)
        self.dut.clk.value = 0
        self.dut.aux_clk.value = 0
        self.am.async_reset()
        await Timer(1, unit="ps")  # let the initial values settle before the first edges
        self.clk = Clock(self.dut.clk, CLK_NS, unit="ns")
        self.clk.start()
        await Timer(AUX_OFFSET_PS, unit="ps")
        self.aux = Clock(self.dut.aux_clk, AUX_NS, unit="ns")
        self.aux.start()

    # ---- per-domain checks --------------------------------------------------------------

    def check_default(self, where: str) -> None:
        d, dm = self.dut, self.dm
        results = [
            check(d, "a_count", dm.count, where),
            check(d, "a_acc", dm.acc, where),
            check(d, "a_toggle", dm.toggle, where),
            check(d, "a_en_delayed", dm.en_d1, where),
            check(d, "a_in_delayed", dm.in_d1, where),
            check(d, "a_in_held", dm.in_held, where),
            check(d, "aux_toggle_sync", dm.sync.stable, where),
            check_bytes(d, "m_rdata", dm.rdata, where),
            check_bytes(d, "m_adata", dm.adata(self.din["m_araddr"]), where),
            check_bytes(d, "l_rdata", dm.lit_mem[self.din["l_addr"]], where),
        ]
        self.stats["compared"] += sum(results)
        self.stats["skipped"] += len(results) - sum(results)

    def check_aux(self, where: str) -> None:
        d, am = self.dut, self.am
        results = [
            check(d, "aux_count", am.count, where),
            check(d, "aux_acc", am.acc, where),
            check(d, "aux_toggle", am.toggle, where),
            check(d, "aux_in_delayed", am.in_d1, where),
            check(d, "aux_rdata", am.rdata, where),
            check(d, "a_toggle_sync", am.sync.stable, where),
        ]
        self.stats["compared"] += sum(results)
        self.stats["skipped"] += len(results) - sum(results)

    # ---- random stimulus, one coroutine per domain ------------------------------------------

    def next_default(self, n: int) -> dict[str, int]:
        r = self.rng
        v = dict(rst=int(n < 2 or r.random() < 1 / 250), a_en=int(r.random() < 0.6), a_in=self.data())
        sweep = n - 2
        if 0 <= sweep < self.depth:  # write every word once so the memory model knows it all
            v.update(m_we=1, m_waddr=sweep, m_wbe=(1 << self.width // 8) - 1)
        else:
            v.update(m_we=int(r.random() < 0.5), m_waddr=r.randrange(self.depth),
                     m_wbe=r.getrandbits(self.width // 8))
        v.update(m_wdata=self.data(), m_ren=int(r.random() < 0.6), m_araddr=r.randrange(self.depth))
        v.update(l_addr=r.randrange(4), l_we=int(r.random() < 0.3), l_lit=int(r.random() < 0.5))
        # Often read the word being written: the read must return the old word.
        v["m_raddr"] = v["m_waddr"] if r.random() < 0.25 else r.randrange(self.depth)
        return v

    def next_aux(self, k: int) -> dict[str, int]:
        r = self.rng
        in_reset = self.ain["aux_rst_n"] == 0
        # Reset for the first cycles, then asserted about once per 250 cycles for 1..3 cycles.
        rst_n = int(not (k < 2 or (in_reset and r.random() < 0.5) or r.random() < 1 / 250))
        sweep = k - 2
        v = dict(aux_rst_n=rst_n, aux_en=int(r.random() < 0.6), aux_in=self.data(),
                 aux_raddr=r.randrange(4))
        if 0 <= sweep < 4:
            v.update(aux_ce=1, aux_we=1, aux_waddr=sweep)
        else:
            v.update(aux_ce=int(r.random() < 0.7), aux_we=int(r.random() < 0.5), aux_waddr=r.randrange(4))
        return v

    async def run_default(self, cycles: int) -> None:
        prev_sync = None
        for n in range(cycles):
            await RisingEdge(self.dut.clk)
            self.dm.edge(self.din, self.am.toggle)
            await ReadOnly()
            self.check_default(f"clk cycle {n} ({self.din})")
            self.stats["clk"] += 1
            self.stats["rst"] += self.din["rst"]
            self.stats["rdw"] += int(self.din["m_we"] and self.din["m_ren"] and self.din["m_raddr"] == self.din["m_waddr"])
            s = self.dm.sync.stable
            self.stats["aux_sync_changes"] += int(prev_sync is not None and s is not None and s != prev_sync)
            prev_sync = s
            await FallingEdge(self.dut.clk)
            self.din = self.next_default(n)
            self.drive(self.din)
        self.stop = True

    async def run_aux(self) -> None:
        k = 0
        prev_sync = None
        while not self.stop:
            await RisingEdge(self.dut.aux_clk)
            self.am.edge(self.ain, self.dm.toggle)
            await ReadOnly()
            self.check_aux(f"aux cycle {k} ({self.ain})")
            self.stats["aux"] += 1
            self.stats["aux_ce_low"] += 1 - self.ain["aux_ce"]
            s = self.am.sync.stable
            self.stats["a_sync_changes"] += int(prev_sync is not None and s is not None and s != prev_sync)
            prev_sync = s
            await FallingEdge(self.dut.aux_clk)
            was_reset = self.ain["aux_rst_n"] == 0
            self.ain = self.next_aux(k)
            self.drive(self.ain)
            if self.ain["aux_rst_n"] == 0:
                # Asynchronous: the reset acts now, not at the next edge.
                self.am.async_reset()
                self.stats["aux_resets"] += int(not was_reset)
                await ReadOnly()
                self.check_aux(f"aux_rst_n asserted after aux cycle {k}")
            k += 1


@cocotb.test()
async def two_domains_match_model(dut):
    """Random stimulus in both domains, every output of a domain checked after each of its edges."""
    b = Bench(dut, int(os.environ.get("CZ_SEED", "1")))
    cycles = int(os.environ.get("CZ_CYCLES", "2000"))
    aux_task = cocotb.start_soon(b.run_aux())
    await b.start()
    await b.run_default(cycles)
    await aux_task
    dut._log.info("width %d depth %d: %s", b.width, b.depth, b.stats)
    s = b.stats
    # The stimulus must have reached what the test claims to check.
    assert s["rst"] >= 4 and s["aux_resets"] >= 3 and s["aux_ce_low"] > cycles // 10, s
    assert s["rdw"] > 10 and s["a_sync_changes"] > 20 and s["aux_sync_changes"] > 20, s
    assert s["compared"] > 12 * cycles, s


async def settle_aux_nonzero(b: Bench) -> None:
    """Reset both domains, then count and accumulate in aux for a while (ce on)."""
    b.din.update(rst=1)
    b.drive(b.din)
    await b.start()
    for _ in range(3):
        await FallingEdge(b.dut.clk)
    b.din.update(rst=0)
    b.drive(b.din)
    for k in range(7):
        await FallingEdge(b.dut.aux_clk)
        b.ain.update(aux_rst_n=1, aux_ce=1, aux_en=1, aux_in=k + 1, aux_we=1, aux_waddr=k % 4)
        b.drive(b.ain)
    await FallingEdge(b.dut.aux_clk)
    b.ain.update(aux_en=0, aux_we=0)
    b.drive(b.ain)
    await RisingEdge(b.dut.aux_clk)
    await ReadOnly()


@cocotb.test()
async def async_reset_acts_without_clock_edge(dut):
    """aux_rst_n low with aux_clk stopped and aux_ce low: reset values at once; no-reset registers keep theirs."""
    b = Bench(dut)
    await settle_aux_nonzero(b)
    count, acc = val(dut.aux_count), val(dut.aux_acc)
    assert count == 7 and acc == (repeat_byte(0x3C, b.width) + sum(range(1, 8))) & b.mask, (count, acc)
    kept = {n: val(getattr(dut, n)) for n in ("aux_in_delayed", "aux_rdata")}
    await Timer(1, unit="ns")
    b.aux.stop()
    edges = 0

    async def count_edges():
        nonlocal edges
        while True:
            await Edge(dut.aux_clk)
            edges += 1

    watcher = cocotb.start_soon(count_edges())
    await Timer(20, unit="ns")
    b.drive(dict(aux_ce=0))
    await Timer(3, unit="ns")
    assert val(dut.aux_count) == 7, "nothing may change while aux_clk is stopped"
    dut.aux_rst_n.value = 0
    await Timer(1, unit="ns")
    await ReadOnly()
    assert edges == 0, "aux_clk must not have toggled"
    assert val(dut.aux_count) == 0
    assert val(dut.aux_acc) == repeat_byte(0x3C, b.width)
    assert val(dut.aux_toggle) == 0
    assert val(dut.a_toggle_sync) == 0, "the synchroniser in aux resets with its domain"
    for n, v in kept.items():
        assert val(getattr(dut, n)) == v, f"{n} has no reset and must keep its value"
    watcher.cancel()


@cocotb.test()
async def sync_reset_waits_for_clock_edge(dut):
    """rst high between clk edges changes nothing until the next rising edge."""
    b = Bench(dut)
    await settle_aux_nonzero(b)
    for _ in range(5):
        await FallingEdge(dut.clk)
        b.drive(dict(a_en=1, a_in=0x0F))
    await FallingEdge(dut.clk)
    b.drive(dict(a_en=0))
    await RisingEdge(dut.clk)
    await ReadOnly()
    count, acc = val(dut.a_count), val(dut.a_acc)
    assert count == 5 and acc == repeat_byte(0xA5, b.width) ^ 0x0F, (count, hex(acc))
    await Timer(2, unit="ns")
    dut.rst.value = 1
    await Timer(2, unit="ns")
    await ReadOnly()
    assert (val(dut.a_count), val(dut.a_acc)) == (count, acc), "synchronous reset must wait for the edge"
    await RisingEdge(dut.clk)
    await ReadOnly()
    assert val(dut.a_count) == 0 and val(dut.a_acc) == repeat_byte(0xA5, b.width)
    assert val(dut.a_en_delayed) == 0


@cocotb.test()
async def clock_enable_stalls_registers_and_memory(dut):
    """With aux_ce low nothing in aux changes: registers, the memory's writes and its read register."""
    b = Bench(dut)
    await settle_aux_nonzero(b)
    names = ("aux_count", "aux_acc", "aux_toggle", "aux_in_delayed", "aux_rdata", "a_toggle_sync")
    # Word 0 holds 5 (written with ce on by settle_aux_nonzero); read it.
    await FallingEdge(dut.aux_clk)
    b.drive(dict(aux_raddr=0))
    await RisingEdge(dut.aux_clk)
    await ReadOnly()
    assert val(dut.aux_rdata) == 5
    # Stall aux while everything asks for change, including a toggle from the clk domain.
    await FallingEdge(dut.aux_clk)
    before = {n: val(getattr(dut, n)) for n in names}
    b.drive(dict(aux_ce=0, aux_en=1, aux_in=0x55, aux_we=1, aux_waddr=0, aux_raddr=1))
    for _ in range(3):
        await FallingEdge(dut.clk)
        b.drive(dict(a_en=1))
    for _ in range(6):
        await RisingEdge(dut.aux_clk)
        await ReadOnly()
        now = {n: val(getattr(dut, n)) for n in names}
        assert now == before, f"aux_ce low, yet {[n for n in names if now[n] != before[n]]} changed"
    # Enable again, without writing: word 0 must still hold 5.
    await FallingEdge(dut.aux_clk)
    b.drive(dict(aux_ce=1, aux_en=0, aux_we=0, aux_raddr=0))
    await RisingEdge(dut.aux_clk)
    await ReadOnly()
    assert val(dut.aux_rdata) == 5, "a write with aux_ce low must not reach the memory"
