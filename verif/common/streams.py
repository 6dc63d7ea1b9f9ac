# SPDX-License-Identifier: Apache-2.0
"""Valid/ready stream drivers for the DSL's port naming, with idle and backpressure inserters.

A stream port ``s`` flattens to ``s_valid``, ``s_ready`` and either ``s_payload`` (a leaf
payload: items are ints) or the payload bundle's own fields such as ``s_data``, ``s_keep``,
``s_last`` (pass ``fields=("data", "keep", "last")``: items are dicts).

Timing. Everything happens mid-cycle, so no decision races a clock edge: at each falling edge
the drivers write their outputs (``valid``/payload, or ``ready``); in the ReadOnly phase that
follows, both sides see the settled handshake that the next rising edge will act on, so a
transfer is recorded exactly when ``valid and ready`` holds there. The source follows the
protocol the DUT asserts: once valid it holds valid and the payload until the transfer, and
valid never depends on ready. While idle the source drives random junk on the payload, so a
DUT that captures payload without ``valid`` is caught.

Pauses (taxi style): an iterator of booleans, one per cycle; ``True`` means "idle this cycle"
for a source (no new beat starts) and "not ready" for a sink. ``random_pause(p, seed)`` and
``cycle_pause()`` make them; ``None`` means never pause.
"""

from __future__ import annotations

import itertools
import random
from collections import deque
from typing import Any, Iterator, Sequence

import cocotb
from cocotb.triggers import Event, FallingEdge, ReadOnly

Item = Any  # int for a leaf payload, dict[str, int] for bundle fields


def random_pause(probability: float, seed: int) -> Iterator[bool]:
    """Pause each cycle with *probability* (reproducible with *seed*)."""
    rng = random.Random(seed)
    while True:
        yield rng.random() < probability


def cycle_pause(pattern: Sequence[int] = (1, 1, 1, 0)) -> Iterator[bool]:
    """A fixed repeating pattern (taxi's default: three pauses, then one go)."""
    return itertools.cycle(bool(x) for x in pattern)


class _StreamPort:
    def __init__(self, dut, prefix: str, clock, reset, fields: Sequence[str] | None):
        self.prefix = prefix
        self.clock = clock
        self.reset = reset
        self.valid = getattr(dut, f"{prefix}_valid")
        self.ready = getattr(dut, f"{prefix}_ready")
        self.fields = tuple(fields) if fields else None
        names = self.fields or ("payload",)
        self.handles = {n: getattr(dut, f"{prefix}_{n}") for n in names}
        self.widths = {n: len(h) for n, h in self.handles.items()}
        self.cycle = 0  # falling edges of this port's clock seen so far

    def in_reset(self) -> bool:
        return self.reset is not None and bool(self.reset.value)

    def read_item(self) -> Item:
        values = {n: int(h.value) for n, h in self.handles.items()}
        return values if self.fields else values["payload"]

    def write_item(self, item: Item) -> None:
        values = item if self.fields else {"payload": item}
        for n, h in self.handles.items():
            h.value = values[n]

    def random_item(self, rng: random.Random) -> Item:
        values = {n: rng.getrandbits(w) for n, w in self.widths.items()}
        return values if self.fields else values["payload"]


class StreamSource(_StreamPort):
    """Drives ``<prefix>_valid`` and the payload from a queue of items."""

    def __init__(self, dut, prefix: str, clock, reset=None, *, fields: Sequence[str] | None = None,
                 pause: Iterator[bool] | None = None, seed: int = 1):
        super().__init__(dut, prefix, clock, reset, fields)
        self.pause = pause
        self.queue: deque[Item] = deque()
        self.sent: list[Item] = []
        self.sent_cycles: list[int] = []  # cycle index of each transfer
        self.active_cycles = 0  # cycles outside reset
        self.ready_cycles = 0  # ... in which ready was high
        self._current: Item | None = None
        self._junk = random.Random(seed)
        self._idle = Event()
        self._idle.set()
        self.valid.value = 0
        self._task = cocotb.start_soon(self._run())

    def send(self, items) -> None:
        for item in items:
            self.queue.append(item)
        if self.queue:
            self._idle.clear()

    @property
    def idle(self) -> bool:
        return not self.queue and self._current is None

    async def wait_idle(self) -> None:
        await self._idle.wait()

    def stop(self) -> None:
        self._task.cancel()

    async def _run(self) -> None:
        while True:
            await FallingEdge(self.clock)
            self.cycle += 1
            if self.in_reset():
                self.valid.value = 0
                continue
            if self._current is None and self.queue and not (self.pause and next(self.pause)):
                self._current = self.queue.popleft()
            if self._current is None:
                self.valid.value = 0
                self.write_item(self.random_item(self._junk))
            else:
                self.valid.value = 1
                self.write_item(self._current)
            await ReadOnly()
            self.active_cycles += 1
            if self.ready.value:
                self.ready_cycles += 1
            if self._current is not None and self.ready.value:
                self.sent.append(self._current)
                self.sent_cycles.append(self.cycle)
                self._current = None
                if not self.queue:
                    self._idle.set()


class StreamSink(_StreamPort):
    """Drives ``<prefix>_ready`` (with optional backpressure), records every transfer and
    checks the DUT's side of the protocol (valid held and payload stable while stalled)."""

    def __init__(self, dut, prefix: str, clock, reset=None, *, fields: Sequence[str] | None = None,
                 pause: Iterator[bool] | None = None):
        super().__init__(dut, prefix, clock, reset, fields)
        self.pause = pause
        self.received: list[Item] = []
        self.received_cycles: list[int] = []
        self._count_event = Event()
        self.ready.value = 0
        self._task = cocotb.start_soon(self._run())

    async def wait_for(self, count: int) -> None:
        """Until *count* items have arrived in total (wrap in with_timeout)."""
        while len(self.received) < count:
            self._count_event.clear()
            await self._count_event.wait()

    def stop(self) -> None:
        self._task.cancel()

    async def _run(self) -> None:
        stalled = None  # the payload offered but not taken last cycle: it must still be there
        while True:
            await FallingEdge(self.clock)
            self.cycle += 1
            ready = not (self.pause and next(self.pause))
            self.ready.value = int(ready)
            await ReadOnly()
            if self.in_reset():
                stalled = None
                continue
            valid = bool(self.valid.value)
            if stalled is not None:  # independent of the DUT's own SVA
                assert valid, f"{self.prefix}: valid fell before the transfer (cycle {self.cycle})"
                now = self.read_item()
                assert now == stalled, f"{self.prefix}: payload changed while stalled: {stalled!r} -> {now!r}"
            stalled = self.read_item() if valid and not ready else None
            if ready and valid:
                self.received.append(self.read_item())
                self.received_cycles.append(self.cycle)
                self._count_event.set()


def check_scoreboard(sent: Sequence[Item], received: Sequence[Item]) -> None:
    """Exactly the sent items, in order: reports the first loss, duplicate or reordering."""
    for i, (a, b) in enumerate(zip(sent, received)):
        if a != b:
            where = [j for j, x in enumerate(sent) if x == b]
            raise AssertionError(f"item {i}: expected {a!r}, got {b!r} (sent as item(s) {where[:4]})")
    assert len(received) == len(sent), f"sent {len(sent)} items, received {len(received)}"


async def apply_reset(clock, reset, cycles: int = 3) -> None:
    """Holds *reset* (active high) for *cycles* rising edges; releases it mid-cycle."""
    reset.value = 1
    for _ in range(cycles):
        await FallingEdge(clock)
    reset.value = 0


async def watch_registered_outputs(clock, handles: dict) -> None:
    """Fails if any of *handles* changes between a rising edge and the next falling edge.

    The stream drivers change inputs only at falling edges, so an output that moves then
    depends combinationally on an input: this checks "comes straight from a register".
    """
    from cocotb.triggers import RisingEdge

    while True:
        await RisingEdge(clock)
        await ReadOnly()
        before = {n: h.value for n, h in handles.items()}
        await FallingEdge(clock)
        await ReadOnly()
        for n, h in handles.items():
            assert h.value == before[n], (
                f"{n} changed from {before[n]} to {h.value} after inputs changed mid-cycle: "
                "it depends combinationally on an input"
            )
