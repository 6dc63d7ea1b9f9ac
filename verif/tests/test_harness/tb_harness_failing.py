# SPDX-License-Identifier: Apache-2.0
"""cocotb module whose test always fails: test_harness.py checks that a cocotb
failure becomes a pytest failure naming the cocotb test."""

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import RisingEdge


@cocotb.test()
async def deliberately_failing(dut):
    Clock(dut.clk, 10, unit="ns").start()
    await RisingEdge(dut.clk)
    assert False, "deliberate failure"
