# SPDX-License-Identifier: Apache-2.0
"""Deliberately sends a queue id >= xpus * vcs, to prove the queue lists' SVA run in
simulation: test_queue_lists.py expects this run to fail (needs a non-power-of-two queue count)."""

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge

from common.stream_bfm import start_clock_and_reset


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def bad_queue_id_stops_the_simulation(dut):
    dut.cmd_valid.value = 0
    dut.cmd_op.value = 0
    dut.cmd_queue.value = (1 << len(dut.cmd_queue)) - 1
    dut.cmd_cell.value = 0
    await start_clock_and_reset(dut)
    while True:
        await ReadOnly()
        if int(dut.cmd_ready.value):
            break
        await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    dut.cmd_valid.value = 1
    for _ in range(3):
        await RisingEdge(dut.clk)
