# SPDX-License-Identifier: Apache-2.0
"""Valid/ready stream drivers for cocotb testbenches, in the style of taxi's.

Our streams flatten to ``<prefix>_valid``, ``<prefix>_ready`` and the payload:
``<prefix>_payload`` for a leaf, or the bundle's own fields (``<prefix>_data``,
``<prefix>_keep``, ``<prefix>_last``, ...). A beat is a dict from field name to
int. Extra signals that travel with a beat but are not named after the stream
(an arbiter's ``chosen``, a demux's ``sel``) are mapped explicitly:
``fields={"data": "s_data", "sel": "sel"}``.

The AXI4-Stream MAC and control ports of the SUE tops (``mac_tx_0_t*``, ...) are
driven with cocotbext-axi instead (``common.mac_axis``). These drivers stay for
what cocotbext-axi does not do: the library's internal streams, whose payloads
are arbitrary bundles under DSL names (vectors for join, a select beside the
beat, beats without keep), junk on the payload while idle, and the protocol
check on every DUT output; every agent is stepped from one clocked loop, so a
cycle costs two simulator triggers however many streams a bench has.

    bench = ClockedBench(dut.clk)
    src = bench.add(StreamSource(dut, "s", PACKET_FIELDS, rng, idle=0.3))
    sink = bench.add(StreamSink(dut, "m", PACKET_FIELDS, rng, backpressure=0.5))
    for beat in packet_beats(b"hello", 4):
        src.send(beat)
    await bench.run_until(lambda: len(sink.beats) == 2)

Timing: right after each rising edge every agent drives its inputs
(``drive``); in the ReadOnly phase of the same cycle every agent samples
(``sample``), so ``valid and ready`` seen there is the transfer the next edge
performs. The first cycle stepped is the one right after reset is released.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Callable, Iterable, Mapping, Sequence

from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge
from cocotb.utils import get_sim_time

PACKET_FIELDS = ("data", "keep", "last")

Beat = dict  # field name -> int


def field_map(prefix: str, fields: Sequence[str] | Mapping[str, str]) -> dict[str, str]:
    """Field name -> signal name; a sequence means ``<prefix>_<field>`` for each."""
    if isinstance(fields, Mapping):
        return dict(fields)
    return {f: f"{prefix}_{f}" for f in fields}


class _Agent:
    """One stream end: handles for valid, ready and every payload field."""

    def __init__(self, dut, prefix: str, fields: Sequence[str] | Mapping[str, str]):
        self.name = prefix
        self.valid = getattr(dut, f"{prefix}_valid")
        self.ready = getattr(dut, f"{prefix}_ready")
        self.fields = {f: getattr(dut, sig) for f, sig in field_map(prefix, fields).items()}
        self.widths = {f: len(h) for f, h in self.fields.items()}
        self.cycle = 0

    def read_beat(self) -> Beat:
        return {f: int(h.value) for f, h in self.fields.items()}

    def drive(self) -> None:
        pass

    def sample(self) -> None:
        pass


class StreamSource(_Agent):
    """Drives a stream into the DUT from a queue of beats.

    ``idle`` is the probability of inserting an idle cycle before offering the
    next beat (never while a beat waits for ready: the stream rules forbid
    dropping valid or changing the payload before the transfer). While idle the
    payload fields carry random junk, so a DUT that reads them without valid
    shows up as corrupted data.
    """

    def __init__(self, dut, prefix, fields, rng: random.Random, idle: float = 0.0):
        super().__init__(dut, prefix, fields)
        self.rng = rng
        self.idle = idle
        self.queue: deque[Beat] = deque()
        self.current: Beat | None = None
        self.sent: list[tuple[int, Beat]] = []  # (cycle, beat) of every transfer
        self.valid.value = 0

    def send(self, beat: Beat) -> None:
        self.queue.append(dict(beat))

    def send_all(self, beats: Iterable[Beat]) -> None:
        for b in beats:
            self.send(b)

    @property
    def idle_now(self) -> bool:
        """Nothing queued and nothing on the wires."""
        return self.current is None and not self.queue

    def drive(self) -> None:
        if self.current is None and self.queue and self.rng.random() >= self.idle:
            self.current = self.queue.popleft()
            for f, h in self.fields.items():
                h.value = self.current[f]
            self.valid.value = 1
        elif self.current is None:
            self.valid.value = 0
            for f, h in self.fields.items():
                h.value = self.rng.getrandbits(self.widths[f])

    def sample(self) -> None:
        if self.current is not None and int(self.ready.value):
            self.sent.append((self.cycle, self.current))
            self.current = None
        self.cycle += 1


class StreamSink(_Agent):
    """Takes beats from a DUT stream with random backpressure.

    ``backpressure`` is the probability that ready is low in a cycle. With
    ``check_protocol`` (default) a beat that was stalled must come back the next
    cycle, unchanged: an independent check of the stream rules on DUT outputs.
    """

    def __init__(self, dut, prefix, fields, rng: random.Random, backpressure: float = 0.0,
                 check_protocol: bool = True):
        super().__init__(dut, prefix, fields)
        self.rng = rng
        self.backpressure = backpressure
        self.check_protocol = check_protocol
        self.beats: list[Beat] = []
        self.cycles: list[int] = []  # cycle of each transfer
        self._stalled: Beat | None = None
        self.paused = False  # hold ready low (e.g. to build up a queue on purpose)
        self.ready.value = 0

    def drive(self) -> None:
        self.ready.value = int(not self.paused and self.rng.random() >= self.backpressure)

    def sample(self) -> None:
        valid = int(self.valid.value)
        if self._stalled is not None and self.check_protocol:
            assert valid, f"{self.name}: valid dropped before the transfer (cycle {self.cycle})"
        if valid:
            beat = self.read_beat()
            if self._stalled is not None and self.check_protocol:
                assert beat == self._stalled, (
                    f"{self.name}: payload changed while stalled (cycle {self.cycle}): "
                    f"{self._stalled} -> {beat}"
                )
            if int(self.ready.value):
                self.beats.append(beat)
                self.cycles.append(self.cycle)
                self._stalled = None
            else:
                self._stalled = beat
        self.cycle += 1


class CycleProbe:
    """Calls ``fn(cycle)`` in every cycle's ReadOnly phase (for scoreboards and meters)."""

    def __init__(self, fn: Callable[[int], None]):
        self.fn = fn
        self.cycle = 0

    def drive(self) -> None:
        pass

    def sample(self) -> None:
        self.fn(self.cycle)
        self.cycle += 1


class BenchTimeout(AssertionError):
    """``ClockedBench.run_until`` gave up: the condition never held (a hang, not a check failing)."""


class ClockedBench:
    """Steps every agent once per clock cycle from a single coroutine."""

    def __init__(self, clk):
        self.clk = clk
        self.agents: list = []
        self.cycle = 0
        self._step_time = None  # sim time (steps) at the start of the current cycle
        self._period = None  # the clock period: the shortest time between two steps

    def cycle_at(self, sim_time: int) -> int:
        """The cycle whose ``sample`` saw the transfer a rising edge at ``sim_time`` performed
        (cocotbext-axi stamps frames with the edge's ``get_sim_time()``). Counted back from the
        current cycle, because edges that pass while the bench is not stepping (a test awaiting
        on its own) are no cycles of the bench."""
        return self.cycle - 1 - (self._step_time - sim_time) // self._period

    def add(self, agent):
        self.agents.append(agent)
        return agent

    async def step(self) -> None:
        """One cycle; call it right after a rising edge (where reset and the previous step end)."""
        now = get_sim_time()
        if self._step_time is not None and (self._period is None or now - self._step_time < self._period):
            self._period = now - self._step_time
        self._step_time = now
        for a in self.agents:
            a.drive()
        await ReadOnly()
        for a in self.agents:
            a.sample()
        await RisingEdge(self.clk)
        self.cycle += 1

    async def run(self, cycles: int) -> None:
        for _ in range(cycles):
            await self.step()

    async def run_until(self, done: Callable[[], bool], timeout: int = 100_000, what: str = "the test") -> None:
        """Steps until ``done()``; fails after ``timeout`` cycles (a hang is a bug, not a slow pass)."""
        for _ in range(timeout):
            if done():
                return
            await self.step()
        raise BenchTimeout(f"timeout: {what} did not finish within {timeout} cycles")


async def start_clock_and_reset(dut, cycles: int = 4) -> None:
    """Starts a 10 ns clock on ``dut.clk`` and holds ``dut.rst`` for ``cycles`` edges.

    Returns right after the edge that ends reset, where ``ClockedBench.step`` expects
    to start. Create the agents first: they drive valid and ready low from construction on.
    """
    Clock(dut.clk, 10, unit="ns").start()
    dut.rst.value = 1
    for _ in range(cycles):
        await RisingEdge(dut.clk)
    dut.rst.value = 0


def count_streams(dut, prefix: str) -> int:
    """How many streams ``<prefix>_0``, ``<prefix>_1``, ... the DUT has (a Vec of streams)."""
    n = 0
    while hasattr(dut, f"{prefix}_{n}_valid"):
        n += 1
    return n


def data_width_bytes(dut, prefix: str) -> int:
    return len(getattr(dut, f"{prefix}_data")) // 8


# ---- packets ----------------------------------------------------------------


def packet_beats(payload: bytes, width_bytes: int, **extra: int) -> list[Beat]:
    """Beats carrying ``payload``: byte 0 in bits 7:0, ``keep`` full but on the last beat.

    ``extra`` fields (e.g. ``sel=2``) are copied into every beat.
    """
    if not payload:
        raise ValueError("a packet has at least one byte")
    beats = []
    for off in range(0, len(payload), width_bytes):
        chunk = payload[off:off + width_bytes]
        beats.append({
            "data": int.from_bytes(chunk, "little"),
            "keep": (1 << len(chunk)) - 1,
            "last": int(off + width_bytes >= len(payload)),
            **extra,
        })
    return beats


def beat_bytes(beat: Beat, width_bytes: int) -> bytes:
    """The bytes a beat carries, checking that ``keep`` is a contiguous run from byte 0."""
    keep = beat["keep"]
    n = keep.bit_length()
    assert keep == (1 << n) - 1, f"keep {keep:#x} is not contiguous from byte 0"
    assert n > 0, "a beat with no valid byte"
    return beat["data"].to_bytes(width_bytes, "little")[:n]


def beats_to_packets(beats: Iterable[Beat], width_bytes: int) -> list[bytes]:
    """Reassembles packets; every beat but a packet's last must have a full keep."""
    full = (1 << width_bytes) - 1
    packets, cur = [], bytearray()
    for b in beats:
        if not b["last"]:
            assert b["keep"] == full, f"partial keep {b['keep']:#x} on a beat that is not last"
        cur += beat_bytes(b, width_bytes)
        if b["last"]:
            packets.append(bytes(cur))
            cur = bytearray()
    assert not cur, f"{len(cur)} trailing bytes without a last beat"
    return packets


def random_packet(rng: random.Random, min_len: int = 1, max_len: int = 64) -> bytes:
    return bytes(rng.getrandbits(8) for _ in range(rng.randint(min_len, max_len)))
