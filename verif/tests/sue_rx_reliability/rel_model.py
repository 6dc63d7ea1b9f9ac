# SPDX-License-Identifier: Apache-2.0
"""Plain Python reference of the receive go-back-N rules of sue-rtl/DESIGN-RELIABILITY.md
("Receive side"), written from the document, not from the RTL.

Timing conventions of the document: the cycle of a PDU's last beat is c; its own request
(duplicate ACK, K-th ACK, first NACK) is on ack_req in cycle c+1 unless a timed ACK takes the
port in that cycle (then it is deferred: a K-th ACK is repeated by the next accepted PDU or the
timer, a NACK by the next out-of-sequence PDU, a duplicate ACK by the next duplicate). A timed
ACK is on ack_req at most max(T, 2) + 1 cycles after the last beat of the first unacknowledged
PDU. A re-NACK (lowest priority) repeats NACK(expected) while the gap persists, at most every R
cycles (an older retry entry may make one earlier) and about R cycles after the previous one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ACK, NACK = 0, 1
M16 = 0xFFFF


class ModelError(AssertionError):
    pass


@dataclass
class Source:
    exp: int = 0
    acked: int = 0                 # expected PSN when the last ACK was sent (PDUs since = exp - acked)
    first_unacked: int | None = None
    nack_open: bool = False        # a NACK(exp) was sent and exp has not moved since
    last_nack: int | None = None
    first_nack: int | None = None
    episodes: int = 0
    renacks: int = 0


@dataclass
class Model:
    num_xpus: int
    k: int = 8
    t: int = 256
    r: int = 4096
    init_cycles: int = 0           # PDUs before this cycle meet an uninitialised table (nobuf)
    renack_slack: int = 64
    src: list = field(default_factory=list)
    counts: dict = field(default_factory=dict)
    own: tuple | None = None       # own request expected in the next cycle: (dest, op, rpsn)
    own_kind: str = ""
    worst_timed_ack: int = 0

    def __post_init__(self):
        self.src = [Source() for _ in range(self.num_xpus)]
        self.counts = {k: 0 for k in ("accepted", "dup", "gap", "nobuf", "empty", "unknown", "ack_sent",
                                      "nack_sent", "req_deferred", "ack_rx", "nack_rx", "cfg_reject")}

    def set_expected(self, d: int, psn: int) -> None:
        s = self.src[d]
        s.exp = s.acked = psn & M16
        s.first_unacked = None
        s.nack_open = False

    # ---- one PDU's last beat in cycle c; returns (accept, peer_ack or None)
    def pdu(self, c: int, src: int, psn: int, has_ops: bool, commit: bool, fits: bool, op: int, rpsn: int):
        assert self.own is None
        known = src < self.num_xpus
        ready = c >= self.init_cycles
        if not known:
            if commit:
                self.counts["unknown"] += 1
            return False, None
        s = self.src[src]
        d = (psn - s.exp) & M16
        accept = has_ops and ready and d == 0
        peer = (src, op, rpsn) if commit and op in (0, 1) else None
        if peer:
            self.counts["ack_rx" if op == 0 else "nack_rx"] += 1
        if not commit:
            return accept, peer
        if not has_ops:
            self.counts["empty"] += 1
        elif not ready or (d == 0 and not fits):
            self.counts["nobuf"] += 1
        elif d == 0:
            self.counts["accepted"] += 1
            s.exp = (s.exp + 1) & M16
            s.nack_open = False
            if s.first_unacked is None:
                s.first_unacked = c
            if ((s.exp - s.acked) & M16) >= self.k:
                self.own, self.own_kind = (src, ACK, (s.exp - 1) & M16), "k"
        elif d >= 0x8000:
            self.counts["dup"] += 1
            self.own, self.own_kind = (src, ACK, (s.exp - 1) & M16), "dup"
        else:
            self.counts["gap"] += 1
            if not s.nack_open:
                self.own, self.own_kind = (src, NACK, s.exp), "nack"
        return accept, peer

    # ---- the request seen on ack_req in cycle c (None: no request); call once per cycle, before pdu()
    def observe(self, c: int, req) -> None:
        own, self.own = self.own, None
        if req is None:
            if own is not None:
                raise ModelError(f"cycle {c}: expected own request {own} ({self.own_kind}), got none")
            return
        dest, op, rpsn = req
        if not 0 <= dest < self.num_xpus:
            raise ModelError(f"cycle {c}: ack_req for unknown source {dest}")
        s = self.src[dest]
        if own is not None and req == own:
            self._apply(c, dest, op, rpsn)
            return
        if op == ACK:
            # a timed ACK: only for a source with unacknowledged PDUs, naming the last accepted PSN
            if (s.exp - s.acked) & M16 == 0:
                raise ModelError(f"cycle {c}: ACK {req} for source {dest} with nothing to acknowledge")
            if rpsn != (s.exp - 1) & M16:
                raise ModelError(f"cycle {c}: ACK {req}, expected rpsn {(s.exp - 1) & M16}")
            if own is not None:
                self.counts["req_deferred"] += 1
            self._apply(c, dest, op, rpsn)
            return
        # a re-NACK: only with no own request, for a persisting gap, with a retry period elapsed
        if own is not None:
            raise ModelError(f"cycle {c}: got {req}, expected own request {own} ({self.own_kind}) or a timed ACK")
        if not s.nack_open or rpsn != s.exp:
            raise ModelError(f"cycle {c}: NACK {req} without a persisting gap (expected {s.exp}, open {s.nack_open})")
        s.renacks += 1
        if s.renacks > (c - s.first_nack) // self.r + s.episodes:
            raise ModelError(f"cycle {c}: re-NACK {req} too often ({s.renacks} retries, {s.episodes} gaps)")
        self._apply(c, dest, op, rpsn)

    def _apply(self, c, dest, op, rpsn):
        s = self.src[dest]
        if op == ACK:
            self.counts["ack_sent"] += 1
            s.acked = s.exp
            if s.first_unacked is not None:
                self.worst_timed_ack = max(self.worst_timed_ack, c - s.first_unacked)
            s.first_unacked = None
        else:
            self.counts["nack_sent"] += 1
            if not s.nack_open:
                s.episodes += 1
                if s.first_nack is None:
                    s.first_nack = c
            s.nack_open = True
            s.last_nack = c

    # ---- deadlines, after observe() of cycle c
    def check_deadlines(self, c: int) -> None:
        limit = max(self.t, 2) + 1
        for d, s in enumerate(self.src):
            if s.first_unacked is not None and c - s.first_unacked >= limit and \
                    not (self.own is not None and self.own[0] == d):
                raise ModelError(f"cycle {c}: source {d} has PDUs unacknowledged since cycle {s.first_unacked} "
                                 f"(T={self.t}, limit {limit})")
            if s.nack_open and c - s.last_nack > self.r + self.renack_slack:
                raise ModelError(f"cycle {c}: source {d}: gap at {s.exp} not re-NACKed since cycle {s.last_nack} "
                                 f"(R={self.r})")
