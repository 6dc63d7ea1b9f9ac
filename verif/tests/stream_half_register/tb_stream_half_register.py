# SPDX-License-Identifier: Apache-2.0
"""cocotb tests for stream_half_register: every output registered, latency 1, half rate."""

import cocotb

from common.slice_tb import IDLE_BACKPRESSURE, data_test, throughput_test


@cocotb.test()
@cocotb.parametrize(**IDLE_BACKPRESSURE)
async def every_beat_once_in_order(dut, idle, backpressure):
    await data_test(dut, idle=idle, backpressure=backpressure, registered=["s_ready", "m_valid", "m_payload"])


@cocotb.test()
async def one_beat_every_two_cycles(dut):
    await throughput_test(dut, latency=1, cycles_per_beat=2)
