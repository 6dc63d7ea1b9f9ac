# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for receive reliability (top ``sue_rx_reliability``, RxReliability.java).

Drives ``beat`` like the RX parser's output would be seen: PDUs of 1..3 beats from several
sources with in-order, duplicate and out-of-sequence PSNs (start PSNs near 0xFFFF so they wrap),
empty PDUs (keep[0] = 0 or a PAD first byte), commit = 0, random fits = 0, random idle cycles and
back-to-back one-beat PDUs, a few PDUs during the reset sweep and from unknown sources. Every
cycle the oracle ``rel_model.Model`` (the documented rules in plain Python) checks ``accept`` of
every last beat (the cycle after it, when ``fits`` is driven), every ``ack_req`` (op, rpsn, K/T
timing, re-NACK period), every ``peer_ack``, and at the end all counters. The block decides two
cycles after a last beat (ACCEPT_DELAY, then the ACK port), so the model takes each PDU in that
cycle: its timing rules then read as documented (own request and peer_ack the cycle after).
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge

from rel_model import Model

NUM_XPUS = int(os.environ.get("TB_NUMXPUS", "16"))
SEED = int(os.environ.get("TB_SEED", "1"))
PDUS = int(os.environ.get("TB_PDUS", "4000"))
K = int(os.environ.get("TB_K", "4"))
T = int(os.environ.get("TB_T", "40"))
R = int(os.environ.get("TB_R", "150"))
IDLE = float(os.environ.get("TB_IDLE", "0.3"))
ACTIVE = int(os.environ.get("TB_ACTIVE", "6"))     # sources sending at a time
LAT_FILE = os.environ.get("TB_LAT_FILE")
DEBUG = [int(x) for x in os.environ["TB_DEBUG"].split(",")] if os.environ.get("TB_DEBUG") else None

COUNTERS = ("accepted", "dup", "gap", "nobuf", "empty", "unknown", "ack_sent", "nack_sent", "req_deferred",
            "ack_rx", "nack_rx", "cfg_reject")


class Bench:
    def __init__(self, dut, rng):
        self.dut, self.rng = dut, rng
        self.nb = len(dut.beat_keep)
        self.cycle = 0

    def idle_beat(self):
        d = self.dut
        d.beat_valid.value = 0
        # junk on the payload while not valid
        d.beat_psn.value = self.rng.getrandbits(16)
        d.beat_src.value = self.rng.getrandbits(10)
        d.beat_last.value = self.rng.getrandbits(1)
        d.beat_commit.value = self.rng.getrandbits(1)

    def drive_beat(self, p, i, n):
        d, rng = self.dut, self.rng
        d.beat_valid.value = 1
        d.beat_src.value = p["src"]
        d.beat_vc.value = p["vc"]
        d.beat_psn.value = p["psn"]
        d.beat_op.value = p["op"]
        d.beat_rpsn.value = p["rpsn"]
        d.beat_partition.value = rng.getrandbits(10)
        d.beat_length.value = rng.getrandbits(13)
        data = rng.getrandbits(8 * self.nb)
        keep = (1 << self.nb) - 1
        if i == 0:
            data &= ~0xFF
            if p["kind"] == "ops":
                data |= rng.randint(1, 255)
            elif p["kind"] == "nokeep":
                keep = 0
        if i == n - 1 and keep:
            keep = (1 << rng.randint(1, self.nb)) - 1
        d.beat_data.value = data
        d.beat_keep.value = keep
        last = i == n - 1
        d.beat_last.value = int(last)
        d.beat_commit.value = int(p["commit"]) if last else rng.getrandbits(1)


def make_pdu(rng, model, active, in_init):
    src = rng.choice(active)
    if rng.random() < 0.02 and NUM_XPUS < 1024:
        src = rng.randrange(NUM_XPUS, 1024)
    exp = model.src[src].exp if src < NUM_XPUS else 0
    r = rng.random()
    if r < 0.6:
        psn = exp
    elif r < 0.78:
        psn = (exp - rng.choice([1, 1, 2, rng.randint(1, 40), 0x8000])) & 0xFFFF
    else:
        psn = (exp + rng.choice([1, 1, 2, rng.randint(1, 40), 0x7FFF])) & 0xFFFF
    kind = rng.choices(["ops", "nokeep", "pad"], [0.86, 0.07, 0.07])[0]
    n = 1 if kind == "nokeep" else rng.choices([1, 2, 3], [0.6, 0.25, 0.15])[0]
    return dict(src=src, psn=psn, kind=kind, n=n, vc=rng.randrange(4), op=rng.choice([0, 1, 2, 2]),
                rpsn=rng.getrandbits(16), commit=rng.random() >= 0.08, fits=rng.random() >= 0.1)


async def cfg_write(dut, addr, data):
    dut.cfg_valid.value = 1
    dut.cfg_addr.value = addr
    dut.cfg_data.value = data & 0xFFFFFFFF
    while True:
        await ReadOnly()
        ok = int(dut.cfg_ready.value)
        await RisingEdge(dut.clk)
        if ok:
            break
    dut.cfg_valid.value = 0


class Checker:
    """One cycle at a time: drives a beat (or idle) and checks every output against the model.

    A last beat driven in cycle c meets the PSN check in c + 1 (``fits`` driven, ``accept`` read) and
    the ACK port in c + 2, the cycle in which the model takes the PDU."""

    def __init__(self, dut, rng, model, bench):
        self.dut, self.rng, self.model, self.bench = dut, rng, model, bench
        self.cycle = 0
        self.pending_peer = None
        self.in_check = None        # the PDU whose last beat was driven in the previous cycle
        self.in_port = None         # (PDU, accept seen) whose last beat was driven two cycles ago

    async def step(self, pdu=None, beat_i=0):
        """Drives beat ``beat_i`` of ``pdu`` (None: idle) in the next cycle; True when it was the last."""
        dut, model = self.dut, self.model
        await RisingEdge(dut.clk)
        self.cycle += 1
        cycle = self.cycle
        dut.fits.value = int(self.in_check["fits"]) if self.in_check else self.rng.getrandbits(1)
        if pdu is not None:
            self.bench.drive_beat(pdu, beat_i, pdu["n"])
        else:
            self.bench.idle_beat()
        await ReadOnly()
        if DEBUG and DEBUG[0] <= cycle <= DEBUG[1]:
            sig = {n: int(getattr(dut, n).value) for n in ("beat_valid", "beat_last", "beat_commit", "beat_src",
                                                           "beat_psn", "p_has_ops", "in_pdu", "psn_dist", "q_dup",
                                                           "q_gap", "a_emit", "grant_p", "grant_n", "ack_req_valid")}
            dut._log.info("cycle %d: %s pdu=%s", cycle, sig, pdu)
        req = None
        if int(dut.ack_req_valid.value):
            req = (int(dut.ack_req_dest.value), int(dut.ack_req_op.value), int(dut.ack_req_rpsn.value))
        model.observe(cycle, req)
        got_peer = None
        if int(dut.peer_ack_valid.value):
            got_peer = (int(dut.peer_ack_peer.value), int(dut.peer_ack_op.value), int(dut.peer_ack_rpsn.value))
        assert got_peer == self.pending_peer, f"cycle {cycle}: peer_ack {got_peer}, expected {self.pending_peer}"
        self.pending_peer = None
        model.check_deadlines(cycle)
        if self.in_port is not None:
            p, got = self.in_port
            acc, peer = model.pdu(cycle, p["src"], p["psn"], p["kind"] == "ops", p["commit"], p["fits"], p["op"],
                                  p["rpsn"])
            assert got == int(acc), f"cycle {cycle - 1}: accept {got}, expected {int(acc)} for {p}"
            self.pending_peer = peer
        got = int(dut.accept.value)
        if self.in_check is None:
            assert got == 0, f"cycle {cycle}: accept without a last beat in the cycle before"
        self.in_port = (self.in_check, got) if self.in_check is not None else None
        last = pdu is not None and beat_i == pdu["n"] - 1
        self.in_check = pdu if last else None
        return last

    async def check_counters(self):
        await RisingEdge(self.dut.clk)
        await ReadOnly()
        got = {n: int(getattr(self.dut, f"cnt_{n}").value) for n in COUNTERS}
        assert got == self.model.counts, f"counters differ:\n dut   {got}\n model {self.model.counts}"
        return got


async def setup(dut, rng, k, t, r, psn_of=None):
    """Reset, a few PDUs during the reset sweep, bad and good configuration; returns a Checker."""
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    dut.rst.value = 1
    dut.cfg_valid.value = 0
    dut.cfg_addr.value = 0
    dut.cfg_data.value = 0
    bench = Bench(dut, rng)
    bench.idle_beat()
    for _ in range(3):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    init_cycles = max(2, NUM_XPUS)
    model = Model(NUM_XPUS, init_cycles=init_cycles)
    # ---- one-beat PDUs during the reset sweep: never accepted, counted as nobuf / empty
    for c in range(min(6, init_cycles - 3)):        # each in the PSN check while the sweep runs
        await RisingEdge(dut.clk)
        p = make_pdu(rng, model, [0, NUM_XPUS - 1], True)
        p["n"], p["kind"] = 1, rng.choice(["ops", "ops", "pad"])
        bench.drive_beat(p, 0, 1)
        await ReadOnly()
        assert not int(dut.cfg_ready.value), "cfg_ready during the reset sweep"
        model.pdu(c, p["src"], p["psn"], p["kind"] == "ops", p["commit"], p["fits"], p["op"], p["rpsn"])
        assert int(dut.accept.value) == 0, "accept during the reset sweep"
        model.own = None
    await RisingEdge(dut.clk)
    bench.idle_beat()
    # ---- configuration: bad values first (rejected and counted), then the real ones
    bad = [(0x0310, 0), (0x0310, 256), (0x0311, 0), (0x0311, 0x10000), (0x0312, 0), (0x0312, 0x1_0005),
           (0x4000 | 1 << 4 | 8, 0x10000)]
    if NUM_XPUS < 1024:
        bad.append((0x4000 | NUM_XPUS << 4 | 8, 5))
    for a, v in bad:
        await cfg_write(dut, a, v)
    model.counts["cfg_reject"] = len(bad)
    await cfg_write(dut, 0x0310, k)
    await cfg_write(dut, 0x0311, t)
    await cfg_write(dut, 0x0312, r)
    model.k, model.t, model.r = k, t, r
    for d in range(NUM_XPUS):
        psn = psn_of(d) if psn_of else None
        if psn is None and not psn_of and rng.random() < 0.7:
            psn = rng.choice([0xFFFF - rng.randint(0, 30), rng.getrandbits(16), 0x7FF0])
        if psn is not None:
            await cfg_write(dut, 0x4000 | d << 4 | 8, psn)
            model.set_expected(d, psn)
    await RisingEdge(dut.clk)
    await RisingEdge(dut.clk)
    model.init_cycles = 0
    return Checker(dut, rng, model, bench)


@cocotb.test()
async def random_traffic(dut):
    rng = random.Random(SEED)
    ck = await setup(dut, rng, K, T, R)
    model = ck.model
    sent = 0
    active = rng.sample(range(NUM_XPUS), min(ACTIVE, NUM_XPUS))
    while sent < PDUS:
        if rng.random() < IDLE and not (rng.random() < 0.5 and sent % 200 < 60):
            await ck.step()
            continue
        p = make_pdu(rng, model, active, False)
        sent += 1
        if rng.random() < 0.01:
            active = rng.sample(range(NUM_XPUS), min(ACTIVE, NUM_XPUS))
        i = 0
        while True:
            if i > 0 and rng.random() < IDLE / 2:
                await ck.step()
                continue
            if await ck.step(p, i):
                break
            i += 1
    for _ in range(max(T, 2) + 6):
        await ck.step()
    assert all(s.first_unacked is None for s in model.src)
    got = await ck.check_counters()
    five = sum(got[n] for n in ("accepted", "dup", "gap", "nobuf", "empty"))
    dut._log.info("counters %s (committed from known sources: %d); worst timed ACK %d cycles after the first "
                  "unacknowledged PDU (T=%d)", got, five, model.worst_timed_ack, T)
    for n in ("accepted", "dup", "gap", "nobuf", "empty", "ack_sent", "nack_sent", "ack_rx", "nack_rx"):
        assert got[n] > 0, f"no {n} events: the stimulus does not cover it"
    if LAT_FILE:
        with open(LAT_FILE, "w") as fh:
            fh.write(f"{model.worst_timed_ack}\n")


def one(src, psn, **kw):
    p = dict(src=src, psn=psn & 0xFFFF, kind="ops", n=1, vc=0, op=2, rpsn=0, commit=True, fits=True)
    p.update(kw)
    return p


@cocotb.test()
async def nack_retry_collision(dut):
    """A new gap whose first NACK is sent in the very cycle the source's retry entry of an earlier gap
    falls due (and leaves): the new gap must still be re-NACKed every R cycles while it persists. Also
    back-to-back one-beat PDUs of one source (forwarding) and a K-th ACK in the same cycle as a
    timed ACK of another source."""
    rng = random.Random(SEED)
    r = 40
    ck = await setup(dut, rng, 3, 25, r, psn_of=lambda d: 0xFFFE if d < 3 else None)
    m = ck.model
    for offset, src in ((-1, 0), (0, 1), (1, 2)):
        if src >= NUM_XPUS:
            break
        e = m.src[src].exp
        await ck.step(one(src, e + 2))             # gap: NACK(e), retry entry pushed now
        t0 = ck.cycle
        await ck.step(one(src, e))                 # the gap closes
        await ck.step(one(src, e + 1))             # back to back, same source
        while ck.cycle < t0 + r + offset - 1:
            await ck.step()
        await ck.step(one(src, e + 5))             # new gap, first NACK while the old entry falls due
        for _ in range(3 * r + 20):                # the gap persists: re-NACKs every R cycles
            await ck.step()
        await ck.step(one(src, m.src[src].exp))    # close it
        for _ in range(30):
            await ck.step()
    # back-to-back one-beat PDUs from one source, in order, wrapping through 0xFFFF
    s = min(3, NUM_XPUS - 1)
    for _ in range(40):
        await ck.step(one(s, m.src[s].exp))
    for _ in range(40):
        await ck.step()
    got = await ck.check_counters()
    sources = min(3, NUM_XPUS)    # per source two gaps NACKed and at least one re-NACK
    assert got["nack_sent"] >= 3 * sources, f"expected re-NACKs while the gaps persisted: {got}"
