# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for the TX queue manager (top ``sue_tx_queue``, TxQueueManager.java).

Drives XpuTxOp beats directly (random ops: destination, VC, 2..18 control bytes, 0..256 data
bytes, random aborts, random idle before and inside ops) with random backpressure on desc/data. A plain-Python
reference checks every PDU: it holds ops of one {dest, VC} only, its bytes are exactly the next
committed ops of that queue (control bytes, data, zero pad to even), its length matches, it
respects PACK_LIMIT (274..4096: every op fits), nothing aborted appears, every committed op appears once,
credits released = credits consumed, counters.
"""

from __future__ import annotations

import os
import random
from collections import deque

import cocotb
from cocotb.triggers import FallingEdge, RisingEdge

from common.stream_bfm import start_clock_and_reset

W = int(os.environ["TB_W"])
B = W // 8
XPUS = int(os.environ["TB_XPUS"])
VCS = int(os.environ["TB_VCS"])
CELLS = int(os.environ["TB_CELLS"])
MODE = os.environ.get("TB_MODE", "random")
N_OPS = int(os.environ.get("TB_OPS", "300"))
LIMIT = int(os.environ.get("TB_LIMIT", "2048"))
SEED = int(os.environ.get("TB_SEED", "1"))
BP = float(os.environ.get("TB_BP", "0.3"))
IDLE = float(os.environ.get("TB_IDLE", "0.3"))
ABORT = float(os.environ.get("TB_ABORT", "0.1"))
KMAX = -(-274 // B) + 1
CAP = min(4096, (CELLS // 2 - 1) * B)


def ceil_div(a, b):
    return -(-a // b)


def make_op(rng, dest, vc, abort_ok=True, data_len=None):
    ctrl = [rng.randrange(256) for _ in range(2 * rng.randint(1, 9))]
    if data_len is None:
        data_len = 0 if rng.random() < 0.2 else rng.randint(1, 256)
    data = [rng.randrange(256) for _ in range(data_len)]
    beats = max(1, ceil_div(data_len, B))
    abort_at = rng.randrange(beats) if abort_ok and rng.random() < ABORT else None
    wire = ctrl + data
    if len(wire) % 2:
        wire.append(0)
    return {"dest": dest, "vc": vc, "ctrl": ctrl, "data": data, "beats": beats, "abort_at": abort_at,
            "wire": bytes(wire)}


def op_beats(op):
    """The XpuTxOp beats of one op (dicts of field values)."""
    out = []
    ctrl_val = int.from_bytes(bytes(op["ctrl"]), "little")
    n = len(op["data"])
    last_idx = op["beats"] - 1 if op["abort_at"] is None else op["abort_at"]
    for i in range(last_idx + 1):
        chunk = op["data"][i * B:(i + 1) * B]
        keep = (1 << len(chunk)) - 1
        out.append({"dest": op["dest"], "vc": op["vc"], "ctrl_len": len(op["ctrl"]), "data_len": n,
                    "total_len": len(op["wire"]), "control": ctrl_val,
                    "data": int.from_bytes(bytes(chunk), "little"), "keep": keep,
                    "last": int(i == last_idx), "abort": int(op["abort_at"] is not None and i == last_idx)})
    return out


class Bench:
    def __init__(self, dut, rng):
        self.dut, self.rng = dut, rng
        self.cycle = 0
        self.beats = deque()
        self.expected = {}  # (dest, vc) -> deque of committed ops' wire bytes
        self.committed = 0
        self.aborted = 0
        self.refusable = set()  # destinations whose ops the DUT may refuse (DEST_LIMIT set)
        self.refused = 0  # committed ops found missing from their queue's PDUs
        self.credits = {}  # (vc, kind) -> consumed by committed ops
        self.released = {}
        self.descs = deque()
        self.cur = bytearray()
        self.pdu_data = deque()
        self.pdus = []  # (dest, vc, length, bytes, first data cycle)
        self.multi = 0
        self.data_fires = 0
        self.desc_valid_cycles = []
        self.first_data_cycle = []
        self.bp = BP
        self.hold_out = False
        self.no_input = False
        self.in_fires = []  # cycle of each first beat fire
        dut.s_valid.value = 0
        dut.desc_ready.value = 0
        dut.data_ready.value = 0
        dut.cfg_valid.value = 0
        dut.cfg_addr.value = 0
        dut.cfg_data.value = 0
        dut.win_valid.value = 0
        dut.win_dest.value = 0
        dut.win_open.value = 0
        dut.vc_pause.value = 0
        self.next_beat = None
        self.mid_op = False

    def queue_op(self, op):
        self.beats.extend((op, b) for b in op_beats(op))

    def _set_beat(self, b):
        for k, v in b.items():
            getattr(self.dut, "s_" + k).value = v

    async def step(self, idle=0.0):
        """One clock cycle: drive, then sample at the falling edge what the rising edge takes."""
        d = self.dut
        # no_input stops new ops; an op already started is finished
        if self.next_beat is None and self.beats and (not self.no_input or self.mid_op):
            # idle before an op, and (less often) between two beats of one op: the packer takes
            # other queues' flushes while an op waits for its next beat
            first = self.beats[0][1] is op_beats_first(self.beats)
            if self.rng.random() < (idle if first else idle / 3):
                pass
            else:
                self.next_beat = self.beats.popleft()
        if self.next_beat is not None:
            self._set_beat(self.next_beat[1])
            d.s_valid.value = 1
        else:
            d.s_valid.value = 0
        rdy = 0 if self.hold_out else int(self.rng.random() >= self.bp)
        d.desc_ready.value = rdy
        d.data_ready.value = 0 if self.hold_out else int(self.rng.random() >= self.bp)
        await FallingEdge(d.clk)
        if self.next_beat is not None and int(d.s_ready.value):
            op, b = self.next_beat
            if b is op_beats_first_of(op, b):
                self.in_fires.append(self.cycle)
            self.mid_op = not b["last"]
            if b["last"]:
                op["last_in_cycle"] = self.cycle
                if b["abort"]:
                    self.aborted += 1
                else:
                    self.committed += 1
                    self.expected.setdefault((op["dest"], op["vc"]), deque()).append(op)
                    self.credits[(op["vc"], 0)] = self.credits.get((op["vc"], 0), 0) + 1
                    self.credits[(op["vc"], 1)] = self.credits.get((op["vc"], 1), 0) + ceil_div(len(op["data"]), B)
            self.next_beat = None
        if int(d.desc_valid.value):
            self.desc_valid_cycles.append(self.cycle)
            if int(d.desc_ready.value):
                self.descs.append((int(d.desc_dest.value), int(d.desc_vc.value), int(d.desc_length.value)))
        if int(d.data_valid.value):
            self.first_data_cycle.append(self.cycle)
            if int(d.data_ready.value):
                self.data_fires += 1
                keep = int(d.data_keep.value)
                nb = bin(keep).count("1")
                assert keep == (1 << nb) - 1, f"keep not contiguous: {keep:x}"
                raw = int(d.data_data.value).to_bytes(B, "little")
                assert all(x == 0 for x in raw[nb:]), "bytes beyond keep are not zero"
                self.cur += raw[:nb]
                if int(d.data_last.value):
                    self.pdu_data.append(bytes(self.cur))
                    self.cur = bytearray()
                else:
                    assert nb == B, "partial beat before last"
        if int(d.release_valid.value):
            k = (int(d.release_vc.value), int(d.release_kind.value))
            self.released[k] = self.released.get(k, 0) + int(d.release_count.value)
        while self.descs and self.pdu_data:
            self.check_pdu(self.pdu_data.popleft())
        await RisingEdge(d.clk)
        self.cycle += 1

    def check_pdu(self, data):
        assert self.descs, "PDU data without a desc taken before its last beat"
        dest, vc, length = self.descs.popleft()
        assert length == len(data), f"desc length {length} != data bytes {len(data)}"
        q = self.expected.get((dest, vc))
        assert q, f"PDU for ({dest},{vc}) but no committed op is expected there"
        pos, nops = 0, 0
        while pos < len(data):
            assert q, f"PDU ({dest},{vc}) holds bytes beyond the queue's committed ops"
            op = q.popleft()
            w = op["wire"]
            if dest in self.refusable and data[pos:pos + len(w)] != w:
                self.refused += 1  # a refused op leaves no trace: the PDU goes on with a later one
                continue
            assert data[pos:pos + len(w)] == w, (
                f"PDU ({dest},{vc}) op {nops} mismatch at byte {pos}: got {data[pos:pos+len(w)].hex()} "
                f"expected {w.hex()}")
            pos += len(w)
            nops += 1
        assert pos == len(data)
        assert len(data) <= min(LIMIT, CAP), f"PDU of {len(data)} bytes ({nops} ops) > limit"
        if nops > 1:
            self.multi += 1
        self.pdus.append((dest, vc, len(data), nops, self.cycle))

    def pending(self):
        return sum(len(q) for q in self.expected.values())

    async def drain(self, limit=20000):
        for _ in range(limit):
            if not self.beats and self.next_beat is None and self.pending() == 0 and not self.cur \
                    and not self.pdu_data:
                break
            await self.step()
        assert self.pending() == 0, f"{self.pending()} committed ops never emitted"
        for _ in range(40):  # let the credit accumulators empty
            await self.step()

    def check_end(self):
        d = self.dut
        for k, v in self.credits.items():
            assert self.released.get(k, 0) == v, f"credits {k}: released {self.released.get(k, 0)} != consumed {v}"
        for k, v in self.released.items():
            assert self.credits.get(k, 0) == v, f"credits {k}: released {v} but consumed {self.credits.get(k, 0)}"
        assert int(d.cnt_dest_limit.value) == self.refused, (int(d.cnt_dest_limit.value), self.refused)
        assert int(d.cnt_ops.value) == self.committed - self.refused, (int(d.cnt_ops.value), self.committed)
        assert int(d.cnt_pdus.value) == len(self.pdus)
        assert int(d.cnt_aborts.value) == self.aborted
        # every cell is back (freed after its read, or waiting in the cell prefetch queues), but
        # for the spare lists' (an op that did not commit keeps its cells there: ceil(KMAX/2) per parity)
        free = int(d.free_cells.value)
        spare_max = 2 * ceil_div(KMAX, 2)
        assert CELLS - spare_max <= free <= CELLS, f"free cells {free} at the end, expected {CELLS - spare_max}..{CELLS}"


def op_beats_first(beats):
    return beats[0][1]


def op_beats_first_of(op, b):
    return b if b.get("_first") else (b if op.setdefault("_first_beat", id(b)) == id(b) else None)


async def setup(dut):
    rng = random.Random(SEED)
    bench = Bench(dut, rng)
    await start_clock_and_reset(dut)
    for _ in range(XPUS * VCS + 8):
        await RisingEdge(dut.clk)
    # configuration: two illegal writes just outside 274..4096 (ignored, counted), then the limit
    for addr, val in ((0x0200, 273), (0x0200, 4097), (0x0200, LIMIT)):
        dut.cfg_valid.value = 1
        dut.cfg_addr.value = addr
        dut.cfg_data.value = val
        await RisingEdge(dut.clk)
    dut.cfg_valid.value = 0
    await RisingEdge(dut.clk)
    assert int(dut.cnt_bad_cfg.value) == 2
    return bench, rng


@cocotb.test()
async def random_traffic(dut):
    bench, rng = await setup(dut)
    hot = [(rng.randrange(XPUS), rng.randrange(VCS)) for _ in range(3)]
    for i in range(N_OPS):
        if rng.random() < 0.5:
            dest, vc = rng.choice(hot)
        else:
            dest, vc = rng.randrange(XPUS), rng.randrange(VCS)
        bench.queue_op(make_op(rng, dest, vc))
    while bench.beats or bench.next_beat is not None:
        await bench.step(idle=IDLE)
    await bench.drain()
    bench.check_end()
    assert LIMIT < 300 or bench.multi > 0, "no PDU with more than one op: packing under backpressure never happened"
    dut._log.info(f"{len(bench.pdus)} PDUs, {bench.multi} packed, {bench.committed} ops, {bench.aborted} aborted")


@cocotb.test()
async def idle_latency(dut):
    """Lone ops of every size on an idle system: cycles from the op's last beat at s to its
    desc / first data beat. Half the sizes make the control bytes push the op's tail into one
    more cell than its data beats (its first chunk spills into a second cell)."""
    bench, rng = await setup(dut)
    bench.bp = 0.0
    worst = 0
    spilled = 0
    sizes = [0, B - 18, B, min(256, 2 * B), 256, 1, 255]
    for i in range(2 * len(sizes)):
        data_len = sizes[i] if i < len(sizes) else rng.randint(0, 256)
        op = make_op(rng, rng.randrange(XPUS), rng.randrange(VCS), abort_ok=False, data_len=max(0, data_len))
        spilled += len(op["ctrl"]) + len(op["data"]) > op["beats"] * B
        bench.queue_op(op)
        bench.desc_valid_cycles.clear()
        bench.first_data_cycle.clear()
        for _ in range(40 + op["beats"]):
            await bench.step()
        t0 = op["last_in_cycle"]
        lat_desc = bench.desc_valid_cycles[0] - t0
        lat_data = bench.first_data_cycle[0] - t0
        worst = max(worst, lat_data)
        dut._log.info(f"idle latency ({len(op['ctrl'])}+{len(op['data'])} bytes): desc {lat_desc}, data {lat_data}")
    assert spilled > 0, "no op whose tail spilled past its data beats"
    expected = int(os.environ.get("TB_EXPECT_LATENCY", "0"))
    dut._log.info(f"LATENCY {worst}")
    assert expected == 0 or worst <= expected, f"idle latency {worst} > {expected}"
    await bench.drain()
    bench.check_end()


@cocotb.test()
async def back_to_back(dut):
    """Backlog built with the outputs blocked, then drained with no backpressure: data beats per
    cycle while PDUs are waiting must be 1.0."""
    bench, rng = await setup(dut)
    bench.bp = 0.0
    bench.hold_out = True
    qs = [(d, v) for d in range(min(XPUS, 4)) for v in range(VCS)]
    for i in range(N_OPS):
        d, v = qs[i % len(qs)]
        bench.queue_op(make_op(rng, d, v, abort_ok=False))
    for _ in range(300):  # fill the buffer (the input stalls once it is full)
        await bench.step()
    # static backlog: no new ops while measuring (an op in progress, stalled for cells, ends)
    bench.no_input = True
    for _ in range(20):
        await bench.step()
    bench.hold_out = False
    start = bench.cycle
    fires0 = bench.data_fires
    util_cycles = 0
    util_fires = 0
    # measure while at least 3 PDUs worth of ops are still waiting
    while bench.pending() > len(qs) and util_cycles < 20000:
        f = bench.data_fires
        await bench.step()
        util_cycles += 1
        util_fires += bench.data_fires - f
    util = util_fires / max(util_cycles, 1)
    dut._log.info(f"UTILIZATION {util:.4f} over {util_cycles} cycles")
    bench.no_input = False
    await bench.drain()
    bench.check_end()
    assert util_cycles > 20
    assert util >= float(os.environ.get("TB_EXPECT_UTIL", "1.0")), f"utilization {util:.4f}"


@cocotb.test()
async def hol_and_pause(dut):
    """Dest 0's window closed: others keep flowing, dest 0 emits nothing; reopened: all out.
    Then VC pause likewise for VC (VCS-1)."""
    bench, rng = await setup(dut)
    dut.win_valid.value = 1
    dut.win_dest.value = 0
    dut.win_open.value = 0
    await RisingEdge(dut.clk)
    dut.win_valid.value = 0
    for i in range(N_OPS):
        d = 0 if i % 2 == 0 else rng.randrange(1, XPUS)
        bench.queue_op(make_op(rng, d, rng.randrange(VCS), abort_ok=False, data_len=rng.randint(0, 64)))
    for _ in range(30000):
        if not bench.beats and bench.next_beat is None and all(
                not q for (d, v), q in bench.expected.items() if d != 0):
            break
        await bench.step()
    assert all(p[0] != 0 for p in bench.pdus), "closed destination emitted a PDU"
    others = [q for (d, v), q in bench.expected.items() if d != 0 and q]
    assert not others, "other destinations blocked by a closed one"
    assert sum(len(q) for (d, v), q in bench.expected.items() if d == 0) > 0
    n_before = len(bench.pdus)
    dut.win_valid.value = 1
    dut.win_open.value = 1
    await bench.step()
    dut.win_valid.value = 0
    await bench.drain()
    assert any(p[0] == 0 for p in bench.pdus[n_before:])
    if VCS > 1:
        pv = VCS - 1
        dut.vc_pause.value = 1 << pv
        for i in range(60):
            bench.queue_op(make_op(rng, rng.randrange(XPUS), rng.randrange(VCS), abort_ok=False))
        n_before = len(bench.pdus)
        for _ in range(3000):
            await bench.step()
        assert all(p[1] != pv for p in bench.pdus[n_before:]), "paused VC emitted"
        assert all(not q for (d, v), q in bench.expected.items() if v != pv), "unpaused VCs blocked"
        dut.vc_pause.value = 0
        await bench.drain()
    bench.check_end()


@cocotb.test()
async def dest_limit(dut):
    """DEST_LIMIT below the buffer: destination 0's window is closed, so its PDUs stay and its
    ops are refused once it holds DEST_LIMIT - K cells (dropped whole, counted in
    cnt_dest_limit, credits returned at once) while destination 1 keeps flowing; when the window
    opens, every op that was not refused leaves, in order. (DEST_LIMIT = cells, in every other
    test, refuses nothing: check_end compares cnt_dest_limit with the ops missing.)"""
    bench, rng = await setup(dut)
    limit = CELLS // 4
    for addr, val in ((0x0201, 0), (0x0201, CELLS + 1), (0x0201, limit)):  # two illegal, then the limit
        dut.cfg_valid.value = 1
        dut.cfg_addr.value = addr
        dut.cfg_data.value = val
        await RisingEdge(dut.clk)
    dut.cfg_valid.value = 0
    dut.win_valid.value = 1
    dut.win_dest.value = 0
    dut.win_open.value = 0
    await RisingEdge(dut.clk)
    dut.win_valid.value = 0
    assert int(dut.cnt_bad_cfg.value) == 4
    bench.refusable = {0}
    for i in range(N_OPS):
        bench.queue_op(make_op(rng, i % 2, rng.randrange(VCS), abort_ok=False))
    for _ in range(40000):
        if not bench.beats and bench.next_beat is None and not any(
                q for (d, v), q in bench.expected.items() if d == 1):
            break
        await bench.step(idle=IDLE)
    assert not any(q for (d, v), q in bench.expected.items() if d == 1), "destination 1 blocked"
    assert all(p[0] == 1 for p in bench.pdus), "the closed destination emitted a PDU"
    refused = int(dut.cnt_dest_limit.value)
    assert refused > 0, f"no op refused with destination 0 over DEST_LIMIT = {limit} cells"
    dut.win_valid.value = 1
    dut.win_open.value = 1
    await bench.step()
    dut.win_valid.value = 0
    quiet = 0
    while quiet < 200:  # until nothing more comes out: the refused ops never will
        fires = bench.data_fires
        await bench.step()
        quiet = 0 if bench.data_fires != fires or bench.pdu_data or bench.cur else quiet + 1
    bench.refused += sum(len(q) for (d, v), q in bench.expected.items() if d == 0)  # refused at the tail
    for q in bench.expected.values():
        q.clear()
    for _ in range(40):  # let the credit accumulators empty
        await bench.step()
    bench.check_end()
    dut._log.info(f"DEST_LIMIT {limit}: {refused} ops refused of {bench.committed}, {len(bench.pdus)} PDUs")
