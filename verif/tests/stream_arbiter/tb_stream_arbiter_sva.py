# SPDX-License-Identifier: Apache-2.0
"""Deliberately breaks the stream rules on an arbiter input, to prove its SVA
runs in simulation: test_stream_arbiter.py expects this run to fail."""

import cocotb
from cocotb.triggers import RisingEdge

from common.stream_bfm import start_clock_and_reset


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def dropped_valid_stops_the_simulation(dut):
    """s_0 offers a beat while m is not ready, then drops valid before the transfer."""
    dut.m_ready.value = 0
    dut.s_0_valid.value = 0
    await start_clock_and_reset(dut)
    dut.s_0_valid.value = 1
    await RisingEdge(dut.clk)
    dut.s_0_valid.value = 0
    for _ in range(3):
        await RisingEdge(dut.clk)
