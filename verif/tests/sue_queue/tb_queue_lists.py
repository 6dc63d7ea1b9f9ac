# SPDX-License-Identifier: Apache-2.0
"""cocotb tests for queue_lists against a plain-Python reference model (dict of deques).

Configuration from the environment (set by test_queue_lists.py): XPUS, VCS, CELLS and
DEST_LIMITED (1: the block counts cells per destination and has the dest_limit input; 0: it has
neither and must never answer limit_reached).

The testbench owns the cells that are not queued (a free set standing in for the cell
allocator). Every command is applied to the model when the DUT accepts it; the DUT's answer
must appear exactly LATENCY cycles later and equal the model's answer field by field (fields
the Javadoc leaves undefined for that answer are not compared). Checked throughout: FIFO order
per queue (every popped/peeked cell and its successor), lengths, per-destination limits,
empty/non-empty events, and at the end that free + queued == CELLS with no cell duplicated.
"""

from __future__ import annotations

import os
import random
from collections import deque

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge

from common.stream_bfm import start_clock_and_reset

XPUS = int(os.environ["XPUS"])
VCS = int(os.environ["VCS"])
CELLS = int(os.environ["CELLS"])
DEST_LIMITED = os.environ["DEST_LIMITED"] == "1"
QUEUES = XPUS * VCS
LATENCY = 2
APPEND, POP, PEEK, RESERVED = 0, 1, 2, 3


class Model:
    def __init__(self):
        self.queues = [deque() for _ in range(QUEUES)]
        self.dest_count = [0] * XPUS
        self.limit = CELLS

    def apply(self, op: int, q: int, cell: int) -> dict:
        """The answer the DUT must give; keys absent are undefined for this answer."""
        d = q // VCS
        lst = self.queues[q]
        r = {"op": op, "queue": q}
        if op == APPEND:
            if self.dest_count[d] >= self.limit:
                r.update(ok=0, limit_reached=1, cell=cell, length=len(lst), became_non_empty=0, became_empty=0)
            else:
                lst.append(cell)
                self.dest_count[d] += 1
                r.update(ok=1, limit_reached=0, cell=cell, length=len(lst), became_non_empty=int(len(lst) == 1),
                         became_empty=0)
        elif op == POP:
            if not lst:
                r.update(ok=0, limit_reached=0, length=0, became_non_empty=0, became_empty=0)
            else:
                head = lst.popleft()
                self.dest_count[d] -= 1
                r.update(ok=1, limit_reached=0, cell=head, length=len(lst), became_non_empty=0,
                         became_empty=int(not lst))
                if lst:
                    r["next"] = lst[0]
        elif op == PEEK:
            r.update(ok=int(bool(lst)), limit_reached=0, length=len(lst), became_non_empty=0, became_empty=0)
            if lst:
                r["cell"] = lst[0]
            if len(lst) >= 2:
                r["next"] = lst[1]
        else:
            r.update(ok=0, limit_reached=0, became_non_empty=0, became_empty=0)
        return r


RSP_FIELDS = ("op", "queue", "ok", "limit_reached", "cell", "next", "length", "became_non_empty", "became_empty")


class Bench:
    def __init__(self, dut, rng: random.Random):
        self.dut = dut
        self.rng = rng
        self.model = Model()
        self.free = set(range(CELLS))
        self.pending: deque[tuple[int, dict]] = deque()  # (due cycle, expected answer)
        self.cycle = 0
        self.accepted = 0
        self.answers = 0
        self.popped: list[tuple[int, int]] = []  # (queue, cell) of every successful pop, in order
        self.coverage: dict[str, int] = {}  # answer kinds seen (to show the corners were reached)
        self.last_queue = None
        dut.cmd_valid.value = 0
        dut.cmd_op.value = 0
        dut.cmd_queue.value = 0
        dut.cmd_cell.value = 0
        if DEST_LIMITED:
            dut.dest_limit.value = CELLS
        else:
            assert not hasattr(dut, "dest_limit"), "dest_limit input on a block without destination limits"

    def set_limit(self, limit: int) -> None:
        """A destination limit (an unlimited block behaves as at limit CELLS: never refuses)."""
        assert DEST_LIMITED or limit == CELLS, "no dest_limit input to set"
        self.model.limit = limit
        if DEST_LIMITED:
            self.dut.dest_limit.value = limit

    async def wait_init(self) -> None:
        """cmd_ready must rise after the clear sweep (xpus * vcs cycles) and stay high."""
        while True:
            await ReadOnly()
            if int(self.dut.cmd_ready.value):
                break
            assert not int(self.dut.rsp_valid.value)
            await RisingEdge(self.dut.clk)
            self.cycle += 1
            assert self.cycle <= QUEUES + 2, "cmd_ready never rose"
        assert int(self.dut.init_done.value)
        await RisingEdge(self.dut.clk)
        self.cycle += 1

    async def step(self, cmd: tuple[int, int, int] | None) -> None:
        dut = self.dut
        if cmd is None:
            dut.cmd_valid.value = 0
            dut.cmd_op.value = self.rng.getrandbits(2)
            dut.cmd_queue.value = self.rng.randrange(QUEUES)
            dut.cmd_cell.value = self.rng.randrange(CELLS)
        else:
            op, q, cell = cmd
            dut.cmd_valid.value = 1
            dut.cmd_op.value = op
            dut.cmd_queue.value = q
            dut.cmd_cell.value = cell
        await ReadOnly()
        assert int(dut.cmd_ready.value), f"cycle {self.cycle}: cmd_ready fell"
        valid = int(dut.rsp_valid.value)
        due = self.pending and self.pending[0][0] == self.cycle
        assert bool(valid) == bool(due), f"cycle {self.cycle}: rsp_valid {valid}, expected {int(bool(due))}"
        if due:
            _, want = self.pending.popleft()
            got = {f: int(getattr(dut, f"rsp_{f}").value) for f in RSP_FIELDS if f in want}
            assert got == want, f"cycle {self.cycle}: answer {got}, model {want}"
            self.answers += 1
        if cmd is not None:
            op, q, cell = cmd
            want = self.model.apply(op, q, cell)
            name = ["append", "pop", "peek", "reserved"][op] + ("" if want["ok"] else "-refused") + (
                "-limit" if want.get("limit_reached") else "") + ("-became-empty" if want.get("became_empty") else "") + (
                "-became-non-empty" if want.get("became_non_empty") else "")
            self.coverage[name] = self.coverage.get(name, 0) + 1
            if q == self.last_queue:
                self.coverage["same-queue-back-to-back"] = self.coverage.get("same-queue-back-to-back", 0) + 1
            self.last_queue = q
            if op == APPEND and want["ok"]:
                self.free.discard(cell)
            if op == POP and want["ok"]:
                self.free.add(want["cell"])
                self.popped.append((q, want["cell"]))
            self.pending.append((self.cycle + LATENCY, want))
            self.accepted += 1
        await RisingEdge(dut.clk)
        self.cycle += 1

    async def flush(self) -> None:
        while self.pending:
            await self.step(None)

    def random_cmd(self, queues: list[int], p_append: float, p_peek: float = 0.05,
                   p_reserved: float = 0.01) -> tuple[int, int, int]:
        q = self.rng.choice(queues)
        r = self.rng.random()
        if r < p_reserved:
            return (RESERVED, q, self.rng.randrange(CELLS))
        if r < p_reserved + p_peek:
            return (PEEK, q, self.rng.randrange(CELLS))
        if r < p_reserved + p_peek + p_append and self.free:
            # Cells not yet accepted stay in self.free until the model takes them; pick one
            # that no earlier command in flight is appending (the model already removed those).
            return (APPEND, q, self.rng.choice(sorted(self.free)))
        return (POP, q, self.rng.randrange(CELLS))

    def check_conservation(self) -> None:
        queued = [c for lst in self.model.queues for c in lst]
        assert len(queued) == len(set(queued)), "a cell is queued twice"
        assert not (set(queued) & self.free), "a cell is both queued and free"
        assert len(queued) + len(self.free) == CELLS, f"{len(queued)} queued + {len(self.free)} free != {CELLS}"
        for d in range(XPUS):
            assert self.model.dest_count[d] == sum(len(self.model.queues[d * VCS + v]) for v in range(VCS))

    async def drain_all(self) -> None:
        """Pop every queue until the model says it is empty (the DUT's answers are checked)."""
        for q in range(QUEUES):
            while self.model.queues[q]:
                await self.step((POP, q, 0))
            await self.step((POP, q, 0))  # one more: an empty pop is refused
        await self.flush()
        assert len(self.free) == CELLS


async def begin(dut, seed: int) -> Bench:
    bench = Bench(dut, random.Random(seed))
    await start_clock_and_reset(dut)
    await bench.wait_init()
    return bench


@cocotb.test()
async def random_traffic_every_cycle(dut):
    """One command per cycle across all queues with hot queues (back-to-back ops on one queue),
    varying append/pop mixes (fill up, steady, drain) and destination limits."""
    bench = await begin(dut, cocotb.RANDOM_SEED)
    rng = bench.rng
    all_q = list(range(QUEUES))
    phases = [
        (CELLS, 0.8, 20 * CELLS),
        (CELLS, 0.5, 20 * CELLS),
        (max(1, CELLS // (2 * XPUS)), 0.7, 10 * CELLS),
        (max(1, CELLS // 3), 0.6, 10 * CELLS),
        (0, 0.5, 2 * CELLS),
        (CELLS, 0.2, 6 * CELLS),
    ]
    for limit, p_append, cycles in phases:
        bench.set_limit(limit if DEST_LIMITED else CELLS)
        for _ in range(cycles):
            hot = rng.sample(all_q, min(2, QUEUES))
            queues = hot if rng.random() < 0.6 else all_q
            await bench.step(bench.random_cmd(queues, p_append) if rng.random() < 0.9 else None)
        await bench.flush()
        bench.check_conservation()
    bench.set_limit(CELLS)
    await bench.drain_all()
    bench.check_conservation()
    dut._log.info("%d commands, %d answers checked, %d pops", bench.accepted, bench.answers, len(bench.popped))
    dut._log.info("coverage: %s", dict(sorted(bench.coverage.items())))
    if DEST_LIMITED:
        assert bench.coverage.get("append-refused-limit", 0) > 0, "no append was refused at a limit"
    assert bench.coverage.get("pop-refused", 0) > 0, "no pop of an empty queue"
    assert bench.coverage.get("same-queue-back-to-back", 0) > 100, "too few back-to-back ops on one queue"


@cocotb.test()
async def same_queue_back_to_back(dut):
    """Every pair and triple of operations on one queue with no gap: append/pop/peek in all
    orders, starting from 0, 1 and 2 cells."""
    bench = await begin(dut, cocotb.RANDOM_SEED + 1)
    q = QUEUES - 1
    ops = [APPEND, POP, PEEK]
    seqs = [(a, b) for a in ops for b in ops] + [(a, b, c) for a in ops for b in ops for c in ops]
    for start in (0, 1, 2):
        for seq in seqs:
            for _ in range(start):
                await bench.step((APPEND, q, min(bench.free)))
            for op in seq:
                await bench.step((op, q, min(bench.free)) if op == APPEND else (op, q, 0))
            while bench.model.queues[q]:
                await bench.step((POP, q, 0))
            await bench.flush()
    bench.check_conservation()


@cocotb.test()
async def exhaust_every_cell_and_recover(dut):
    """Queue every cell (limit off), check an append has none left to use, drain, repeat."""
    bench = await begin(dut, cocotb.RANDOM_SEED + 2)
    rng = bench.rng
    for _ in range(2):
        while bench.free:
            await bench.step((APPEND, rng.randrange(QUEUES), rng.choice(sorted(bench.free))))
        await bench.flush()
        bench.check_conservation()
        assert sum(bench.model.dest_count) == CELLS
        await bench.drain_all()
        bench.check_conservation()


@cocotb.test(skip=not DEST_LIMITED)
async def destination_limit(dut):
    """A destination at its limit refuses appends (limit_reached) on every VC while the others
    still accept; a pop makes room again."""
    bench = await begin(dut, cocotb.RANDOM_SEED + 3)
    limit = max(1, min(5, CELLS // (XPUS + 1)))
    bench.set_limit(limit)
    for i in range(limit + 2):
        await bench.step((APPEND, (i % VCS), min(bench.free)))  # destination 0, all VCs
    for v in range(VCS):
        await bench.step((APPEND, v, min(bench.free)))
    await bench.step((APPEND, VCS, min(bench.free)))  # destination 1 still accepts
    await bench.step((POP, 0, 0))
    await bench.step((APPEND, 0, min(bench.free)))  # room again for exactly one
    await bench.step((APPEND, 1 % VCS, min(bench.free)))
    await bench.flush()
    assert bench.model.dest_count[0] == limit
    bench.set_limit(CELLS)
    await bench.drain_all()
    bench.check_conservation()
