# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for the XPU TX interface (top ``sue_xpu_tx``, XpuTxInterface.java).

A Python XPU drives random ops (random destination, VC, command table, data
lengths 1..256 where the table says data follows, random idle) and keeps its
credits like a real XPU: it starts an op only with a command credit and a data
credit per beat, and counts the credits it gets on tx_credit. The enqueue stage
is a sink with random backpressure that returns the credits of every committed
op after a random delay on ``release``.

Violations (TB_VIOLATIONS=1) are injected between good ops: tx_err on a random
beat, sending without credit, reserved tx_valid, wrong tx_cycle, extra and
missing data beats, invalid command type, PAD, tx_valid/table mismatch.

Oracle: a Python model of the documented rules (XpuTxInterface Javadoc), fed
with the beats the XPU drove and the XPU's own credit view, predicts every op
on ``m`` (committed: header and bytes exactly; aborted: header and abort) and
every counter. At the end every credit must be back at the XPU (refunds of
dropped ops included), and the credit counts must equal the parameters.
"""

from __future__ import annotations

import os
import random
from collections import deque

import cocotb
from cocotb.triggers import ReadOnly, RisingEdge

from common.stream_bfm import ClockedBench, StreamSink, start_clock_and_reset

CMD_CREDITS = int(os.environ.get("TB_CMD_CREDITS", "4"))
DATA_CREDITS = int(os.environ.get("TB_DATA_CREDITS", "12"))
VIOLATIONS = os.environ.get("TB_VIOLATIONS", "0") == "1"
N_OPS = int(os.environ.get("TB_OPS", "600"))
BACKPRESSURE = float(os.environ.get("TB_BACKPRESSURE", "0.3"))
IDLE = float(os.environ.get("TB_IDLE", "0.3"))
STALL_VC = os.environ.get("TB_STALL_VC", "0") == "1"
FIFO_DEPTH = int(os.environ["TB_FIFO_DEPTH"])
RESET_RATE = float(os.environ.get("TB_RESET_RATE", "0"))

OUT_FIELDS = ("dest", "vc", "ctrl_len", "data_len", "total_len", "control", "data", "keep", "last", "abort")
COUNTERS = ("ok", "err", "no_credit", "reserved", "bad_cycle", "long", "short", "bad_type", "pad", "mismatch",
            "overflow", "cfg_reject")


def ceil_div(a, b):
    return -(-a // b)


class Table:
    """The command table as the XPU configured it: type -> (data_present, units) or None."""

    def __init__(self):
        self.entries: dict[int, tuple[int, int] | None] = {t: None for t in range(256)}

    def write(self, t, dp, units) -> bool:
        ok = t != 0 and 1 <= units <= 9
        self.entries[t] = (dp, units) if ok else None
        return ok

    def valid_types(self, dp):
        return [t for t, e in self.entries.items() if e is not None and e[0] == dp]

    def invalid_types(self):
        return [t for t, e in self.entries.items() if e is None and t != 0]


class Xpu:
    """Drives the tx_* inputs from a list of planned ops and predicts the DUT's response."""

    def __init__(self, dut, rng: random.Random, table: Table, bpb: int):
        self.dut, self.rng, self.table, self.bpb = dut, rng, table, bpb
        self.queues: list[deque[list[dict]]] = [deque() for _ in range(4)]  # plans per VC, in order
        self.beats: deque[dict] = deque()  # beats of the plan being driven
        self.bal = {(vc, k): 0 for vc in range(4) for k in range(2)}
        self.in_reset = False
        self.after_reset = False
        self.reset_left = 0
        self.reset_rate = 0.0
        self.resets = 0
        self.prev_reset_in = 1  # the bench starts right after the table was written under tx_reset_in
        self.cur = None
        self.depth = FIFO_DEPTH
        # reference model of the checker
        self.held = None
        self.discard = False
        self.op_vc = 0
        self.expected: list[dict] = []  # ops on m, in order
        self.counters = {c: 0 for c in COUNTERS}
        self.cycle = 0
        self._idle(init=True)

    # ---- driving ----------------------------------------------------------
    def _idle(self, init=False):
        d = self.dut
        d.tx_valid.value = 0
        d.tx_cycle.value = self.rng.getrandbits(4)
        d.tx_vc.value = self.rng.getrandbits(2)
        d.tx_xpuid.value = self.rng.getrandbits(10)
        d.tx_control.value = self.rng.getrandbits(144)
        d.tx_data.value = self.rng.getrandbits(len(d.tx_data))
        d.tx_err.value = self.rng.getrandbits(1)
        if init:
            d.tx_reset_in.value = 0

    def _can_start(self, plan) -> bool:
        need = plan[0]["need"]
        if need is None:
            return True
        vc, cmd, data = need
        return self.bal[(vc, 0)] >= cmd and self.bal[(vc, 1)] >= data

    def drive(self):
        beat = None
        if self.in_reset:
            self.reset_left -= 1
            if self.reset_left == 0:
                self.in_reset = False
                self.dut.tx_reset_in.value = 0
                self.after_reset = True
            self._idle()
            self.cur = None
            return
        if self.after_reset:  # tx_reset_out is still high for a cycle: wait
            self.after_reset = False
            self._idle()
            self.cur = None
            return
        if self.reset_rate and self.rng.random() < self.reset_rate:
            # tx_reset_in at a random point, maybe inside an op: the op in flight is abandoned,
            # the XPU forgets its credits and the interface takes them back.
            self.in_reset = True
            self.reset_left = self.rng.randint(1, 3)
            self.resets += 1
            self.beats.clear()
            self.bal = {k: 0 for k in self.bal}
            self.dut.tx_reset_in.value = 1
            self._idle()
            self.cur = None
            return
        if self.beats:
            beat = self.beats.popleft()
        elif self.rng.random() >= IDLE:
            # like an XPU with a queue per VC: a VC without credits never holds up the others
            ready = [q for q in self.queues if q and self._can_start(q[0])]
            if ready:
                self.beats.extend(self.rng.choice(ready).popleft())
                beat = self.beats.popleft()
        if beat is None:
            self._idle()
        else:
            d = self.dut
            d.tx_valid.value = beat["valid"]
            d.tx_cycle.value = beat["cycle"]
            d.tx_vc.value = beat.get("vc", self.rng.getrandbits(2))
            d.tx_xpuid.value = beat.get("dest", self.rng.getrandbits(10))
            d.tx_control.value = int.from_bytes(beat["control"], "little") if "control" in beat \
                else self.rng.getrandbits(144)
            d.tx_data.value = int.from_bytes(beat["data"], "little") if "data" in beat \
                else self.rng.getrandbits(len(d.tx_data))
            d.tx_err.value = beat.get("err", 0)
        self.cur = beat

    def sample(self):
        out = int(self.dut.tx_reset_out.value)
        assert out == self.prev_reset_in, f"cycle {self.cycle}: tx_reset_out {out}, tx_reset_in a cycle ago {self.prev_reset_in}"
        self.prev_reset_in = int(self.in_reset)
        self.model(self.cur, int(self.dut.out_fifo_occupancy.value))
        c = int(self.dut.tx_credit.value)
        if c >> 5 and not self.in_reset:
            kind, vc, n = (c >> 4) & 1, (c >> 2) & 3, (c & 3) + 1
            self.bal[(vc, kind)] += n
        self.cycle += 1

    def add_plans(self, plans):
        for plan in plans:
            self.queues[plan[0]["pvc"]].append(plan)

    @property
    def idle_now(self):
        return not any(self.queues) and not self.beats

    # ---- reference model of the documented rules ---------------------------
    def model(self, beat, occupancy):
        b = beat or {"valid": 0, "cycle": 0}
        v, cyc = b["valid"], b["cycle"]
        err = b.get("err", 0)
        live = not self.in_reset
        is_res = live and v == 3
        is_cmd = live and v in (1, 2)
        idle = live and v == 0
        has_data = v == 2
        start = is_cmd and cyc == 0
        cont = is_cmd and cyc != 0
        beat_vc = b["vc"] if start else self.op_vc
        cmd_avail = start and self.bal[(b["vc"], 0)] > 0
        data_avail = self.bal[(beat_vc, 1)] > 0
        take_cmd = start and cmd_avail
        take_data = is_cmd and has_data and data_avail
        h = self.held
        incomplete = h is not None and not h["last"]
        seq_ok = cont and has_data and h is not None and cyc == (h["idx"] + 1) % 16
        cont_good = incomplete and seq_ok and not err and data_avail
        if h is not None:
            if incomplete and not cont_good:
                reason = ("err" if seq_ok and err else "no_credit" if seq_ok else "bad_cycle" if cont
                          else "reserved" if is_res else "short" if live else None)
                if reason:
                    self.counters[reason] += 1
                self.expected.append({**h["op"], "abort": 1})
            elif not incomplete:
                if cont:
                    self.counters["long"] += 1
                    self.expected.append({**h["op"], "abort": 1})
                else:
                    self.counters["ok"] += 1
                    self.expected.append({**h["op"], "abort": 0})
        if is_res and not incomplete:
            self.counters["reserved"] += 1
        if h is None and cont and not self.discard:
            self.counters["bad_cycle"] += 1
        accept = False
        if start:
            ctrl = b["control"]
            t = ctrl[0]
            e = self.table.entries[t]
            if err:
                self.counters["err"] += 1
            elif t == 0:
                self.counters["pad"] += 1
            elif e is None:
                self.counters["bad_type"] += 1
            elif e[0] != has_data:
                self.counters["mismatch"] += 1
            elif not cmd_avail or (has_data and not data_avail):
                self.counters["no_credit"] += 1
            elif occupancy + (h is not None) + (ceil_div(ctrl[1] + 1, self.bpb) if e[0] else 1) > self.depth:
                self.counters["overflow"] += 1
            else:
                accept = True
                dp, units = e
                dlen = ctrl[1] + 1 if dp else 0
                beats = ceil_div(dlen, self.bpb) if dp else 1
                op = {"dest": b["dest"], "vc": b["vc"], "ctrl_len": 2 * units, "data_len": dlen,
                      "total_len": 2 * units + dlen + (dlen & 1), "control": int.from_bytes(ctrl, "little"),
                      "bytes": b["data"][:min(dlen, self.bpb)] if dp else b""}
                self.held = {"op": op, "idx": 0, "beats": beats, "last": beats == 1}
        if cont_good:
            h["idx"] += 1
            h["last"] = h["idx"] == h["beats"] - 1
            take = min(h["op"]["data_len"] - h["idx"] * self.bpb, self.bpb)
            h["op"]["bytes"] += b["data"][:take]
        elif not accept:
            self.held = None
        if start:
            self.op_vc = b["vc"]
        if idle or not live:
            self.discard = False
        elif start:
            self.discard = not accept
        elif cont:
            self.discard = not cont_good
        elif is_res:
            self.discard = True
        if take_cmd:
            self.bal[(b["vc"], 0)] -= 1
        if take_data:
            self.bal[(beat_vc, 1)] -= 1


class Downstream:
    """Returns the credits of each committed op on ``release`` after a random delay."""

    def __init__(self, dut, sink: StreamSink, rng: random.Random, bpb: int, max_delay: int):
        self.dut, self.sink, self.rng, self.bpb, self.max_delay = dut, sink, rng, bpb, max_delay
        self.seen = 0
        self.cycle = 0
        self.pending: list[tuple[int, int, int, int]] = []  # (due, vc, kind, count)
        self.count_max = (1 << len(dut.release_count)) - 1
        self.hold: set[int] = set()  # VCs whose credits are withheld (a stalled queue behind)
        dut.release_valid.value = 0

    def drive(self):
        d = self.dut
        due = [p for p in self.pending if p[0] <= self.cycle and p[1] not in self.hold]
        if due:
            p = due[0]
            self.pending.remove(p)
            d.release_valid.value = 1
            d.release_vc.value, d.release_kind.value, d.release_count.value = p[1], p[2], p[3]
        else:
            d.release_valid.value = 0
            d.release_vc.value = self.rng.getrandbits(2)
            d.release_kind.value = self.rng.getrandbits(1)
            d.release_count.value = self.rng.getrandbits(len(d.release_count))

    def sample(self):
        while self.seen < len(self.sink.beats):
            beat = self.sink.beats[self.seen]
            self.seen += 1
            if beat["last"] and not beat["abort"]:
                due = self.cycle + 1 + self.rng.randint(0, self.max_delay)
                self.pending.append((due, beat["vc"], 0, 1))
                beats = ceil_div(beat["data_len"], self.bpb)
                while beats:
                    n = min(beats, self.count_max, self.rng.randint(1, 4))
                    self.pending.append((due + self.rng.randint(0, 3), beat["vc"], 1, n))
                    beats -= n
        self.cycle += 1

    @property
    def idle_now(self):
        return not self.pending


def collect_ops(beats, bpb):
    """Groups output beats into ops: header of the first beat, bytes, abort of the last."""
    ops, cur = [], None
    for b in beats:
        if cur is None:
            cur = {k: b[k] for k in ("dest", "vc", "ctrl_len", "data_len", "total_len", "control")}
            cur["bytes"] = b""
            cur["nbeats"] = 0
        for k in ("dest", "vc", "ctrl_len", "data_len", "total_len", "control"):
            assert b[k] == cur[k], f"header field {k} changed inside an op: {cur[k]:#x} -> {b[k]:#x}"
        keep = b["keep"]
        n = keep.bit_length()
        if not b["abort"]:
            assert keep == (1 << n) - 1, f"keep {keep:#x} not contiguous"
            if not b["last"]:
                assert n == bpb, f"partial keep {keep:#x} on a beat that is not last"
            cur["bytes"] += b["data"].to_bytes(bpb, "little")[:n]
        cur["nbeats"] += 1
        if b["last"]:
            cur["abort"] = b["abort"]
            ops.append(cur)
            cur = None
        else:
            assert not b["abort"], "abort on a beat that is not last"
    assert cur is None, "op without a last beat at the end"
    return ops


def make_plans(rng, table: Table, bpb: int, n_ops: int, violations: bool):
    """Random op plans: good ops, and with ``violations`` one injected fault in about a third."""
    plans = []
    max_beats = ceil_div(256, bpb)
    kinds = ["err", "no_credit", "reserved", "reserved_mid", "bad_cycle", "long", "short", "bad_type", "pad",
             "mismatch", "stray"]
    for _ in range(n_ops):
        vc = rng.randrange(4)
        dest = rng.getrandbits(10)
        dp = rng.random() < 0.7
        types = table.valid_types(1 if dp else 0)
        t = rng.choice(types)
        dlen = rng.choice([1, 2, bpb - 1, bpb, bpb + 1, 64, 255, 256, rng.randint(1, 256)]) if dp else 0
        dlen = max(1, min(256, dlen)) if dp else 0
        ctrl = bytearray(rng.getrandbits(8) for _ in range(18))
        ctrl[0] = t
        if dp:
            ctrl[1] = dlen - 1
        data = bytes(rng.getrandbits(8) for _ in range(ceil_div(max(dlen, 1), bpb) * bpb))
        beats = ceil_div(dlen, bpb) if dp else 1
        plan = []
        for i in range(beats):
            beat = {"valid": 2 if dp else 1, "cycle": i, "data": data[i * bpb:(i + 1) * bpb], "err": 0}
            if i == 0:
                beat.update(vc=vc, dest=dest, control=bytes(ctrl))
            plan.append(beat)
        need = (vc, 1, beats if dp else 0)
        kind = rng.choice(kinds) if violations and rng.random() < 0.35 else None
        if kind == "err":
            plan[rng.randrange(beats)]["err"] = 1
        elif kind == "no_credit":
            # A burst of copies on consecutive cycles, whatever the credits: one more op than the
            # VC has command credits, so at least one goes without (the model sees which).
            plan = [dict(b) for _ in range(CMD_CREDITS + 1) for b in plan]
            need = None
        elif kind == "reserved":
            plan.append({"valid": 3, "cycle": rng.getrandbits(4)})
        elif kind == "reserved_mid" and beats > 1:
            plan[rng.randrange(1, beats)]["valid"] = 3
        elif kind == "bad_cycle" and beats > 1:
            j = rng.randrange(1, beats)
            if rng.random() < 0.3:  # the right tx_cycle but tx_valid = 1: not a data beat either
                plan[j]["valid"] = 1
            else:
                plan[j]["cycle"] = rng.choice([c for c in range(1, 16) if c != j])
        elif kind == "long" and dp and beats < 15:
            plan.append({"valid": 2, "cycle": beats, "data": bytes(bpb), "err": 0})
        elif kind == "short" and beats > 1:
            plan = plan[:rng.randrange(1, beats)]
        elif kind == "bad_type":
            bad = table.invalid_types()
            ctrl[0] = rng.choice(bad)
            plan[0]["control"] = bytes(ctrl)
        elif kind == "pad":
            ctrl[0] = 0
            plan[0]["control"] = bytes(ctrl)
        elif kind == "mismatch":
            for b in plan:
                b["valid"] = 1 if dp else 2
            if not dp:  # a data-less type sent with tx_valid = 2: a data credit too
                need = (vc, 1, 1)
            plan = plan[:1]
        elif kind == "stray":
            plan.insert(0, {"valid": rng.choice([1, 2]), "cycle": rng.randint(1, 15), "data": bytes(bpb), "err": 0})
        if plan:
            plan[0]["need"] = need
            plan[0]["pvc"] = vc
        plans.append(plan)
    return plans


async def configure(dut, rng, table: Table) -> int:
    """Writes a random command table through cfg_*; returns the number of rejected writes."""
    rejects = 0
    writes = []
    for t in range(256):
        if rng.random() < 0.6:
            writes.append((t, rng.getrandbits(1), rng.randint(1, 9)))
        elif rng.random() < 0.3:
            writes.append((t, rng.getrandbits(1), rng.choice([0, 10, 11, 15])))
    writes.append((0, 1, 3))  # type 0 is PAD: always rejected
    writes += [(1, 1, rng.randint(1, 9)), (2, 0, rng.randint(1, 9)), (3, 0, 0)]  # both kinds exist, 3 invalid
    rng.shuffle(writes)
    writes += [(1, 1, rng.randint(1, 9)), (2, 0, rng.randint(1, 9)), (3, 0, 0)]
    dut.tx_reset_in.value = 1  # no credits go out while the table is written
    for t, dp, units in writes:
        dut.cfg_valid.value = 1
        dut.cfg_addr.value = t
        dut.cfg_data.value = (dp << 4) | units
        rejects += not table.write(t, dp, units)
        await RisingEdge(dut.clk)
    dut.cfg_valid.value = 0
    dut.tx_reset_in.value = 0
    return rejects


def read_counters(dut):
    return {c: int(getattr(dut, f"cnt_{c}").value) for c in COUNTERS}


@cocotb.test(timeout_time=200, timeout_unit="ms")
async def random_ops(dut):
    seed = int(os.environ.get("TB_SEED", "1"))
    rng = random.Random(seed)
    bpb = len(dut.tx_data) // 8
    dut.cfg_valid.value = 0
    dut.m_ready.value = 0
    dut.release_valid.value = 0
    table = Table()
    xpu = Xpu(dut, random.Random(rng.random()), table, bpb)
    await start_clock_and_reset(dut)
    assert int(dut.tx_reset_out.value) == 1, "tx_reset_out must be high while SUE is in reset"
    rejects = await configure(dut, rng, table)

    bench = ClockedBench(dut.clk)
    bench.add(xpu)
    sink = bench.add(StreamSink(dut, "m", OUT_FIELDS, random.Random(rng.random()), BACKPRESSURE))
    down = bench.add(Downstream(dut, sink, random.Random(rng.random()), bpb, max_delay=30))
    initial = {(vc, k): (CMD_CREDITS if k == 0 else DATA_CREDITS) for vc in range(4) for k in range(2)}

    async def drain(what):
        await bench.run_until(lambda: xpu.idle_now, timeout=400 * N_OPS, what=f"{what}: driving every op")
        rate, xpu.reset_rate = xpu.reset_rate, 0.0  # no tx_reset_in while counting the credits
        await bench.run_until(lambda: not xpu.in_reset and not xpu.after_reset, timeout=10, what="reset end")
        await bench.run(3)
        await bench.run_until(lambda: down.idle_now and xpu.bal == initial, timeout=5000,
                              what=f"{what}: every credit back at the XPU (have {xpu.bal})")
        await bench.run(40)
        assert xpu.bal == initial, f"{what}: credits after the traffic {xpu.bal} != {initial}"
        xpu.reset_rate = rate

    xpu.add_plans(make_plans(rng, table, bpb, N_OPS, VIOLATIONS))
    xpu.reset_rate = RESET_RATE
    if STALL_VC:
        # The buffer behind VC 0 is stuck: VC 0 runs out of credits, the other VCs carry on.
        down.hold = {0}
        await bench.run_until(lambda: not any(xpu.queues[1:]) and not xpu.beats, timeout=400 * N_OPS,
                              what="VCs 1-3 finishing while VC 0 is stalled")
        assert len(xpu.queues[0]) > 0, "VC 0 was not stalled (test too weak)"
        def vc0_committed():
            return sum(1 for b in sink.beats if b["vc"] == 0 and b["last"] and not b["abort"])

        before, stalled = vc0_committed(), len(xpu.queues[0])
        await bench.run(200)
        assert vc0_committed() == before, "ops committed on VC 0 without credits"
        dut._log.info("VC 0 stalled with %d ops waiting; VCs 1-3 done", stalled)
        down.hold = set()
    await drain("phase 1")

    # tx_reset_in at a quiet point: every credit is taken back and advertised again.
    xpu.reset_rate = 1.0
    await bench.step()  # tx_reset_in rises
    xpu.reset_rate = 0.0
    await bench.run_until(lambda: not xpu.in_reset, timeout=10, what="tx_reset_in pulse")
    xpu.add_plans(make_plans(rng, table, bpb, N_OPS // 4, VIOLATIONS))
    await drain("phase 2")

    got = collect_ops(sink.beats, bpb)
    exp = xpu.expected
    for i, (g, e) in enumerate(zip(got, exp)):
        where = f"op {i} of {len(exp)}"
        assert g["abort"] == e["abort"], f"{where}: abort {g['abort']} expected {e['abort']} ({e})"
        for k in ("dest", "vc", "ctrl_len", "data_len", "total_len", "control"):
            assert g[k] == e[k], f"{where}: {k} {g[k]:#x} expected {e[k]:#x}"
        if not e["abort"]:
            assert g["bytes"] == e["bytes"], f"{where}: data bytes differ"
            assert g["nbeats"] == max(1, ceil_div(e["data_len"], bpb)), f"{where}: beat count"
    assert len(got) == len(exp), f"{len(got)} ops on m, expected {len(exp)}"
    counters = read_counters(dut)
    want = dict(xpu.counters, cfg_reject=rejects)
    assert counters == want, f"counters {counters} expected {want}"
    good = sum(1 for e in exp if not e["abort"])
    dut._log.info("ops committed %d, aborted on m %d, counters %s", good, len(exp) - good, counters)
    overflow_free = FIFO_DEPTH >= 4 * (CMD_CREDITS + DATA_CREDITS)
    if VIOLATIONS:
        for c in COUNTERS:
            if c != "overflow":
                assert counters[c] > 0, f"violation {c} never exercised"
    if overflow_free:
        assert counters["overflow"] == 0
    else:
        assert counters["overflow"] > 0, "a small output FIFO never overflowed (test too weak)"
    dut._log.info("tx_reset_in pulses: %d", xpu.resets)


@cocotb.test(timeout_time=5, timeout_unit="ms")
async def latency(dut):
    """Cycles from the first beat on tx_* to the op's first beat on m, idle DUT, ready high."""
    bpb = len(dut.tx_data) // 8
    dut.cfg_valid.value = 0
    dut.m_ready.value = 1
    dut.release_valid.value = 0
    dut.tx_valid.value = 0
    dut.tx_err.value = 0
    dut.tx_reset_in.value = 0
    await start_clock_and_reset(dut)
    table = Table()
    dut.cfg_valid.value, dut.cfg_addr.value, dut.cfg_data.value = 1, 5, (1 << 4) | 2
    table.write(5, 1, 2)
    await RisingEdge(dut.clk)
    dut.cfg_valid.value = 0
    for _ in range(10):  # credits arrive
        await RisingEdge(dut.clk)
    results = []
    for dlen in (1, 256):
        dut.tx_valid.value, dut.tx_cycle.value, dut.tx_vc.value = 2, 0, 1
        dut.tx_control.value = 5 | ((dlen - 1) << 8)
        start = 0
        cycles = 0
        beats = ceil_div(dlen, bpb)
        while True:
            await RisingEdge(dut.clk)
            cycles += 1
            if cycles < beats:
                dut.tx_cycle.value = cycles
            else:
                dut.tx_valid.value = 0
            await ReadOnly()
            if int(dut.m_valid.value):
                break
            assert cycles < 20
        results.append(cycles - start)
        await RisingEdge(dut.clk)
        dut.tx_valid.value = 0
        for _ in range(10):
            await RisingEdge(dut.clk)
    dut._log.info("latency tx_valid -> m_valid: %s cycles", results)
    expect = int(os.environ.get("TB_LATENCY", "2"))
    assert results == [expect, expect], f"latency {results}, documented {expect}"
