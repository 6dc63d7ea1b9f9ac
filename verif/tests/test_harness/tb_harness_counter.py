# SPDX-License-Identifier: Apache-2.0
"""cocotb side of the harness self-test: a counter against a Python model.

Runs inside the Verilator simulator (launched by common.run_cocotb from
test_harness.py). The width comes from the port itself, so the same tests work
for any value of the W parameter.
"""

import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge


async def _reset(dut):
    dut.rst.value = 1
    dut.en.value = 0
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.rst.value = 0


@cocotb.test()
async def counter_matches_model(dut):
    """Random enable and reset for 500 cycles; compare every cycle with a model."""
    width = len(dut.count)
    Clock(dut.clk, 10, unit="ns").start()
    await _reset(dut)
    rng = random.Random(1234)
    model = 0
    wrapped = False
    for _ in range(500):
        # Drive on the falling edge, sample after the rising edge settles.
        await FallingEdge(dut.clk)
        en = rng.random() < 0.8
        rst = rng.random() < 0.01
        dut.en.value = int(en)
        dut.rst.value = int(rst)
        await RisingEdge(dut.clk)
        if rst:
            model = 0
        elif en:
            wrapped |= model == (1 << width) - 1
            model = (model + 1) % (1 << width)
        await ReadOnly()
        got = dut.count.value.to_unsigned()
        assert got == model, f"count={got}, model={model}"
    if width <= 6:
        assert wrapped, "a narrow counter should have wrapped in 500 cycles"

