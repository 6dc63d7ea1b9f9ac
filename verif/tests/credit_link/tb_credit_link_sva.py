# SPDX-License-Identifier: Apache-2.0
"""Deliberately returns a credit that was never spent, to prove the sender's
overflow SVA runs in simulation: test_credit_link.py expects this run to fail."""

import cocotb
from cocotb.triggers import RisingEdge

from common.stream_bfm import start_clock_and_reset


@cocotb.test(timeout_time=1, timeout_unit="ms")
async def invented_credit_stops_the_simulation(dut):
    for sig in (dut.s_valid, dut.m_ready, dut.rx_received, dut.rx_freed, dut.tx_credits_returned):
        sig.value = 0
    await start_clock_and_reset(dut)
    dut.tx_credits_returned.value = 1  # the sender already holds every credit
    for _ in range(3):
        await RisingEdge(dut.clk)
