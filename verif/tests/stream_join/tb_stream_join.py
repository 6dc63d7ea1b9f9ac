# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for StreamJoin (top ``stream_join``): one output beat per N input beats.

Each input carries its own packets, cut so every input has the same number of
beats; output beat k must hold beat k of every input (m_<i>_data/keep/last),
all inputs must transfer in the same cycle as the output, and each input's
packets must be recoverable byte-exact from its lane of the output.
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

BEATS = 60


def packets_of_exactly(rng: random.Random, beats: int, wb: int) -> list[bytes]:
    """Random packets that together take exactly ``beats`` beats of ``wb`` bytes."""
    packets = []
    while beats:
        n = rng.randint(1, min(3, beats))
        packets.append(random_packet(rng, (n - 1) * wb + 1, n * wb))
        beats -= n
    return packets


@cocotb.test(timeout_time=2, timeout_unit="ms")
@cocotb.parametrize(idle=[0.0, 0.5], backpressure=[0.0, 0.5])
async def inputs_leave_together(dut, idle, backpressure):
    n = count_streams(dut, "s")
    wb = data_width_bytes(dut, "s_0")
    rng = random.Random(int(idle * 10) * 10 + int(backpressure * 10) + n)
    bench = ClockedBench(dut.clk)
    sources = [bench.add(StreamSource(dut, f"s_{i}", PACKET_FIELDS, random.Random(rng.random()), idle))
               for i in range(n)]
    lanes = {f"{f}_{i}": f"m_{i}_{f}" for i in range(n) for f in PACKET_FIELDS}
    sink = bench.add(StreamSink(dut, "m", lanes, random.Random(rng.random()), backpressure))
    await start_clock_and_reset(dut)

    sent = [packets_of_exactly(rng, BEATS, wb) for _ in range(n)]
    for src, packets in zip(sources, sent):
        for p in packets:
            src.send_all(packet_beats(p, wb))
    await bench.run_until(lambda: len(sink.beats) >= BEATS, timeout=100 * BEATS + 1000, what="joining every beat")
    await bench.run(10)

    assert len(sink.beats) == BEATS
    for i, src in enumerate(sources):
        lane = [{f: b[f"{f}_{i}"] for f in PACKET_FIELDS} for b in sink.beats]
        assert lane == [b for _, b in src.sent], f"lane {i} of m differs from the beats of s_{i}"
        assert beats_to_packets(lane, wb) == sent[i], f"s_{i}: packets differ"
        assert [c for c, _ in src.sent] == sink.cycles, f"s_{i} did not transfer together with m"
