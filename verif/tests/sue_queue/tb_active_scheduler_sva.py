# SPDX-License-Identifier: Apache-2.0
"""Deliberately reports DONE for a queue that was never granted, to prove the scheduler's SVA
run in simulation: test_active_scheduler.py expects this run to fail."""

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge

from common.stream_bfm import start_clock_and_reset


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def done_for_an_idle_queue_stops_the_simulation(dut):
    dut.ev_valid.value = 0
    dut.ev_kind.value = 2  # DONE
    dut.ev_queue.value = 1
    dut.ev_eligible.value = 1
    dut.pause.value = 0
    dut.grant_ready.value = 1
    await start_clock_and_reset(dut)
    while True:
        await ReadOnly()
        if int(dut.ev_ready.value):
            break
        await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.ev_valid.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
