# SPDX-License-Identifier: Apache-2.0
"""Plain-Python expectation of the whole receive path (``sue_rx``) for one frame at a time, built
from the three documented block models, never from the RTL:

* parser: ``common.rx_model.classify`` (DESIGN-RX.md "Classification");
* receive reliability: the PSN rules of DESIGN-RELIABILITY.md "Receive side" (expected PSN per
  source, accepted / dup / gap / nobuf / empty, peer ACK hand-off);
* delivery: DESIGN-RX.md "RX buffer ...": a PDU is kept iff commit && accept && fits; kept PDUs
  are stored, bad_vc (VC >= vcs) or nobuf; stored PDUs are walked by
  ``common.rx_deliver_model.walk`` (malformed -> bad_op, else every op delivered in order per VC).

``fits`` depends on when the XPU frees buffer room, which the bench does not predict cycle by
cycle: ``Occupancy`` keeps a conservative view per VC (words of stored PDUs not yet certainly
freed, and words certainly still held), and the bench only sends a PDU that will be kept when the
answer is certain (it waits otherwise), so every counter is exact.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from common.rx_deliver_model import pdu_words, walk
from common.rx_model import REASONS, RxConfig, classify

M16 = 0xFFFF
PARSER_COUNTERS = ("frames", "pass", "ctl") + REASONS
REL_COUNTERS = ("accepted", "dup", "gap", "nobuf", "empty", "unknown", "ack_rx", "nack_rx", "cfg_reject")
DELIVER_COUNTERS = ("stored", "nobuf", "rollback", "bad_vc", "bad_op", "pdus", "ops", "cfg_reject")


@dataclass
class Outcome:
    """What one frame must do. ``stage``: ctl, parser (a drop reason), rel (dup/gap/empty/nobuf),
    deliver (bad_vc/nobuf/bad_op/rollback) or delivered."""
    stage: str
    reason: str
    vc: int = 0
    src: int = 0
    words: int = 0
    ops: list = field(default_factory=list)
    ctl_err: int = 0
    peer_ack: tuple | None = None
    on_m: bool = True  # the PDU reaches the buffer (speculatively written, kept or rolled back)
    region_len: int = 0

    @property
    def label(self) -> str:
        return f"{self.stage}:{self.reason}"


class Occupancy:
    """Per VC, stored PDUs in order: [words, ops left, free_by or None]. A PDU is certainly freed
    ``slack`` cycles after its last op left (or, with no op to deliver, after the PDU before it was
    freed and its own walk had time); PDUs are freed in order (a ring)."""

    def __init__(self, vcs: int, ring_words: int, slack: int = 24):
        self.vcs, self.ring, self.slack = vcs, ring_words, slack
        self.q = [deque() for _ in range(vcs)]

    def _retire(self, vc: int, now: int) -> None:
        q = self.q[vc]
        prev_free = now
        while q:
            e = q[0]
            if e["free_by"] is None and e["ops_left"] == 0 and e["done"] is not None:
                e["free_by"] = e["done"] + self.slack
            if e["free_by"] is None and e["ops_left"] == 0 and e["done"] is None:
                e["free_by"] = max(prev_free, e["walked"]) + self.slack
            if e["free_by"] is None or e["free_by"] > now:
                return
            prev_free = e["free_by"]
            q.popleft()

    def used_upper(self, vc: int, now: int) -> int:
        self._retire(vc, now)
        return sum(e["words"] for e in self.q[vc])

    def held_lower(self, vc: int) -> int:
        """Words that cannot have been freed: PDUs with ops not yet delivered."""
        return sum(e["words"] for e in self.q[vc] if e["ops_left"] > 0)

    def add(self, vc: int, words: int, n_ops: int, walked: int) -> dict:
        e = dict(words=words, ops_left=n_ops, done=None, free_by=None, walked=walked)
        self.q[vc].append(e)
        return e

    def op_done(self, e: dict, now: int) -> None:
        e["ops_left"] -= 1
        if e["ops_left"] == 0:
            e["done"] = now

    def empty(self, now: int) -> bool:
        return all(self.used_upper(v, now) == 0 for v in range(self.vcs))


class RxPathModel:
    def __init__(self, cfg: RxConfig, num_xpus: int, vcs: int, buf_bytes: int, bpb: int, table: dict):
        self.cfg, self.n, self.vcs, self.bpb, self.table = cfg, num_xpus, vcs, bpb, table
        self.ring_words = buf_bytes // vcs // bpb
        self.exp = [0] * num_xpus
        self.occ = Occupancy(vcs, self.ring_words)
        self.expect = [deque() for _ in range(4)]  # XpuRx: (xpuid, (control, data), entry)
        self.peer_acks: list = []
        self.ctl: list = []
        self.parser = {c: 0 for c in PARSER_COUNTERS}
        self.rel = {c: 0 for c in REL_COUNTERS}
        self.deliver = {c: 0 for c in DELIVER_COUNTERS}
        self.now = 0
        self.walk_bound = 0
        # ACK bookkeeping per source (since the last EXPECTED_PSN write)
        self.ack_values = [set() for _ in range(num_xpus)]  # rpsn an ACK may name: exp-1 at some time
        self.nack_values = [set() for _ in range(num_xpus)]  # rpsn a NACK may name: exp at a gap
        self.accepted_since_set = [0] * num_xpus

    def set_expected(self, d: int, psn: int) -> None:
        self.exp[d] = psn & M16
        self.ack_values[d] = {(psn - 1) & M16}
        self.nack_values[d] = set()
        self.accepted_since_set[d] = 0

    # ---- prediction (pure) and commitment (updates state) ---------------------------------
    def predict(self, frame: bytes, err: int, fits_override: bool | None = None) -> tuple[Outcome, object]:
        """(outcome, fits question): the fits question is None, or (vc, words) when the outcome
        depends on buffer room (the caller decides with ``fits_certain``)."""
        v = classify(self.cfg, frame, err)
        if v.kind == "ctl":
            return Outcome("ctl", "ctl", ctl_err=v.ctl_err), None
        d = v.desc
        src, vc, psn, op = d["src"], d["vc"], d["psn"], d["op"]
        peer = (src, op, d["rpsn"]) if v.kind == "pass" and op in (0, 1) else None
        if v.out is None:  # dropped before the first op byte
            return Outcome("parser", v.reason, vc, src, on_m=False), None
        region, commit, _ = v.out
        if not commit:
            return Outcome("parser", v.reason, vc, src), None
        has_ops = len(region) > 0 and region[0] != 0
        if not has_ops:
            return Outcome("rel", "empty", vc, src, peer_ack=peer), None
        dist = (psn - self.exp[src]) & M16
        if dist != 0:
            return Outcome("rel", "dup" if dist >= 0x8000 else "gap", vc, src, peer_ack=peer), None
        words = pdu_words(len(region), self.bpb)
        if vc >= self.vcs:
            return Outcome("deliver", "bad_vc", vc, src, words, peer_ack=peer), None
        ops = walk(region, self.table)
        return Outcome("delivered" if ops else "deliver", "ops" if ops else ("bad_op" if ops is None else "no_op"),
                       vc, src, words, ops or [], peer_ack=peer, region_len=len(region)), (vc, words)

    def fits_certain(self, vc: int, words: int) -> bool | None:
        """True: certainly fits; False: certainly does not; None: cannot tell yet."""
        if self.occ.used_upper(vc, self.now) + words <= self.ring_words:
            return True
        if self.occ.held_lower(vc) + words > self.ring_words:
            return False
        return None

    def commit(self, frame: bytes, out: Outcome, fits: bool | None, frame_beats: int) -> None:
        p, r, dv = self.parser, self.rel, self.deliver
        p["frames"] += 1
        if out.stage == "ctl":
            p["ctl"] += 1
            self.ctl.append((frame, out.ctl_err))
            return
        if out.stage == "parser":
            p[out.reason] += 1
            if out.on_m:  # dropped at the end (commit = 0): written speculatively, rolled back
                dv["rollback"] += 1
            return
        p["pass"] += 1
        if out.peer_ack:
            self.peer_acks.append(out.peer_ack)
            r["ack_rx" if out.peer_ack[1] == 0 else "nack_rx"] += 1
        src = out.src
        if out.stage == "rel":
            r[out.reason] += 1
            dv["rollback"] += 1  # accept = 0
            if out.reason == "gap":
                self.nack_values[src].add(self.exp[src])
            return
        # accepted by PSN: kept unless no room
        if out.reason == "bad_vc":
            r["nobuf"] += 1
            dv["bad_vc"] += 1
            return
        assert fits is not None
        if not fits:
            out.stage, out.reason = "deliver", "nobuf"
            r["nobuf"] += 1
            dv["nobuf"] += 1
            return
        r["accepted"] += 1
        dv["stored"] += 1
        self.exp[src] = (self.exp[src] + 1) & M16
        self.ack_values[src].add((self.exp[src] - 1) & M16)
        self.accepted_since_set[src] += 1
        # the validator walks stored PDUs in arrival order, one op per cycle: a generous bound of
        # when this one is walked (a malformed PDU is freed once walked and reached in its ring)
        walked = (out.region_len // 2 + 1) if out.reason == "bad_op" else len(out.ops) + 1
        self.walk_bound = max(self.walk_bound, self.now + 4 * frame_beats + 64) + walked
        e = self.occ.add(out.vc, out.words, len(out.ops), self.walk_bound)
        if out.reason == "bad_op":
            dv["bad_op"] += 1
        else:
            dv["pdus"] += 1
            dv["ops"] += len(out.ops)
            for op in out.ops:
                self.expect[out.vc].append((src, op, e))

    # ---- XpuRx callbacks
    def op_done(self, vc: int, entry: dict) -> None:
        self.occ.op_done(entry, self.now)

    def idle(self) -> bool:
        return not any(self.expect) and self.occ.empty(self.now)
