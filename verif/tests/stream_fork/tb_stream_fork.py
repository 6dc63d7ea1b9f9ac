# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for StreamFork (top ``stream_fork``): every beat to every output.

TB_SYNCHRONOUS ("1"/"0") gives the mode. Each output has its own random
backpressure; every output must receive every packet byte-exact and in order,
and the input must be released exactly in the cycle the last output takes the
beat (synchronous: all outputs in that same cycle). In synchronous mode an
output's valid may fall before a transfer (documented), so the sinks' protocol
check is off there; the SVA still checks the input side.
"""

from __future__ import annotations

import os
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

SYNCHRONOUS = os.environ.get("TB_SYNCHRONOUS", "0") == "1"


@cocotb.test(timeout_time=2, timeout_unit="ms")
@cocotb.parametrize(idle=[0.0, 0.5], backpressure=[0.0, 0.5])
async def every_output_gets_every_packet(dut, idle, backpressure):
    n = count_streams(dut, "m")
    wb = data_width_bytes(dut, "s")
    rng = random.Random(int(idle * 10) * 10 + int(backpressure * 10) + n)
    bench = ClockedBench(dut.clk)
    source = bench.add(StreamSource(dut, "s", PACKET_FIELDS, random.Random(rng.random()), idle))
    sinks = [bench.add(StreamSink(dut, f"m_{i}", PACKET_FIELDS, random.Random(rng.random()), backpressure,
                                  check_protocol=not SYNCHRONOUS))
             for i in range(n)]
    await start_clock_and_reset(dut)

    packets = [random_packet(rng, 1, 3 * wb) for _ in range(30)]
    for p in packets:
        source.send_all(packet_beats(p, wb))
    total = len(source.queue)
    await bench.run_until(lambda: all(len(s.beats) >= total for s in sinks), timeout=200 * total + 1000,
                          what="every output taking every beat")
    await bench.run(10)

    for i, sink in enumerate(sinks):
        assert beats_to_packets(sink.beats, wb) == packets, f"m_{i}: packets differ"
    input_cycles = [c for c, _ in source.sent]
    released_when_all_had_it = [max(s.cycles[k] for s in sinks) for k in range(total)]
    assert input_cycles == released_when_all_had_it, "s was released before (or after) the last output took the beat"
    if SYNCHRONOUS:
        for i, sink in enumerate(sinks):
            assert sink.cycles == input_cycles, f"m_{i} took a beat in a different cycle than the others"
