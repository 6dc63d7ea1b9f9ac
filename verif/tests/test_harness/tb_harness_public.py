# SPDX-License-Identifier: Apache-2.0
"""cocotb side of test_harness.test_public_reaches_what_it_says: the counter's ports are always
reachable; the incrementer instance inside it (u_incr) only in a public="all" build
(TB_EXPECT_INNER=1), never in a public="top" one (TB_EXPECT_INNER=0)."""

import os

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge


@cocotb.test()
async def inner_signals_as_built(dut):
    Clock(dut.clk, 10, unit="ns").start()
    dut.rst.value = 1
    dut.en.value = 1
    await RisingEdge(dut.clk)
    dut.rst.value = 0
    for _ in range(3):
        await RisingEdge(dut.clk)
    await ReadOnly()
    count = dut.count.value.to_unsigned()
    if os.environ["TB_EXPECT_INNER"] == "1":
        assert dut.u_incr.y.value.to_unsigned() == count + 1, "u_incr.y must be count + 1"
    else:
        try:
            inner = dut.u_incr
        except AttributeError:
            return
        raise AssertionError(f"u_incr is reachable in a public='top' build: {inner!r}")
