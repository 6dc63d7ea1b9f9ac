# SPDX-License-Identifier: Apache-2.0
"""cocotb side of the DemoAccumulator test: random stimulus against a Python
model of the behaviour documented in DemoAccumulator's Javadoc.

Environment (set by test_demo_accumulator.py): DEMO_CYCLES (number of random
cycles), DEMO_SEED.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

# AluOp, binary-encoded in declaration order.
ADD, SUB, XOR, CLEAR = range(4)


class AccumulatorModel:
    """DemoAccumulator as its Javadoc describes it, one call per rising clock edge.

    * reset (synchronous): acc and count become 0; the history RAM and the read
      register keep their contents (they have no reset);
    * in_valid: acc <- op(acc, operand) wrapping at `width` bits, count + 1, and the
      new value is written to history[count mod depth] (count before the increment).
      The write depends on in_valid alone, so it also happens in a reset cycle;
    * hist_en: hist_data <- history[hist_addr] one cycle later, holding otherwise;
      a read of the entry written in the same cycle returns the old entry
      (read-first, as the emitted RAM template behaves);
    * acc_parity is the XOR of acc's bits.

    Entries never written, and hist_data before its first load, are unknown (None).
    """

    def __init__(self, width: int, depth: int):
        self.width, self.depth = width, depth
        self.mask = (1 << width) - 1
        self.acc = None  # unknown until the first reset
        self.count = None
        self.history: list[int | None] = [None] * depth
        self.hist_data: int | None = None

    def alu(self, op: int, operand: int) -> int:
        a = self.acc
        r = {ADD: a + operand, SUB: a - operand, XOR: a ^ operand, CLEAR: 0}[op]
        return r & self.mask

    def clock(self, rst, in_valid, op, operand, hist_en, hist_addr) -> None:
        # Everything below samples the pre-edge state, like nonblocking assignments.
        if hist_en:
            self.hist_data = self.history[hist_addr]
        if in_valid:
            if self.acc is None or self.count is None:
                raise AssertionError("stimulus error: in_valid before the first reset")
            result = self.alu(op, operand)
            self.history[self.count % self.depth] = result
            self.acc, self.count = result, (self.count + 1) & 0xFFFF
        if rst:
            self.acc, self.count = 0, 0

    @property
    def parity(self) -> int:
        return bin(self.acc).count("1") & 1


def value(handle) -> int:
    v = handle.value
    return v.to_unsigned() if hasattr(v, "to_unsigned") else int(v)


@cocotb.test()
async def accumulator_matches_model(dut):
    """Random in_valid/ops/operands/history reads and occasional resets, checked every cycle."""
    width = len(dut.operand)
    depth = 1 << len(dut.hist_addr)
    cycles = int(os.environ.get("DEMO_CYCLES", "3000"))
    rng = random.Random(int(os.environ.get("DEMO_SEED", "1")))
    m = AccumulatorModel(width, depth)
    mask = (1 << width) - 1
    corner = [0, mask, 1 << (width - 1), 1]

    Clock(dut.clk, 10, unit="ns").start()
    stats = {"hist_checked": 0, "resets": 0, "valid": 0, "ops": [0, 0, 0, 0]}
    for cycle in range(cycles):
        await FallingEdge(dut.clk)
        # Reset for the first 2 cycles, then about once every 300 cycles.
        rst = int(cycle < 2 or rng.random() < 1 / 300)
        in_valid = int(cycle >= 2 and rng.random() < 0.7)
        op = rng.choice([ADD, ADD, SUB, SUB, XOR, CLEAR]) if rng.random() < 0.97 else CLEAR
        operand = rng.choice(corner) if rng.random() < 0.2 else rng.getrandbits(width)
        hist_en = int(rng.random() < 0.5)
        hist_addr = rng.randrange(depth)
        dut.rst.value = rst
        dut.in_valid.value = in_valid
        dut.in_op.value = op
        dut.operand.value = operand
        dut.hist_en.value = hist_en
        dut.hist_addr.value = hist_addr

        await RisingEdge(dut.clk)
        m.clock(rst, in_valid, op, operand, hist_en, hist_addr)
        stats["resets"] += rst
        stats["valid"] += in_valid
        stats["ops"][op] += in_valid
        await ReadOnly()
        where = f"cycle {cycle} (rst={rst} in_valid={in_valid} op={op} operand={operand:#x} hist_en={hist_en} hist_addr={hist_addr})"
        assert value(dut.acc) == m.acc, f"{where}: acc={value(dut.acc):#x}, model {m.acc:#x}"
        assert value(dut.count) == m.count, f"{where}: count={value(dut.count)}, model {m.count}"
        assert value(dut.acc_parity) == m.parity, f"{where}: acc_parity={value(dut.acc_parity)}, model {m.parity}"
        if m.hist_data is not None:
            got = value(dut.hist_data)
            assert got == m.hist_data, f"{where}: hist_data={got:#x}, model {m.hist_data:#x}"
            stats["hist_checked"] += 1

    dut._log.info("width %d depth %d: %d cycles, %s", width, depth, cycles, stats)
    # A full-length run must have exercised what it claims to check (short smoke runs
    # from the cache test are too short for these numbers).
    if cycles >= 1000:
        assert stats["resets"] >= 3 and min(stats["ops"]) > 0, stats
        assert stats["hist_checked"] > cycles // 4, f"too few history reads checked: {stats['hist_checked']}"
