# SPDX-License-Identifier: Apache-2.0
"""cocotb tests for stream_fifo against a cycle-accurate Python model of its documented timing.

Configuration comes from the environment (set by test_stream_fifo.py): DEPTH, RAM (1 = RAM storage;
registers and LUT RAM have the same timing: 0), THRESHOLD (almost-full threshold), PACKET (1 = {data,
keep, last} payload).
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import ClockCycles, FallingEdge, ReadOnly, with_timeout

from common.slice_tb import IDLE_BACKPRESSURE, expand, start
from common.streams import check_scoreboard, watch_registered_outputs

DEPTH = int(os.environ["DEPTH"])
RAM = os.environ["RAM"] == "1"
THRESHOLD = int(os.environ["THRESHOLD"])
LATENCY = 2 if RAM else 1


class FifoModel:
    """What the FIFO's Javadoc promises, cycle by cycle (state after each rising edge)."""

    def __init__(self):
        self.count = 0
        self.out_valid = False  # RAM storage: the read register holds the head

    def m_valid(self) -> bool:
        return self.out_valid if RAM else self.count > 0

    def step(self, push: bool, pop: bool) -> None:
        if RAM:
            stage_free = not self.out_valid or pop
            if stage_free:
                self.out_valid = self.count != int(self.out_valid)  # fetch when the RAM holds more
        self.count += int(push) - int(pop)


async def check_against_model(dut, seen: set | None = None) -> None:
    """Every cycle: occupancy, full (s_ready), empty (m_valid) and almost_full equal the model;
    each (occupancy, push, pop) met is added to *seen*."""
    model = FifoModel()
    cycle = 0
    while True:
        await FallingEdge(dut.clk)
        await ReadOnly()
        cycle += 1
        got = {
            "occupancy": int(dut.occupancy.value),
            "s_ready": bool(dut.s_ready.value),
            "m_valid": bool(dut.m_valid.value),
            "almost_full": bool(dut.almost_full.value),
        }
        want = {
            "occupancy": model.count,
            "s_ready": model.count != DEPTH,
            "m_valid": model.m_valid(),
            "almost_full": model.count >= THRESHOLD,
        }
        assert got == want, f"cycle {cycle}: DUT {got}, model {want}"
        push = got["s_ready"] and bool(dut.s_valid.value)
        pop = got["m_valid"] and bool(dut.m_ready.value)
        if seen is not None:
            seen.add((model.count, push, pop))
        model.step(push, pop)


async def begin(dut, seen: set | None = None, **kwargs):
    src, snk = await start(dut, **kwargs)
    cocotb.start_soon(check_against_model(dut, seen))
    registered = ["s_ready", "m_valid", "m_payload", "occupancy", "almost_full"]
    cocotb.start_soon(watch_registered_outputs(dut.clk, {n: getattr(dut, n) for n in expand(registered)}))
    return src, snk


@cocotb.test()
@cocotb.parametrize(**IDLE_BACKPRESSURE)
async def every_beat_once_in_order(dut, idle, backpressure):
    count = max(600, 10 * DEPTH)
    seed = cocotb.RANDOM_SEED + 2 * idle + backpressure
    src, snk = await begin(dut, idle=idle, backpressure=backpressure, seed=seed)
    rng = random.Random(seed)
    items = [src.random_item(rng) for _ in range(count)]
    src.send(items)
    await with_timeout(snk.wait_for(count), 30 * count * 10, "ns")
    await ClockCycles(dut.clk, 10)
    check_scoreboard(items, snk.received)


@cocotb.test()
async def fill_to_depth_then_drain(dut):
    """With the sink stopped, exactly DEPTH beats go in; then all come out in order."""
    src, snk = await begin(dut, backpressure=True, seed=cocotb.RANDOM_SEED)
    snk.pause = iter(lambda: True, None)  # never ready
    rng = random.Random(cocotb.RANDOM_SEED)
    items = [src.random_item(rng) for _ in range(DEPTH + 3)]
    src.send(items)
    await ClockCycles(dut.clk, DEPTH + 10)
    assert len(src.sent) == DEPTH, f"accepted {len(src.sent)} beats into a {DEPTH}-deep FIFO"
    assert int(dut.occupancy.value) == DEPTH and not dut.s_ready.value and dut.almost_full.value
    snk.pause = None
    await with_timeout(snk.wait_for(len(items)), 100 * len(items) * 10, "ns")
    await ClockCycles(dut.clk, LATENCY + 2)
    check_scoreboard(items, snk.received)
    assert int(dut.occupancy.value) == 0 and not dut.m_valid.value and dut.s_ready.value


@cocotb.test()
async def first_word_latency_and_rate(dut):
    """No idle, no backpressure: the first beat takes LATENCY cycles; from DEPTH > LATENCY on,
    one beat per cycle (smaller FIFOs follow the model's slower rate, checked every cycle)."""
    count = 200
    src, snk = await begin(dut, seed=cocotb.RANDOM_SEED)
    rng = random.Random(cocotb.RANDOM_SEED)
    items = [src.random_item(rng) for _ in range(count)]
    src.send(items)
    await with_timeout(snk.wait_for(count), 10 * count * 10, "ns")
    check_scoreboard(items, snk.received)
    latency = snk.received_cycles[0] - src.sent_cycles[0]
    assert latency == LATENCY, f"first beat took {latency} cycles, expected {LATENCY}"
    span = snk.received_cycles[-1] - snk.received_cycles[0] + 1
    dut._log.info("depth %d: %d beats delivered in %d cycles", DEPTH, count, span)
    if DEPTH > LATENCY:
        assert span == count, f"{count} beats took {span} cycles; expected one per cycle"


def phased_pause(rng: random.Random, phase: int, probabilities: list[float]):
    """Pause with each probability in turn for *phase* cycles, round and round."""
    while True:
        for p in probabilities:
            for _ in range(phase):
                yield rng.random() < p


@cocotb.test()
async def every_handshake_at_every_occupancy(dut):
    """Phases that fill the FIFO, drain it and hold it level while both sides are busy: at every
    occupancy 0..DEPTH, each handshake the FIFO allows (push alone, pop alone, push and pop
    together, neither) happens, with the count and every flag checked after it by the model, and
    the beats come out in order. Push and pop together one below full and one above empty, a pop
    from full with a push waiting, a push into empty with the sink ready: the corners where the
    count's step and its registered flags could go wrong."""
    seen: set = set()
    src, snk = await begin(dut, seen=seen, seed=cocotb.RANDOM_SEED)
    rng = random.Random(cocotb.RANDOM_SEED + 7)
    phase = 4 * DEPTH + 8
    # filling (source busy, sink slow), level (both half busy), draining, both always busy
    src.pause = phased_pause(rng, phase, [0.1, 0.5, 0.7, 0.0])
    snk.pause = phased_pause(rng, phase, [0.7, 0.5, 0.1, 0.0])
    count = 12 * 4 * phase
    items = [src.random_item(rng) for _ in range(count)]
    src.send(items)
    await with_timeout(snk.wait_for(count), 40 * count * 10, "ns")
    await ClockCycles(dut.clk, 10)
    check_scoreboard(items, snk.received)
    wanted = {(c, push, pop) for c in range(DEPTH + 1) for push in (False, True) for pop in (False, True)
              if (c < DEPTH or not push) and (c > 0 or not pop)}
    missing = sorted(wanted - seen)
    assert not missing, f"(occupancy, push, pop) never met: {missing}"
