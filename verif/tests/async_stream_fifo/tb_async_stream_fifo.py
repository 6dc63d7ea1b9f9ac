# SPDX-License-Identifier: Apache-2.0
"""cocotb tests for async_stream_fifo: push side on s_clk, pop side on m_clk, unrelated periods.

Configuration from the environment (set by test_async_stream_fifo.py): DEPTH, STAGES,
S_PERIOD and M_PERIOD (ns), PACKET (1 = {data, keep, last} payload).
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, Combine, FallingEdge, ReadOnly, RisingEdge, Timer, with_timeout

from common.slice_tb import FIELDS
from common.streams import StreamSink, StreamSource, check_scoreboard, random_pause, watch_registered_outputs

DEPTH = int(os.environ["DEPTH"])
STAGES = int(os.environ["STAGES"])
S_PERIOD = float(os.environ["S_PERIOD"])
M_PERIOD = float(os.environ["M_PERIOD"])
SLOW = max(S_PERIOD, M_PERIOD)


def wait_ns(ns: float) -> Timer:
    return Timer(round(ns * 1000), unit="ps")  # whole picoseconds: the simulator's precision


class Transfers:
    """Transfers that have really happened (counted at the clock edge that performs them)."""

    pushes = 0
    pops = 0


async def _release(clock, reset, cycles):
    await ClockCycles(clock, cycles)
    await FallingEdge(clock)
    reset.value = 0


async def begin(dut, *, idle=False, backpressure=False, seed=0):
    """Both clocks, both resets together, drivers, and the per-side checks."""
    Clock(dut.s_clk, S_PERIOD, unit="ns").start()
    Clock(dut.m_clk, M_PERIOD, unit="ns").start()
    src = StreamSource(dut, "s", dut.s_clk, dut.s_rst, fields=FIELDS, seed=seed,
                       pause=random_pause(0.4, seed + 1) if idle else None)
    snk = StreamSink(dut, "m", dut.m_clk, dut.m_rst, fields=FIELDS,
                     pause=random_pause(0.4, seed + 2) if backpressure else None)
    dut.s_rst.value = 1
    dut.m_rst.value = 1
    await Combine(cocotb.start_soon(_release(dut.s_clk, dut.s_rst, 4)),
                  cocotb.start_soon(_release(dut.m_clk, dut.m_rst, 4)))
    counts = Transfers()
    cocotb.start_soon(check_push_side(dut, counts))
    cocotb.start_soon(check_pop_side(dut, counts))
    s_outputs = ["s_ready", "push_occupancy"]
    m_outputs = ["m_valid", "pop_occupancy"] + ([f"m_{f}" for f in FIELDS] if FIELDS else ["m_payload"])
    cocotb.start_soon(watch_registered_outputs(dut.s_clk, {n: getattr(dut, n) for n in s_outputs}))
    cocotb.start_soon(watch_registered_outputs(dut.m_clk, {n: getattr(dut, n) for n in m_outputs}))
    return src, snk


async def check_push_side(dut, counts: Transfers) -> None:
    """Push occupancy never under-counts (it sees pops late) and full is exactly occupancy == DEPTH."""
    while True:
        await FallingEdge(dut.s_clk)
        await ReadOnly()
        occupancy = int(dut.push_occupancy.value)
        true_count = counts.pushes - counts.pops
        assert true_count <= occupancy <= DEPTH, f"push_occupancy {occupancy}, true count {true_count}"
        assert bool(dut.s_ready.value) == (occupancy != DEPTH), f"s_ready with push_occupancy {occupancy}"
        pushing = bool(dut.s_valid.value) and bool(dut.s_ready.value)
        await RisingEdge(dut.s_clk)
        counts.pushes += pushing


async def check_pop_side(dut, counts: Transfers) -> None:
    """Pop occupancy never over-counts (it sees pushes late) and covers the offered head."""
    while True:
        await FallingEdge(dut.m_clk)
        await ReadOnly()
        occupancy = int(dut.pop_occupancy.value)
        true_count = counts.pushes - counts.pops
        assert occupancy <= true_count, f"pop_occupancy {occupancy}, true count {true_count}"
        assert occupancy >= int(dut.m_valid.value), f"m_valid with pop_occupancy {occupancy}"
        popping = bool(dut.m_valid.value) and bool(dut.m_ready.value)
        await RisingEdge(dut.m_clk)
        counts.pops += popping


async def settle_and_check_empty(dut) -> None:
    await wait_ns(4 * (STAGES + 2) * SLOW)
    await FallingEdge(dut.s_clk)
    assert int(dut.push_occupancy.value) == 0 and dut.s_ready.value
    await FallingEdge(dut.m_clk)
    assert int(dut.pop_occupancy.value) == 0 and not dut.m_valid.value


@cocotb.test()
@cocotb.parametrize(idle=[False, True], backpressure=[False, True])
async def every_beat_once_in_order(dut, idle, backpressure):
    count = max(500, 10 * DEPTH)
    seed = cocotb.RANDOM_SEED + 2 * idle + backpressure
    src, snk = await begin(dut, idle=idle, backpressure=backpressure, seed=seed)
    rng = random.Random(seed)
    items = [src.random_item(rng) for _ in range(count)]
    src.send(items)
    await with_timeout(snk.wait_for(count), round(10 * count * SLOW), "ns")
    await settle_and_check_empty(dut)
    check_scoreboard(items, snk.received)


@cocotb.test()
async def fill_to_depth_then_drain(dut):
    """With the sink stopped exactly DEPTH beats go in, both occupancies reach DEPTH, then all
    come out in order and both return to 0."""
    src, snk = await begin(dut, backpressure=True, seed=cocotb.RANDOM_SEED)
    snk.pause = iter(lambda: True, None)
    rng = random.Random(cocotb.RANDOM_SEED)
    items = [src.random_item(rng) for _ in range(DEPTH + 3)]
    src.send(items)
    await wait_ns((DEPTH + 4 * (STAGES + 2)) * SLOW)
    assert len(src.sent) == DEPTH, f"accepted {len(src.sent)} beats into a {DEPTH}-deep FIFO"
    await FallingEdge(dut.m_clk)
    assert int(dut.pop_occupancy.value) == DEPTH and dut.m_valid.value
    snk.pause = None
    await with_timeout(snk.wait_for(len(items)), round(20 * len(items) * SLOW + 1000), "ns")
    await settle_and_check_empty(dut)
    check_scoreboard(items, snk.received)


@cocotb.test()
async def first_word_latency(dut):
    """A lone beat is offered on m after exactly STAGES + 1 m_clk edges following its push edge."""
    src, snk = await begin(dut, seed=cocotb.RANDOM_SEED)
    for trial in range(5):
        src.send([src.random_item(random.Random(trial))])
        await RisingEdge(dut.s_clk)
        while not src.idle:  # the edge that performs the push
            await RisingEdge(dut.s_clk)
        edges = 0
        while True:
            await RisingEdge(dut.m_clk)
            edges += 1
            await ReadOnly()
            if dut.m_valid.value:
                break
            assert edges < 10 * STAGES, "the beat never arrived"
        assert edges == STAGES + 1, f"trial {trial}: m_valid rose after {edges} m_clk edges, expected {STAGES + 1}"
        await snk.wait_for(trial + 1)
        await wait_ns((STAGES + 3) * SLOW)


@cocotb.test()
async def steady_rate_of_the_slower_clock(dut):
    """No idle, no backpressure: after the pipeline fills, one beat per cycle of the slower clock."""
    count = 400
    src, snk = await begin(dut, seed=cocotb.RANDOM_SEED)
    rng = random.Random(cocotb.RANDOM_SEED)
    items = [src.random_item(rng) for _ in range(count)]
    src.send(items)
    await with_timeout(snk.wait_for(count), round(10 * count * SLOW), "ns")
    check_scoreboard(items, snk.received)
    slow_is_m = M_PERIOD >= S_PERIOD
    cycles = snk.received_cycles if slow_is_m else src.sent_cycles
    window = cycles[-1] - cycles[100] + 1  # skip the fill
    rate = (count - 100) / window
    dut._log.info("depth %d, s %.1f ns, m %.1f ns: %.3f beats per slower-clock cycle", DEPTH, S_PERIOD, M_PERIOD, rate)
    if DEPTH >= 2 * (STAGES + 2):  # the documented full-throughput condition
        assert rate == 1.0, f"{rate:.3f} beats per slower-clock cycle, expected 1"
