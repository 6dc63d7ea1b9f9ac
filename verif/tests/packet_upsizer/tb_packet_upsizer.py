# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for PacketUpsizer (top ``packet_upsizer``): narrow beats into wide ones.

Checks, against plain Python: every packet comes out byte-exact (keep decides
which bytes count), each packet uses exactly ceil(len / wide bytes) wide
beats (lanes are packed, packets never share a beat), and, without
backpressure, each wide beat leaves one cycle after its final narrow beat
went in (the declared latency 1; ratio 1 is a wire: latency 0).
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


def edge_lengths(narrow: int, wide: int) -> list[int]:
    """Lengths that end exactly on, just before and just after lane and beat boundaries."""
    lengths = {1, narrow, narrow + 1, wide - 1, wide, wide + 1, 2 * wide, 2 * wide - narrow + 1}
    return sorted(n for n in lengths if n >= 1)


@cocotb.test(timeout_time=2, timeout_unit="ms")
@cocotb.parametrize(idle=[0.0, 0.5], backpressure=[0.0, 0.5])
async def packets_pack_byte_exact(dut, idle, backpressure):
    narrow, wide = data_width_bytes(dut, "s"), data_width_bytes(dut, "m")
    ratio = wide // narrow
    rng = random.Random(int(idle * 10) * 10 + int(backpressure * 10) + wide)
    bench = ClockedBench(dut.clk)
    source = bench.add(StreamSource(dut, "s", PACKET_FIELDS, random.Random(rng.random()), idle))
    sink = bench.add(StreamSink(dut, "m", PACKET_FIELDS, random.Random(rng.random()), backpressure))
    await start_clock_and_reset(dut)

    packets = [random_packet(rng, n, n) for n in edge_lengths(narrow, wide)]
    packets += [random_packet(rng, 1, 3 * wide) for _ in range(40)]
    for p in packets:
        source.send_all(packet_beats(p, narrow))
    want_beats = sum(math.ceil(len(p) / wide) for p in packets)
    await bench.run_until(lambda: len(sink.beats) >= want_beats, timeout=50 * want_beats * ratio + 1000,
                          what="packing every packet")
    await bench.run(10)

    assert beats_to_packets(sink.beats, wide) == packets
    assert len(sink.beats) == want_beats, f"{len(sink.beats)} wide beats, expected {want_beats}"
    if backpressure == 0.0:
        latency = 0 if ratio == 1 else 1
        finals = final_narrow_cycles(source, ratio)
        assert sink.cycles == [c + latency for c in finals], "wide beats do not leave `latency` cycles after their final narrow beat"


def final_narrow_cycles(source: StreamSource, ratio: int) -> list[int]:
    """The transfer cycle of the narrow beat that completes each wide beat."""
    cycles, lane = [], 0
    for cycle, beat in source.sent:
        lane += 1
        if beat["last"] or lane == ratio:
            cycles.append(cycle)
            lane = 0
    return cycles
