# SPDX-License-Identifier: Apache-2.0
"""A fault-injecting Ethernet link between two SUE instances, at frame granularity.

Independent of cocotb: the bench moves frames in (``push``) as the sender's MAC stream ends
them and takes frames out (``due``) when their delivery cycle has come, then drives them into
the receiver's MAC RX stream. Faults, each with its own probability and a deterministic
``random.Random``:

* ``drop``: the frame is lost;
* ``corrupt``: one to three random bits of the frame are flipped (the receiver's FCS or
  R-CRC check must catch it);
* ``duplicate``: the frame is delivered twice;
* ``delay``: extra latency of 1..``max_delay`` cycles, which reorders frames
  (``reorder=True``) or not (delivery keeps the order of sending);
* ``ack_only_drop``: frames for which ``is_ack_only(frame)`` holds are lost with this
  probability (losing only ACK/NACK-carrying empty PDUs);
* link down: ``down(cycle_from, cycle_to)`` loses every frame sent in the window.

``stats`` counts every fault injected, so a scoreboard can prove the faults really happened.
"""

from __future__ import annotations

import heapq
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Faults:
    drop: float = 0.0
    corrupt: float = 0.0
    duplicate: float = 0.0
    delay: float = 0.0
    max_delay: int = 64
    reorder: bool = False
    ack_only_drop: float = 0.0


@dataclass(order=True)
class _InFlight:
    due: int
    seq: int
    frame: bytes = field(compare=False)


class LinkModel:
    def __init__(self, rng: random.Random, faults: Faults | None = None, latency: int = 4,
                 is_ack_only: Callable[[bytes], bool] | None = None):
        self.rng = rng
        self.faults = faults or Faults()
        self.latency = latency
        self.is_ack_only = is_ack_only
        self.stats: Counter[str] = Counter()
        self._heap: list[_InFlight] = []
        self._seq = 0
        self._last_due = 0
        self._down: list[tuple[int, int]] = []

    def down(self, start: int, end: int) -> None:
        """Lose every frame pushed in cycles start..end-1."""
        self._down.append((start, end))

    def push(self, cycle: int, frame: bytes) -> None:
        f, r = self.faults, self.rng
        self.stats["sent"] += 1
        if any(a <= cycle < b for a, b in self._down):
            self.stats["lost_link_down"] += 1
            return
        # the draw first: classifying a frame decodes it, which costs more than the rest of the link
        if self.is_ack_only and f.ack_only_drop and r.random() < f.ack_only_drop and self.is_ack_only(frame):
            self.stats["dropped_ack_only"] += 1
            return
        if r.random() < f.drop:
            self.stats["dropped"] += 1
            return
        if r.random() < f.corrupt:
            b = bytearray(frame)
            for _ in range(r.randint(1, 3)):
                i = r.randrange(len(b) * 8)
                b[i // 8] ^= 1 << (i % 8)
            frame = bytes(b)
            self.stats["corrupted"] += 1
        copies = 2 if r.random() < f.duplicate else 1
        if copies == 2:
            self.stats["duplicated"] += 1
        for _ in range(copies):
            due = cycle + self.latency
            if r.random() < f.delay:
                due += r.randint(1, f.max_delay)
                self.stats["delayed"] += 1
            if not f.reorder:
                due = max(due, self._last_due)
                self._last_due = due
            self._seq += 1
            heapq.heappush(self._heap, _InFlight(due, self._seq, frame))

    def due(self, cycle: int) -> list[bytes]:
        """Frames whose delivery cycle has come, in delivery order."""
        out = []
        while self._heap and self._heap[0].due <= cycle:
            out.append(heapq.heappop(self._heap).frame)
        self.stats["delivered"] += len(out)
        return out

    @property
    def in_flight(self) -> int:
        return len(self._heap)
