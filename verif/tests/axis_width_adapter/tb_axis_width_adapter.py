# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for AxiStreamWidthAdapter (top ``axis_width_adapter``): s_t* -> m_t*.

cocotbext-axi drives ``s`` (``AxiStreamSource``, random idle cycles) and takes ``m``
(``AxiStreamSink``, random back-pressure). Checked against the frames the bench made (plain
Python, not the generator): every frame comes out byte for byte, in the number of beats the
width rule gives (full beats but the last, ``tkeep`` contiguous there), each output beat's
``tuser`` as the documented rule says (downsizing: its wide beat's; upsizing: the last narrow
beat's packed into it), the stream rules held on ``m`` while stalled, and, with neither
idle cycles nor back-pressure, full throughput: one narrow beat per cycle on the narrow side
from the first transfer to the last.
"""

from __future__ import annotations

import math
import random

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge
from cocotbext.axi import AxiStreamFrame, AxiStreamSink, AxiStreamSource

from common.mac_axis import AxisProtocolCheck, axis_bus, frame_of, quiet, random_pause
from common.stream_bfm import start_clock_and_reset


def beats_of(n: int, width: int) -> list[int]:
    """Kept bytes of each beat of an n-byte frame on a ``width``-byte bus."""
    return [min(width, n - b * width) for b in range(math.ceil(n / width))]


def expected_out(n: int, users: list[int], win: int, wout: int) -> list[int]:
    """tuser of every output beat of an n-byte frame whose input beats carry ``users``."""
    if win == wout:
        return list(users)
    if win > wout:
        out = []
        for kept, user in zip(beats_of(n, win), users):
            out += [user] * math.ceil(kept / wout)
        return out
    ratio = wout // win
    return [users[min(g + ratio, len(users)) - 1] for g in range(0, len(users), ratio)]


class FireCounter:
    """Transfers on ``<prefix>`` per cycle, and the cycles of the first and last."""

    def __init__(self, dut, prefix: str):
        self.valid = getattr(dut, f"{prefix}_tvalid")
        self.ready = getattr(dut, f"{prefix}_tready")
        self.cycles: list[int] = []

    def sample(self, cycle: int) -> None:
        if int(self.valid.value) and int(self.ready.value):
            self.cycles.append(cycle)


@cocotb.test(timeout_time=20, timeout_unit="ms")
@cocotb.parametrize(idle=[0.0, 0.4], backpressure=[0.0, 0.4])
async def frames_byte_exact(dut, idle, backpressure):
    win, wout = len(dut.s_tdata) // 8, len(dut.m_tdata) // 8
    user_bits = len(dut.s_tuser) if hasattr(dut, "s_tuser") else 0
    rng = random.Random(1000 * win + wout + int(idle * 10) * 7 + int(backpressure * 10))
    source = quiet(AxiStreamSource(axis_bus(dut, "s"), dut.clk, dut.rst))
    sink = quiet(AxiStreamSink(axis_bus(dut, "m"), dut.clk, dut.rst))
    if idle:
        source.set_pause_generator(random_pause(idle, random.Random(rng.random())))
    if backpressure:
        sink.set_pause_generator(random_pause(backpressure, random.Random(rng.random())))
    check = AxisProtocolCheck(dut, "m")
    narrow_side = FireCounter(dut, "m" if win >= wout else "s")
    await start_clock_and_reset(dut)

    wide, narrow = max(win, wout), min(win, wout)
    edges = sorted({1, narrow - 1, narrow, narrow + 1, wide - 1, wide, wide + 1, 2 * wide - 1, 2 * wide,
                    3 * wide + narrow} - {0})
    lengths = edges + [rng.randint(1, 4 * wide) for _ in range(60)]
    sent = []
    for n in lengths:
        payload = rng.randbytes(n)
        users = [rng.getrandbits(user_bits) if user_bits else 0 for _ in beats_of(n, win)]
        pad = math.ceil(n / win) * win - n
        tuser = [u for u in users for _ in range(win)] if user_bits else None
        # junk past tkeep: the adapter must not let it into the kept bytes
        frame = AxiStreamFrame(tdata=payload + rng.randbytes(pad), tkeep=[1] * n + [0] * pad, tuser=tuser)
        source.send_nowait(frame)
        sent.append((payload, users))

    received = []
    cycle = 0
    while len(received) < len(sent):
        await ReadOnly()
        check.sample()
        narrow_side.sample(cycle)
        await RisingEdge(dut.clk)
        cycle += 1
        while not sink.empty():
            received.append(sink.recv_nowait(compact=False))
        assert cycle < 200 * sum(len(p) for p, _ in sent) // narrow + 2000, "frames did not all come out"

    for i, ((payload, users), f) in enumerate(zip(sent, received)):
        if not user_bits:
            f.tuser = None  # no tuser port: cocotbext leaves an empty list
        data, _ = frame_of(f, wout, f"m frame {i}")
        assert data == payload, f"frame {i} ({len(payload)} bytes): bytes differ"
        beats = len(f.tkeep) // wout
        want_users = expected_out(len(payload), users, win, wout)
        assert beats == len(want_users), f"frame {i} ({len(payload)} bytes): {beats} beats, expected {len(want_users)}"
        if user_bits:
            got_users = [f.tuser[b * wout] for b in range(beats)]
            assert got_users == want_users, f"frame {i}: tuser per beat {got_users}, expected {want_users}"
    if idle == 0.0 and backpressure == 0.0 and win != wout:
        first, last = narrow_side.cycles[0], narrow_side.cycles[-1]
        span = last - first + 1
        assert len(narrow_side.cycles) == span, (
            f"narrow side: {len(narrow_side.cycles)} beats in {span} cycles, expected one per cycle")
