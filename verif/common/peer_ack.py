# SPDX-License-Identifier: Apache-2.0
"""Drives the ``peer_ack`` Flow of the SUE transmit top: ACK/NACK information "received" from peers.

``PeerAckDriver`` is a ClockedBench agent: ``post(peer, op, rpsn, delay)`` schedules one message
``delay`` cycles ahead; at most one message is driven per cycle (the Flow has no back-pressure),
in due order. ``FrameAcker`` is the simplest peer: it watches the MAC sink's frames and, after a
random delay, acknowledges each data PDU cumulatively (ACK(psn) = everything up to psn received),
which is what an in-order, lossless receiver does (ARCHITECTURE.md §4, DESIGN-RELIABILITY.md).
Benches whose point is not reliability use it so their PDUs are freed and their windows stay open.
"""

from __future__ import annotations

import heapq

from common import sue_frames

ACK, NACK = 0, 1


class PeerAckDriver:
    def __init__(self, dut, prefix: str = "peer_ack"):
        self.dut, self.prefix = dut, prefix
        self.cycle = 0
        self._heap: list = []
        self._n = 0
        self.sent: list[tuple[int, int, int, int]] = []  # (cycle, peer, op, rpsn)
        getattr(dut, f"{prefix}_valid").value = 0

    def post(self, peer: int, op: int, rpsn: int, delay: int = 0) -> None:
        heapq.heappush(self._heap, (self.cycle + delay, self._n, peer, op, rpsn & 0xFFFF))
        self._n += 1

    @property
    def busy(self) -> bool:
        return bool(self._heap)

    def drive(self) -> None:
        v = getattr(self.dut, f"{self.prefix}_valid")
        if self._heap and self._heap[0][0] <= self.cycle:
            _, _, peer, op, rpsn = heapq.heappop(self._heap)
            getattr(self.dut, f"{self.prefix}_peer").value = peer
            getattr(self.dut, f"{self.prefix}_op").value = op
            getattr(self.dut, f"{self.prefix}_rpsn").value = rpsn
            v.value = 1
            self.sent.append((self.cycle, peer, op, rpsn))
        else:
            v.value = 0

    def sample(self) -> None:
        self.cycle += 1


class FrameAcker:
    """Acknowledges every data PDU seen on the MAC (``mac.frames``) after ``delay`` cycles.

    ``dest_of(frame)`` maps a decoded frame to its destination; ``muted`` holds peers that do not
    answer (a stalled peer); ``unmute(d)`` acknowledges the newest PSN seen for it.
    """

    def __init__(self, driver: PeerAckDriver, mac, rng, dest_of, encap: int, vlan: bool, fcs: bool,
                 delay=(2, 40)):
        self.driver, self.mac, self.rng, self.dest_of = driver, mac, rng, dest_of
        self.encap, self.vlan, self.fcs, self.delay = encap, vlan, fcs, delay
        self.seen = 0
        self.muted: set[int] = set()
        self.newest: dict[int, int] = {}

    def drive(self) -> None:
        while self.seen < len(self.mac.frames):
            f = sue_frames.decode(self.mac.frames[self.seen], self.encap, self.vlan, self.fcs)
            self.seen += 1
            if not any(f.payload):  # an empty PDU (only padding): no PSN to acknowledge
                continue
            d = self.dest_of(f)
            self.newest[d] = f.rh.psn
            if d not in self.muted:
                self.driver.post(d, ACK, f.rh.psn, self.rng.randint(*self.delay))

    def unmute(self, d: int) -> None:
        self.muted.discard(d)
        if d in self.newest:
            self.driver.post(d, ACK, self.newest[d], 1)

    def sample(self) -> None:
        pass
