# SPDX-License-Identifier: Apache-2.0
"""cocotb checks shared by the register-slice testbenches (forward, skid, full, half).

Every slice top has ``clk``/``rst``, an input stream ``s`` and an output stream ``m``; with
the environment variable ``PACKET=1`` the payload is ``{data, keep, last}`` instead of
``payload``. Each ``tb_<block>.py`` states what its block promises (latency, cycles per beat,
which outputs come straight from registers) and calls these checks.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, with_timeout

from .streams import (
    StreamSink,
    StreamSource,
    apply_reset,
    check_scoreboard,
    random_pause,
    watch_registered_outputs,
)

FIELDS = ("data", "keep", "last") if os.environ.get("PACKET") == "1" else None
IDLE_BACKPRESSURE = {"idle": [False, True], "backpressure": [False, True]}


def expand(names: list[str]) -> list[str]:
    """``m_payload`` stands for the payload ports, whatever they are called."""
    out = []
    for n in names:
        if n.endswith("_payload") and FIELDS:
            out += [n.replace("_payload", "_" + f) for f in FIELDS]
        else:
            out.append(n)
    return out


async def start(dut, *, idle: bool = False, backpressure: bool = False, seed: int = 0):
    """Clock, reset, and a source on ``s`` and a sink on ``m`` (random pauses when asked)."""
    Clock(dut.clk, 10, unit="ns").start()
    src = StreamSource(dut, "s", dut.clk, dut.rst, fields=FIELDS, seed=seed,
                       pause=random_pause(0.4, seed + 1) if idle else None)
    snk = StreamSink(dut, "m", dut.clk, dut.rst, fields=FIELDS,
                     pause=random_pause(0.4, seed + 2) if backpressure else None)
    await apply_reset(dut.clk, dut.rst)
    return src, snk


async def data_test(dut, *, idle: bool, backpressure: bool, registered: list[str], count: int = 600):
    """Random beats under idle/backpressure arrive complete, once each, in order."""
    seed = cocotb.RANDOM_SEED + 2 * idle + backpressure
    src, snk = await start(dut, idle=idle, backpressure=backpressure, seed=seed)
    cocotb.start_soon(watch_registered_outputs(dut.clk, {n: getattr(dut, n) for n in expand(registered)}))
    rng = random.Random(seed)
    items = [src.random_item(rng) for _ in range(count)]
    src.send(items)
    await with_timeout(snk.wait_for(count), 20 * count * 10, "ns")
    await ClockCycles(dut.clk, 10)  # anything after the last beat would be a duplicate
    check_scoreboard(items, snk.received)


async def throughput_test(dut, *, latency: int, cycles_per_beat: int, count: int = 200):
    """With no idle and no backpressure: first-beat latency and the steady beat rate, exactly.

    Returns the source and sink for block-specific checks.
    """
    src, snk = await start(dut, seed=cocotb.RANDOM_SEED)
    rng = random.Random(cocotb.RANDOM_SEED)
    items = [src.random_item(rng) for _ in range(count)]
    src.send(items)
    await with_timeout(snk.wait_for(count), 20 * count * 10, "ns")
    check_scoreboard(items, snk.received)
    got_latency = snk.received_cycles[0] - src.sent_cycles[0]
    assert got_latency == latency, f"first beat took {got_latency} cycle(s), the block promises {latency}"
    accept_span = src.sent_cycles[-1] - src.sent_cycles[0] + 1
    deliver_span = snk.received_cycles[-1] - snk.received_cycles[0] + 1
    expected = (count - 1) * cycles_per_beat + 1
    dut._log.info("%d beats accepted in %d cycles, delivered in %d cycles", count, accept_span, deliver_span)
    assert accept_span == expected, f"{count} beats accepted in {accept_span} cycles, expected {expected}"
    assert deliver_span == expected, f"{count} beats delivered in {deliver_span} cycles, expected {expected}"
    return src, snk


async def ready_recovers_test(dut, count: int = 1000):
    """Under random backpressure, ``s_ready`` is high in every cycle after one with ``m_ready``
    high: a registered ready that never adds a bubble of its own."""
    src, snk = await start(dut, idle=True, backpressure=True, seed=cocotb.RANDOM_SEED + 7)
    cocotb.start_soon(_watch_ready_recovers(dut))  # a failing task fails the test
    rng = random.Random(cocotb.RANDOM_SEED)
    items = [src.random_item(rng) for _ in range(count)]
    src.send(items)
    await with_timeout(snk.wait_for(count), 20 * count * 10, "ns")
    check_scoreboard(items, snk.received)


async def _watch_ready_recovers(dut):
    from cocotb.triggers import FallingEdge, ReadOnly

    previous_m_ready = False
    while True:
        await FallingEdge(dut.clk)
        await ReadOnly()
        if previous_m_ready:
            assert dut.s_ready.value, "s_ready low although m_ready was high in the previous cycle"
        previous_m_ready = bool(dut.m_ready.value)
