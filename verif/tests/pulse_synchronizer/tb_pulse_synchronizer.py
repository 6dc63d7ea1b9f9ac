# SPDX-License-Identifier: Apache-2.0
"""cocotb tests for pulse_synchronizer: src_clk and dst_clk unrelated (periods from the
environment: SRC_PERIOD, DST_PERIOD in ns; STAGES). Random source pulses obeying the spacing
rule; each must become exactly one dst_pulse, STAGES dst_clk edges after its source edge."""

import os
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.simtime import get_sim_time
from cocotb.triggers import ClockCycles, Combine, FallingEdge, ReadOnly, RisingEdge

STAGES = int(os.environ["STAGES"])
SRC_PS = round(float(os.environ["SRC_PERIOD"]) * 1000)
DST_PS = round(float(os.environ["DST_PERIOD"]) * 1000)
PULSES = 150


async def _reset(clock, reset):
    reset.value = 1
    await ClockCycles(clock, 3)
    await FallingEdge(clock)
    reset.value = 0


async def send_pulses(dut, rng, sent: deque):
    """One-cycle pulses at least STAGES + 1 destination cycles apart (the documented rule)."""
    for _ in range(PULSES):
        gap_ps = (STAGES + 1) * DST_PS + rng.randrange(0, 3 * DST_PS)
        await ClockCycles(dut.src_clk, max(1, -(-gap_ps // SRC_PS)))
        await FallingEdge(dut.src_clk)
        dut.src_pulse.value = 1
        await RisingEdge(dut.src_clk)
        sent.append(get_sim_time("ps"))  # the edge that flips the toggle
        await FallingEdge(dut.src_clk)
        dut.src_pulse.value = 0


@cocotb.test()
async def each_pulse_arrives_once_after_stages_edges(dut):
    Clock(dut.src_clk, SRC_PS, unit="ps").start()
    Clock(dut.dst_clk, DST_PS, unit="ps").start()
    dut.src_pulse.value = 0
    await Combine(cocotb.start_soon(_reset(dut.src_clk, dut.src_rst)),
                  cocotb.start_soon(_reset(dut.dst_clk, dut.dst_rst)))
    sent: deque = deque()
    sender = cocotb.start_soon(send_pulses(dut, random.Random(cocotb.RANDOM_SEED), sent))
    received = 0
    edges_since = []  # per outstanding source pulse: dst edges strictly after its source edge
    previous = 0
    while not (sender.done() and not sent and not edges_since) or previous:
        await RisingEdge(dut.dst_clk)
        now = get_sim_time("ps")
        while sent and sent[0] < now:
            sent.popleft()
            edges_since.append(0)
        edges_since = [n + 1 for n in edges_since]
        await ReadOnly()
        pulse = int(dut.dst_pulse.value)
        assert not (pulse and previous), "dst_pulse high for two cycles in a row"
        if pulse:
            assert edges_since, "dst_pulse without a source pulse"
            oldest = edges_since.pop(0)
            assert oldest == STAGES, f"pulse {received} arrived {oldest} dst edges after its source edge, expected {STAGES}"
            received += 1
        assert not edges_since or edges_since[0] <= STAGES, "a source pulse was lost"
        previous = pulse
    assert received == PULSES, f"sent {PULSES} pulses, received {received}"
