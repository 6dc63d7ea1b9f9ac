# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for StreamDemux (top ``stream_demux``): each beat goes to m_<sel>.

The source sends packets with a random destination in ``sel`` on every beat
(sel travels with the beat, as the block requires); every output must receive
exactly the packets addressed to it, byte-exact and in order, under random
idle cycles and independent random backpressure per output.
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


@cocotb.test(timeout_time=2, timeout_unit="ms")
@cocotb.parametrize(idle=[0.0, 0.5], backpressure=[0.0, 0.5])
async def packets_reach_their_output(dut, idle, backpressure):
    n = count_streams(dut, "m")
    wb = data_width_bytes(dut, "s")
    rng = random.Random(int(idle * 10) * 10 + int(backpressure * 10) + n)
    bench = ClockedBench(dut.clk)
    source = bench.add(StreamSource(dut, "s", {**{f: f"s_{f}" for f in PACKET_FIELDS}, "sel": "sel"},
                                    random.Random(rng.random()), idle))
    sinks = [bench.add(StreamSink(dut, f"m_{i}", PACKET_FIELDS, random.Random(rng.random()), backpressure))
             for i in range(n)]
    await start_clock_and_reset(dut)

    expected = [[] for _ in range(n)]
    for _ in range(24 * n):
        dest = rng.randrange(n)
        p = random_packet(rng, 1, 3 * wb)
        expected[dest].append(p)
        source.send_all(packet_beats(p, wb, sel=dest))
    await bench.run_until(lambda: source.idle_now, timeout=100 * 24 * n * 3 + 1000, what="sending every packet")
    await bench.run(10)

    for i, sink in enumerate(sinks):
        assert beats_to_packets(sink.beats, wb) == expected[i], f"m_{i}: packets differ from those sent to it"
