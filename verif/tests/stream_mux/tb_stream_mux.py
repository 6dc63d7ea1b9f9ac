# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for StreamMux (top ``stream_mux``): sel picks the input passed to m.

A select controller plays the user: it points sel at a random input and keeps
it there for a whole packet (and never while m is stalled, as the block
requires), then may switch. Every input's packets must come out byte-exact and
in order, and an input that is not selected must never see ready.
"""

from __future__ import annotations

import random

import cocotb

from common.stream_bfm import (
    PACKET_FIELDS,
    ClockedBench,
    StreamSink,
    StreamSource,
    beats_to_packets,
    count_streams,
    data_width_bytes,
    packet_beats,
    random_packet,
    start_clock_and_reset,
)


class SelectController:
    """Drives sel: switches only between packets and never while m is stalled."""

    def __init__(self, dut, n: int, rng: random.Random, switch_rate: float = 0.3):
        self.dut, self.n, self.rng, self.switch_rate = dut, n, rng, switch_rate
        self.sel = 0
        self.mid_packet = False
        self.stalled = False
        self.routes: list[int] = []  # sel of every transfer on m
        dut.sel.value = 0

    def drive(self) -> None:
        if not self.mid_packet and not self.stalled and self.rng.random() < self.switch_rate:
            self.sel = self.rng.randrange(self.n)
            self.dut.sel.value = self.sel

    def sample(self) -> None:
        valid, ready = int(self.dut.m_valid.value), int(self.dut.m_ready.value)
        self.stalled = bool(valid and not ready)
        if valid and ready:
            self.routes.append(self.sel)
            self.mid_packet = not int(self.dut.m_last.value)


@cocotb.test(timeout_time=2, timeout_unit="ms")
@cocotb.parametrize(idle=[0.0, 0.5], backpressure=[0.0, 0.5])
async def packets_follow_sel(dut, idle, backpressure):
    n = count_streams(dut, "s")
    wb = data_width_bytes(dut, "m")
    rng = random.Random(int(idle * 10) * 10 + int(backpressure * 10) + n)
    bench = ClockedBench(dut.clk)
    sources = [bench.add(StreamSource(dut, f"s_{i}", PACKET_FIELDS, random.Random(rng.random()), idle))
               for i in range(n)]
    sink = bench.add(StreamSink(dut, "m", PACKET_FIELDS, random.Random(rng.random()), backpressure))
    control = bench.add(SelectController(dut, n, random.Random(rng.random())))
    await start_clock_and_reset(dut)

    sent = [[random_packet(rng, 1, 3 * wb) for _ in range(16)] for _ in range(n)]
    for src, packets in zip(sources, sent):
        for p in packets:
            src.send_all(packet_beats(p, wb))
    total = sum(len(s.queue) for s in sources)
    await bench.run_until(lambda: len(sink.beats) >= total, timeout=100 * total + 1000, what="all packets")
    await bench.run(10)

    assert len(sink.beats) == total == len(control.routes)
    for i in range(n):
        got = [b for b, r in zip(sink.beats, control.routes) if r == i]
        assert got == [b for _, b in sources[i].sent], f"s_{i}: beats on m differ from the beats s_{i} gave"
        assert beats_to_packets(got, wb) == sent[i], f"s_{i}: packets differ"
