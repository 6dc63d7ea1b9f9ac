# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for PacketDownsizer (top ``packet_downsizer``): wide beats into narrow ones.

Checks, against plain Python: every packet comes out byte-exact, in exactly
ceil(len / narrow bytes) narrow beats (lanes after the last valid byte are
skipped, never sent with an empty keep), and, without backpressure, each wide
beat is released in the cycle its final narrow beat leaves (latency 0).
"""

from __future__ import annotations

import math
import random

import cocotb

from common.stream_bfm import (
    PACKET_FIELDS,
    ClockedBench,
    StreamSink,
    StreamSource,
    beats_to_packets,
    data_width_bytes,
    packet_beats,
    random_packet,
    start_clock_and_reset,
)


@cocotb.test(timeout_time=2, timeout_unit="ms")
@cocotb.parametrize(idle=[0.0, 0.5], backpressure=[0.0, 0.5])
async def packets_split_byte_exact(dut, idle, backpressure):
    wide, narrow = data_width_bytes(dut, "s"), data_width_bytes(dut, "m")
    rng = random.Random(int(idle * 10) * 10 + int(backpressure * 10) + wide)
    bench = ClockedBench(dut.clk)
    source = bench.add(StreamSource(dut, "s", PACKET_FIELDS, random.Random(rng.random()), idle))
    sink = bench.add(StreamSink(dut, "m", PACKET_FIELDS, random.Random(rng.random()), backpressure))
    await start_clock_and_reset(dut)

    edges = sorted({1, narrow - 1, narrow, narrow + 1, wide - 1, wide, wide + 1, 2 * wide} - {0})
    packets = [random_packet(rng, n, n) for n in edges] + [random_packet(rng, 1, 3 * wide) for _ in range(40)]
    for p in packets:
        source.send_all(packet_beats(p, wide))
    want_beats = sum(math.ceil(len(p) / narrow) for p in packets)
    await bench.run_until(lambda: len(sink.beats) >= want_beats, timeout=50 * want_beats + 1000,
                          what="splitting every packet")
    await bench.run(10)

    assert beats_to_packets(sink.beats, narrow) == packets
    assert len(sink.beats) == want_beats, f"{len(sink.beats)} narrow beats, expected {want_beats}"
    if backpressure == 0.0:
        wide_done = [c for c, _ in source.sent]
        per_wide = [math.ceil(b["keep"].bit_length() / narrow) for _, b in source.sent]
        ends, k = [], 0
        for n in per_wide:
            k += n
            ends.append(sink.cycles[k - 1])
        assert wide_done == ends, "a wide beat was not released with its final narrow beat"
