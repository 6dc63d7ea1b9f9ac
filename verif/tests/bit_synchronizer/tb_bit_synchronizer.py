# SPDX-License-Identifier: Apache-2.0
"""cocotb tests for bit_synchronizer: async_in changes at random instants unrelated to clk;
sync_out must equal the value async_in had at the clk edge STAGES edges back."""

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.simtime import get_sim_time
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge, Timer

STAGES = int(os.environ["STAGES"])
PERIOD_PS = 10_000


async def wander(dut, rng):
    """Level changes at random times, kept 100 ps clear of rising edges so the sample is defined."""
    while True:
        await Timer(rng.randrange(1, 4 * PERIOD_PS), unit="ps")
        phase = get_sim_time("ps") % PERIOD_PS
        if phase < 100 or phase > PERIOD_PS - 100:
            continue
        dut.async_in.value = rng.getrandbits(1)


@cocotb.test()
async def output_is_the_input_delayed_by_stages_edges(dut):
    Clock(dut.clk, PERIOD_PS, unit="ps").start()
    dut.async_in.value = 0
    dut.rst.value = 1
    await RisingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.rst.value = 0
    samples = [0] * STAGES  # the registers hold 0 after reset
    changes = 0
    cocotb.start_soon(wander(dut, random.Random(cocotb.RANDOM_SEED)))
    for _ in range(3000):
        await RisingEdge(dut.clk)
        samples.append(int(dut.async_in.value))  # inputs never move at an edge: this is the sampled value
        await ReadOnly()
        assert int(dut.sync_out.value) == samples[-STAGES], f"sync_out {dut.sync_out.value}, expected {samples[-STAGES]}"
        changes += samples[-1] != samples[-2]
    assert changes > 300, "the input hardly moved: the test proves little"
