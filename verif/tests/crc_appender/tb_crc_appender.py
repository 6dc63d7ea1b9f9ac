# SPDX-License-Identifier: Apache-2.0
"""cocotb side of the crc_appender test (dev.sue.hdl.lib.crc.CrcAppender): random packets with
random idle and back-pressure, checked against zlib.crc32 over the bytes from OFFSET appended
LSB first; bypass (enable = 0) returns the packets unchanged; back-to-back packets of fixed
sizes must leave at one beat per cycle; first-beat latency measured on an idle system.

Environment: OFFSET, FALL_THROUGH (0/1), N_PKT, MAX_LEN.
"""

from __future__ import annotations

import os
import random
import zlib

import cocotb

from common.stream_bfm import (PACKET_FIELDS, ClockedBench, CycleProbe, StreamSink, StreamSource,
                               beats_to_packets, data_width_bytes, packet_beats, start_clock_and_reset)

OFFSET = int(os.environ["OFFSET"])
FALL_THROUGH = os.environ["FALL_THROUGH"] == "1"
N_PKT = int(os.environ.get("N_PKT", "200"))
MAX_LEN = int(os.environ.get("MAX_LEN", "600"))


def expected(pkt: bytes) -> bytes:
    return pkt + zlib.crc32(pkt[OFFSET:]).to_bytes(4, "little")


async def setup(dut, seed, idle=0.0, bp=0.0):
    rng = random.Random(seed)
    src = StreamSource(dut, "s", PACKET_FIELDS, rng, idle=idle)
    sink = StreamSink(dut, "m", PACKET_FIELDS, rng, backpressure=bp)
    dut.enable.value = 1
    await start_clock_and_reset(dut)
    bench = ClockedBench(dut.clk)
    bench.add(src)
    bench.add(sink)
    return rng, bench, src, sink


@cocotb.test()
async def random_packets(dut):
    """Random lengths offset+1..MAX_LEN (every tail length), random idle and back-pressure."""
    rng, bench, src, sink = await setup(dut, 1, idle=0.3, bp=0.3)
    n = data_width_bytes(dut, "s")
    pkts = []
    for i in range(N_PKT):
        if i % 3 == 0:
            length = OFFSET + 1 + rng.randrange(2 * n)  # short: CRC fits or spills near the edge
        else:
            length = rng.randint(OFFSET + 1, max(OFFSET + 1, MAX_LEN))
        pkt = bytes(rng.getrandbits(8) for _ in range(length))
        pkts.append(pkt)
        src.send_all(packet_beats(pkt, n))
    # phases of different stress
    for idle, bp in [(0.3, 0.3), (0.0, 0.0), (0.0, 0.6), (0.6, 0.0)]:
        src.idle, sink.backpressure = idle, bp
        await bench.run(len(pkts) * 3)
    await bench.run_until(lambda: src.idle_now and sum(b["last"] for b in sink.beats) == len(pkts), timeout=200_000)
    got = beats_to_packets(sink.beats, n)
    assert len(got) == len(pkts)
    for i, (g, p) in enumerate(zip(got, pkts)):
        assert g == expected(p), f"packet {i} (len {len(p)}): got {g.hex()}\nexpected {expected(p).hex()}"


@cocotb.test()
async def bypass(dut):
    """enable = 0: packets pass unchanged, with idle and back-pressure."""
    rng, bench, src, sink = await setup(dut, 2, idle=0.2, bp=0.3)
    dut.enable.value = 0
    n = data_width_bytes(dut, "s")
    pkts = [bytes(rng.getrandbits(8) for _ in range(rng.randint(1, MAX_LEN))) for _ in range(40)]
    for p in pkts:
        src.send_all(packet_beats(p, n))
    await bench.run_until(lambda: src.idle_now and sum(b["last"] for b in sink.beats) == len(pkts), timeout=100_000)
    assert beats_to_packets(sink.beats, n) == pkts
    # and back on: CRCs again (switched while idle)
    await bench.run(3)
    dut.enable.value = 1
    sink.beats.clear()
    for p in pkts:
        src.send_all(packet_beats(p + bytes(OFFSET), n))
    await bench.run_until(lambda: src.idle_now and sum(b["last"] for b in sink.beats) == len(pkts), timeout=100_000)
    assert beats_to_packets(sink.beats, n) == [expected(p + bytes(OFFSET)) for p in pkts]


@cocotb.test()
async def throughput_and_latency(dut):
    """Back-to-back packets (no idle, no back-pressure): output beats / cycles == 1.0; and the
    first beat's latency on an idle system."""
    rng, bench, src, sink = await setup(dut, 3)
    n = data_width_bytes(dut, "s")
    results = {}
    for size in sorted({OFFSET + 1, max(OFFSET + 1, n - 2), n, n + 3, 2 * n - 4, 3 * n + 1, 64, 1500}):
        if size <= OFFSET:
            continue
        sink.beats.clear()
        sink.cycles.clear()
        count = 60
        pkts = [bytes(rng.getrandbits(8) for _ in range(size)) for _ in range(count)]
        for p in pkts:
            src.send_all(packet_beats(p, n))
        await bench.run_until(lambda: src.idle_now and sum(b["last"] for b in sink.beats) == count, timeout=100_000)
        assert beats_to_packets(sink.beats, n) == [expected(p) for p in pkts]
        # steady state: skip the first packet (its last beat waits for the CRC on an empty pipe)
        cyc = sink.cycles
        first = next(i for i, b in enumerate(sink.beats) if b["last"]) + 1
        span = cyc[-1] - cyc[first] + 1
        util = (len(cyc) - first) / span
        results[size] = util
        await bench.run(20)
    dut._log.info("output utilisation by packet size: %s", results)
    assert all(u == 1.0 for u in results.values()), f"throughput below 1.0: {results}"

    # latency: one long packet on an idle system; first beat (not last) out after 0 or 1 cycles
    sink.beats.clear()
    sink.cycles.clear()
    src.sent.clear()
    p = bytes(rng.getrandbits(8) for _ in range(OFFSET + 3 * n))
    src.send_all(packet_beats(p, n))
    await bench.run_until(lambda: src.idle_now and any(b["last"] for b in sink.beats), timeout=1000)
    lat = sink.cycles[0] - src.sent[0][0]
    want = 0 if FALL_THROUGH else 1
    dut._log.info("first-beat latency %d cycles (fallThrough=%s)", lat, FALL_THROUGH)
    assert lat == want, f"first-beat latency {lat}, expected {want}"
