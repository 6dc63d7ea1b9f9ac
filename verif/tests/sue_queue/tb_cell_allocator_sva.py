# SPDX-License-Identifier: Apache-2.0
"""Deliberately frees a cell while every cell is free, to prove the allocator's SVA runs in
simulation: test_cell_allocator.py expects this run to fail."""

import cocotb
from cocotb.triggers import RisingEdge

from common.stream_bfm import start_clock_and_reset


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def double_free_stops_the_simulation(dut):
    dut.alloc_ready.value = 0
    dut.free_valid.value = 0
    dut.free_payload.value = 0
    await start_clock_and_reset(dut)
    dut.free_valid.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
