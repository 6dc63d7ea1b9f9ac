# SPDX-License-Identifier: Apache-2.0
"""cocotb tests for stream_forward_register: valid and payload registered, latency 1."""

import cocotb

from common.slice_tb import IDLE_BACKPRESSURE, data_test, throughput_test


@cocotb.test()
@cocotb.parametrize(**IDLE_BACKPRESSURE)
async def every_beat_once_in_order(dut, idle, backpressure):
    await data_test(dut, idle=idle, backpressure=backpressure, registered=["m_valid", "m_payload"])


@cocotb.test()
async def one_beat_per_cycle_after_one_cycle(dut):
    src, _ = await throughput_test(dut, latency=1, cycles_per_beat=1)
    assert src.ready_cycles == src.active_cycles, "s_ready must stay high while m_ready is high"
