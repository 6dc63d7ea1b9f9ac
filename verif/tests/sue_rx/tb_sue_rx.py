# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for the whole receive path (top ``sue_rx``: RxFrameParser -> RxReliability ->
RxDeliver): bad input of every kind is dropped and counted, valid traffic flows afterwards.

Set-up through ``cfg_*``: random own MAC/IP/xpuid, UDP port, AFH prefix, PARTITION table, RX_FCS,
RX_MAX_PDU, a random command table, ACK_EVERY/ACK_DELAY/NACK_RETRY, EXPECTED_PSN per source
(near the 16-bit wrap). ``mac_rx_0`` is driven by a cocotbext-axi source with random idle (its
``tready`` honoured), ``ctl``
taken with random back-pressure, and a Python XPU (``common.xpu_rx.XpuRx``) returns credits at a
random rate on ``rx_*`` and checks every beat it receives.

Phases (one simulation, one build):
1. fuzz: TB_FUZZ frames (default 10,000), each random bytes or a valid SUE frame (scapy + zlib,
   ARCHITECTURE.md §5) mutated in exactly one way (``FUZZ_KINDS``). Every one must be dropped:
   nothing reaches ``rx_*``. Frames that survive the parser carry an unexpected PSN (dup/gap) or,
   for the op-level mutations rebuilt with a correct R-CRC, the expected PSN so that they are
   stored and dropped by the op walk (bad_op), or a VC >= vcs (bad_vc).
2. nobuf: after ``rx_reset_in`` (SUE drops its credits), one VC gets no credits; PDUs fill its
   ring exactly, the next PDU is dropped as nobuf (no PSN advance, no ACK), the other VCs keep
   flowing; then credits return, everything drains and the PDU is resent and delivered.
3. valid: TB_GOOD PDUs of 1..6 ops from several sources and VCs, in-sequence PSNs across the
   16-bit wrap (EXPECTED_PSN rewritten), plus empty PDUs (pure ACK/NACK): every op delivered once,
   byte-identical, in order per VC (so per {source, VC}) with the right xpuid/rx_vc; ``mac_rx_0``
   never stalls (line rate: no control frames, no back-pressure).
4. mixed: TB_MIX frames, bad and good interleaved: the good ones are all delivered.

Oracle: ``rx_path_model.RxPathModel`` (the documented rules of the three blocks in plain Python)
predicts every counter exactly (checked after each phase), every control frame (bytes, err),
every ``peer_ack`` (in order) and the ops on ``rx_*``; every ``ack_req`` ACK must name a PSN the
source's expected PSN - 1 took (never going back), every NACK an expected PSN seen at a gap, and
once quiet the last ACK of every source is the cumulative one (expected - 1). Waits are bounded.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import cocotb

from common.rx_model import REASONS
from common.mac_axis import FrameSink, MacSource
from common.stream_bfm import ClockedBench, start_clock_and_reset
from common.sue_ops import CommandTable, random_op
from common.sue_rx_stimulus import Gen, random_rx_config, write_cfg, write_rx_config
from common.xpu_rx import XpuRx
from rx_path_model import DELIVER_COUNTERS, M16, PARSER_COUNTERS, REL_COUNTERS, RxPathModel

ENCAP = int(os.environ.get("TB_ENCAP", "0"))
VLAN = os.environ.get("TB_VLAN", "0") == "1"
FCS = os.environ.get("TB_FCS", "0") == "1"
XPUS = int(os.environ.get("TB_XPUS", "16"))
VCS = int(os.environ.get("TB_VCS", "4"))
BUF = int(os.environ.get("TB_BUF", "16384"))
SEED = int(os.environ.get("TB_SEED", "1"))
N_FUZZ = int(os.environ.get("TB_FUZZ", "10000"))
N_GOOD = int(os.environ.get("TB_GOOD", "300"))
N_MIX = int(os.environ.get("TB_MIX", "600"))
IDLE = float(os.environ.get("TB_IDLE", "0.15"))
BP = float(os.environ.get("TB_BP", "0.2"))
RATE = float(os.environ.get("TB_CREDIT_RATE", "0.5"))
K, T, R = 4, 64, 3000
CMD_BASE = 0x0100

PARSER_KINDS = ["trunc", "over", "ethertype", "da", "rcrc", "mac_err", "ver", "op", "part", "src", "flip", "flips",
                "foreign", "tiny"]
PARSER_KINDS += ["fcs"] if FCS else []
PARSER_KINDS += ["ip_len", "udp_port", "ip_ver"] if ENCAP in (0, 1) else []
PARSER_KINDS += ["ip_csum", "frag"] if ENCAP == 0 else []
PARSER_KINDS += ["shim"] if ENCAP == 3 else []
PARSER_KINDS += ["afh_v"] if ENCAP >= 4 else []
OWN_KINDS = ["psn", "past_end", "bad_type", "garbage_ops", "random_sue", "short"] + (["bad_vc"] if VCS < 4 else [])
FUZZ_KINDS = PARSER_KINDS + OWN_KINDS
# outcomes the fuzz phase must have produced (proves each drop path was exercised)
MUST_SEE = ["ctl:ctl"] + [f"parser:{r}" for r in REASONS if r != "fcs" or FCS] + \
    ["rel:dup", "rel:gap", "deliver:bad_op"] + (["deliver:bad_vc"] if VCS < 4 else [])
if ENCAP != 0:  # only IPv4 has a header checksum
    MUST_SEE.remove("parser:csum")
if ENCAP not in (0, 1):  # only IP has length fields
    MUST_SEE.remove("parser:len")
if ENCAP == 2:  # AFH Gen 1 without shim has no version field
    MUST_SEE.remove("parser:hdr")


class FrameGen(Gen):
    """Frames for this bench: the parser bench's valid/mutated frames plus op-level ones."""

    def __init__(self, cfg, rng, model, table: CommandTable):
        super().__init__(cfg, rng)
        self.model, self.table = model, table
        self.invalid_types = [t for t in range(1, 256) if t not in table.entries]
        self.psn_for = self.wrong_psn

    def wrong_psn(self, src):
        return (self.model.exp[src] + self.rng.randint(1, M16)) & M16

    def ops_len(self):  # shorter random op regions than the parser bench (simulation time)
        r = self.rng.random()
        if r < 0.15:
            return 0
        if r < 0.85:
            return self.rng.randint(1, 120)
        if r < 0.98:
            return self.rng.randint(120, 900)
        return self.rng.randint(self.cfg.max_pdu - 100, self.cfg.max_pdu)

    def good_ops(self, n: int) -> list[bytes]:
        r = self.rng
        out = []
        for _ in range(n):
            dl = r.choice([None, r.randint(1, 48), r.randint(1, 48), r.choice([1, 2, 255, 256])])
            out.append(random_op(r, self.table, 0, 0, data_len=dl).wire_bytes())
        return out

    def rh(self, expected: bool, vc=None, src=None):
        r = self.rng
        src = r.randrange(self.cfg.num_xpus) if src is None else src
        psn = self.model.exp[src] if expected else self.wrong_psn(src)
        return dict(ver=0, op=r.randrange(3), xpuid=src, psn=psn, vc=r.randrange(VCS) if vc is None else vc,
                    partition=self.cfg.partition[src], rpsn=r.getrandbits(16))

    def own(self, kind: str) -> tuple[bytes, int]:
        r = self.rng
        expected = r.random() < 0.7
        ops = self.good_ops(r.randint(1, 5))
        if kind == "psn":
            return self.valid(ops=b"".join(ops), rh=self.rh(False)), 0
        if kind == "past_end":  # the region ends inside its last op (no padding may complete it)
            start = sum(map(len, ops[:-1]))
            region = b"".join(ops)[:start + r.randint(1, len(ops[-1]) - 1)]
            return self.valid(ops=region, rh=self.rh(expected), min_frame=0), 0
        if kind == "bad_type":
            k = r.randrange(len(ops))
            ops[k] = bytes([r.choice(self.invalid_types)]) + ops[k][1:]
            return self.valid(ops=b"".join(ops), rh=self.rh(expected)), 0
        if kind == "garbage_ops":
            garbage = bytes([r.choice(self.invalid_types)]) + bytes(r.getrandbits(8) for _ in range(r.randint(0, 40)))
            k = r.randint(0, len(ops))
            return self.valid(ops=b"".join(ops[:k]) + garbage + b"".join(ops[k:]), rh=self.rh(expected)), 0
        if kind == "random_sue":  # our network header, then random bytes (RH, ops, R-CRC; a correct FCS)
            fr = self.valid()
            return self.refcs(fr[:self.hb] + bytes(r.getrandbits(8) for _ in range(r.randint(0, 200)))), 0
        if kind == "short":  # our network header, no room for RH + R-CRC (a correct FCS: trunc, not fcs)
            fr = self.valid()
            return self.refcs(fr[:self.hb + r.randint(0, 11)]), 0
        if kind == "bad_vc":
            return self.valid(ops=b"".join(ops), rh=self.rh(True, vc=r.randrange(VCS, 4))), 0
        raise ValueError(kind)

    def fuzz(self, kind: str) -> tuple[bytes, int]:
        if kind in OWN_KINDS:
            return self.own(kind)
        fr, err, k = self.mutated(kind)
        assert k == kind, (k, kind)
        return fr, err

    def good(self, src: int, vc: int | None = None, n_ops: int | None = None, pad: int = 0, empty=False):
        r = self.rng
        rh = self.rh(True, vc=vc, src=src)
        if empty:
            rh["op"] = r.randrange(2)
            return self.valid(ops=b"", rh=rh), 0
        region = b"".join(self.good_ops(r.randint(1, 6) if n_ops is None else n_ops))
        region += bytes(pad if pad else (r.randint(1, 20) if r.random() < 0.15 else 0))
        return self.valid(ops=region, rh=rh, min_frame=r.choice([64, 0])), 0


class Feeder:
    """Hands frames to the MAC source one at a time, just before it runs dry (so frames can be back
    to back). A frame is made when it is its turn (its PSN depends on the model's state then), its
    outcome predicted and committed to the model; a frame that would be stored waits until the
    model is certain whether it fits (``fits`` is the XPU's timing, not the bench's to guess)."""

    def __init__(self, src: MacSource, model: RxPathModel, bpb: int, rng: random.Random):
        self.src, self.model, self.bpb, self.rng = src, model, bpb, rng
        self.items = []
        self.pending = None
        self.waits = 0
        self.log = []  # (kind, outcome)

    def push(self, make, kind: str, must_drop=False, fits=None):
        self.items.append((make, kind, must_drop, fits))

    @property
    def done(self):
        return not self.items and self.pending is None and self.src.idle_now

    def drive(self):
        if self.src.waiting:
            return
        if self.pending is None:
            if not self.items:
                return
            make, kind, must_drop, want_fits = self.items.pop(0)
            frame, err = make()
            out, question = self.model.predict(frame, int(err))
            assert not (must_drop and out.stage == "delivered"), \
                f"bench error: fuzz frame of kind {kind} would be delivered ({out.label})"
            self.pending = (frame, int(err), kind, out, question, want_fits)
        frame, err, kind, out, question, want_fits = self.pending
        fits = None
        if question is not None:
            fits = self.model.fits_certain(*question)
            if want_fits is False:
                assert fits is not True, f"{kind}: the PDU would fit (VC {question[0]}), the nobuf test is void"
            if fits is None or fits != (True if want_fits is None else want_fits):
                self.waits += 1  # wait until the answer is certain (and, unless a drop is wanted, room)
                return
        self.model.commit(frame, out, fits, -(-len(frame) // self.bpb))
        self.log.append((kind, out))
        self.src.send(frame, err)
        self.pending = None

    def sample(self):
        self.model.now += 1


class AckMonitor:
    """Checks ``ack_req`` against the model's PSN history and collects ``peer_ack``."""

    def __init__(self, dut, model: RxPathModel):
        self.dut, self.m = dut, model
        self.acks = self.nacks = 0
        self.last_ack = {}
        self.peer = []
        self.reset_out_seen = 0

    def forget(self, d):
        self.last_ack.pop(d, None)

    def drive(self):
        pass

    def sample(self):
        d = self.dut
        if int(d.rx_reset_out.value):
            self.reset_out_seen += 1
        if int(d.peer_ack_valid.value):
            self.peer.append((int(d.peer_ack_peer.value), int(d.peer_ack_op.value), int(d.peer_ack_rpsn.value)))
        if not int(d.ack_req_valid.value):
            return
        dest, op, rpsn = int(d.ack_req_dest.value), int(d.ack_req_op.value), int(d.ack_req_rpsn.value)
        assert dest < XPUS, f"ack_req for unknown source {dest}"
        if op == 0:
            self.acks += 1
            assert rpsn in self.m.ack_values[dest], (
                f"ACK({dest}, {rpsn:#06x}) names a PSN source {dest} never had as expected-1 "
                f"(expected now {self.m.exp[dest]:#06x})")
            last = self.last_ack.get(dest)
            assert last is None or (rpsn - last) & M16 < 0x8000, f"ACK({dest}) went back from {last:#06x} to {rpsn:#06x}"
            self.last_ack[dest] = rpsn
        else:
            self.nacks += 1
            assert rpsn in self.m.nack_values[dest], (
                f"NACK({dest}, {rpsn:#06x}) without a gap at that expected PSN ({sorted(self.m.nack_values[dest])})")


def read_counters(dut):
    got = {}
    rel = REL_COUNTERS + ("ack_sent", "nack_sent", "req_deferred")  # the last three: timing, checked against ack_req
    for block, names in (("rx_parser", PARSER_COUNTERS), ("rx_rel", rel), ("rx_deliver", DELIVER_COUNTERS)):
        got[block] = {n: int(getattr(dut, f"cnt_{block}_{n}").value) for n in names}
    return got


class Bench:
    def __init__(self, dut, rng):
        self.dut, self.rng = dut, rng

    async def setup(self):
        dut, rng = self.dut, self.rng
        self.bpb = bpb = len(dut.mac_rx_0_tdata) // 8
        dut.cfg_valid.value = 0
        dut.rx_credit.value = 0
        dut.rx_reset_in.value = 0
        await start_clock_and_reset(dut)
        cfg = random_rx_config(rng, ENCAP, VLAN, XPUS, FCS, bpb)
        await write_rx_config(dut, cfg)
        self.cfg = cfg
        await write_cfg(dut, 0x0310, K)
        await write_cfg(dut, 0x0311, T)
        await write_cfg(dut, 0x0312, R)
        table = CommandTable.random(rng, n_data=6, n_cmd=4)
        for t in table.entries:
            await write_cfg(dut, CMD_BASE + t, table.cfg_word(t))
        self.model = m = RxPathModel(cfg, XPUS, VCS, BUF, bpb, table.entries)
        for d in range(XPUS):
            psn = (M16 - rng.randrange(40)) if rng.random() < 0.7 else rng.getrandbits(16)
            await write_cfg(dut, 0x4000 | d << 4 | 8, psn)
            m.set_expected(d, psn)
        self.gen = FrameGen(cfg, rng, m, table)
        self.bench = b = ClockedBench(dut.clk)
        self.src = MacSource(b, dut, "mac_rx_0", rng, bpb, idle=IDLE)
        self.feed = b.add(Feeder(self.src, m, bpb, rng))
        b.add(self.src)
        self.csink = b.add(FrameSink(b, dut, "ctl", bpb, backpressure=BP, rng=rng))
        self.xpu = b.add(XpuRx(dut, rng, bpb, m, vcs=VCS, init_cmd=24, init_data=64, rate=RATE))
        self.mon = b.add(AckMonitor(dut, m))
        dut._log.info(f"sue_rx: {bpb * 8} bits, encap {ENCAP}{' +vlan' if VLAN else ''}, fcs {FCS}, {XPUS} XPUs, "
                      f"{VCS} VCs, {BUF} B buffer ({m.ring_words} words/VC), max_pdu {cfg.max_pdu}, "
                      f"{len(table.entries)} command types")

    async def quiet(self, what, timeout=400_000):
        """Everything sent, every expected op delivered, every buffer word certainly free, then T +
        margin cycles so that timed ACKs are out; then checks counters, ctl, peer_ack, ACKs."""
        m = self.model
        await self.bench.run_until(lambda: self.feed.done and m.idle() and self.xpu.cur is None, timeout=timeout,
                                   what=f"{what}: all frames in, all ops out (hang?)")
        await self.bench.run(T + 200)
        assert m.idle() and self.xpu.cur is None
        self.check(what)

    def check(self, what):
        m, dut = self.model, self.dut
        got = read_counters(dut)
        exp = {"rx_parser": m.parser, "rx_rel": {**m.rel}, "rx_deliver": m.deliver}
        for block in got:
            for n, v in exp[block].items():
                assert got[block][n] == v, f"{what}: cnt_{block}_{n} = {got[block][n]}, model {v}\n got {got}\n exp {exp}"
        p, r, d = got["rx_parser"], got["rx_rel"], got["rx_deliver"]
        # the accounting identities of the issue, on the RTL's own counters
        assert p["frames"] == p["pass"] + p["ctl"] + sum(p[x] for x in REASONS), f"{what}: parser accounting {p}"
        assert p["pass"] == r["accepted"] + r["dup"] + r["gap"] + r["nobuf"] + r["empty"] + r["unknown"], \
            f"{what}: parser pass {p['pass']} != reliability outcomes {r}"
        assert r["accepted"] + r["nobuf"] == d["stored"] + d["nobuf"] + d["bad_vc"], f"{what}: accepted PDUs {r} vs {d}"
        assert d["stored"] == d["bad_op"] + d["pdus"], f"{what}: stored {d}"
        assert r["ack_sent"] == self.mon.acks and r["nack_sent"] == self.mon.nacks, \
            f"{what}: ack/nack counters {r['ack_sent']}/{r['nack_sent']}, seen {self.mon.acks}/{self.mon.nacks}"
        got_ctl = [(f.data, f.user) for f in self.csink.frames]
        assert len(got_ctl) == len(m.ctl), f"{what}: {len(got_ctl)} control frames, expected {len(m.ctl)}"
        for i, (g, x) in enumerate(zip(got_ctl, m.ctl)):
            assert g == x, f"{what}: control frame {i}: got {g[0].hex()} err {g[1]}, expected {x[0].hex()} err {x[1]}"
        assert self.mon.peer == m.peer_acks, f"{what}: peer_ack {self.mon.peer[:8]}... != expected {m.peer_acks[:8]}..."
        for src in range(XPUS):
            if m.accepted_since_set[src]:
                want = (m.exp[src] - 1) & M16
                assert self.mon.last_ack.get(src) == want, \
                    f"{what}: source {src}: last ACK {self.mon.last_ack.get(src)}, cumulative ACK should name {want:#06x}"
        dut._log.info(f"{what}: counters {got}; ack_req {self.mon.acks} ACK / {self.mon.nacks} NACK, "
                      f"{len(self.mon.peer)} peer_ack, {self.xpu.beats_out} rx beats, waits {self.feed.waits}, "
                      f"cycle {m.now}")
        return got

    async def set_expected(self, srcs, psns):
        for d, psn in zip(srcs, psns):
            await write_cfg(self.dut, 0x4000 | d << 4 | 8, psn)
            self.model.set_expected(d, psn)
            self.mon.forget(d)
        await self.bench.run(4)


@cocotb.test()
async def fuzz_then_valid(dut):
    rng = random.Random(SEED)
    tb = Bench(dut, rng)
    await tb.setup()
    m, gen, feed = tb.model, tb.gen, tb.feed

    # ---- phase 1: fuzz
    kinds = [FUZZ_KINDS[i % len(FUZZ_KINDS)] for i in range(N_FUZZ)]
    rng.shuffle(kinds)
    for k in kinds:
        feed.push(lambda k=k: gen.fuzz(k), k, must_drop=True)
    await tb.quiet("phase 1 (fuzz)", timeout=60 * N_FUZZ + 100_000)
    fuzz_cycles = m.now
    assert tb.xpu.beats_out == 0, f"{tb.xpu.beats_out} rx beats during the fuzz phase"
    tally = {}
    for kind, out in feed.log:
        tally.setdefault(kind, Counter())[out.label] += 1
    labels = Counter(out.label for _, out in feed.log)
    for kind in FUZZ_KINDS:
        dut._log.info(f"  fuzz {kind:12s} {sum(tally[kind].values()):5d}: {dict(tally[kind])}")
        assert sum(tally.get(kind, {}).values()) > 0, f"fuzz kind {kind} never sent"
    dut._log.info(f"fuzz outcomes: {dict(labels)}")
    for lab in MUST_SEE:
        assert labels[lab] > 0, f"fuzz phase never produced outcome {lab}: {dict(labels)}"
    assert len(feed.log) == N_FUZZ

    # ---- phase 2: nobuf on a VC without credits (exact), other VCs flowing
    v = VCS - 1
    tb.xpu.credits.rate = 0.0
    await tb.bench.run(4)
    dut.rx_reset_in.value = 1  # SUE drops the credits it holds
    await tb.bench.run(3)
    dut.rx_reset_in.value = 0
    await tb.bench.run(3)
    assert tb.mon.reset_out_seen > 0, "rx_reset_out never 1 after rx_reset_in"
    tb.xpu.credits.reclaim()
    tb.xpu.credits.stalled.add(v)
    tb.xpu.credits.rate = RATE
    src = rng.randrange(XPUS)
    fill = [m.ring_words // 4] * 4  # words per PDU: the ring exactly full
    for words in fill:
        feed.push(lambda w=words: fill_pdu(gen, src, v, w, tb.bpb), "fill", fits=True)
    feed.push(lambda: gen.good(src, vc=v, n_ops=1), "nobuf", fits=False)
    for _ in range(20):
        feed.push(lambda: gen.good(rng.choice([s for s in range(XPUS) if s != src]), vc=rng.randrange(v) if v else 0),
                  "other_vc")
    await tb.bench.run_until(lambda: feed.done and not any(m.expect[x] for x in range(VCS) if x != v), timeout=200_000,
                             what="other VCs while one VC has no credits")
    nobuf = [o for k, o in feed.log if k == "nobuf"]
    assert nobuf and nobuf[0].label == "deliver:nobuf", nobuf
    assert len(m.expect[v]) > 0
    tb.xpu.credits.stalled.discard(v)
    await tb.quiet("phase 2 (nobuf)")
    # the dropped PDU's PSN was not consumed: the same PSN is now accepted
    feed.push(lambda: gen.good(src, vc=v, n_ops=2), "resend")
    await tb.quiet("phase 2 (resend)")
    assert feed.log[-1][1].label == "delivered:ops" and m.deliver["nobuf"] == 1 and m.rel["nobuf"] >= 1

    # ---- phase 3: valid traffic, PSNs across the wrap, line rate
    srcs = rng.sample(range(XPUS), min(6, XPUS))
    await tb.set_expected(srcs, [M16 - rng.randrange(0, 20) for _ in srcs])
    ops_before = m.deliver["ops"]
    tb.src.idle, tb.csink.backpressure = 0.0, 0.0
    stalls = [0]
    t0 = m.now
    probe_ready = Probe(lambda: stalls.__setitem__(0, stalls[0] + (int(dut.mac_rx_0_tvalid.value)
                                                                   and not int(dut.mac_rx_0_tready.value))))
    tb.bench.add(probe_ready)
    for i in range(N_GOOD):
        s = rng.choice(srcs)
        feed.push(lambda s=s, e=(i % 25 == 7): gen.good(s, empty=e), "good")
    await tb.quiet("phase 3 (valid)")
    tb.bench.agents.remove(probe_ready)
    n_ops = m.deliver["ops"] - ops_before
    assert stalls[0] == 0, f"mac_rx_0_tready low {stalls[0]} times with valid traffic and no back-pressure"
    wrapped = [s for s in srcs if m.exp[s] < 0x8000]
    dut._log.info(f"phase 3: {N_GOOD} PDUs, {n_ops} ops delivered in {m.now - t0} cycles; "
                  f"sources {srcs} now expect {[hex(m.exp[s]) for s in srcs]}")
    if N_GOOD >= 200:
        assert len(wrapped) == len(srcs), f"every source's PSN should have wrapped: {[hex(m.exp[s]) for s in srcs]}"

    # ---- latency on an idle path (credits held): last MAC beat accepted -> first rx_* beat of the op
    lats = {}
    for name, dp, dl in (("command", 0, None), ("data64", 1, 64)):
        for _ in range(6):
            s = rng.choice(srcs)
            feed.push(lambda s=s, dp=dp, dl=dl: one_op_pdu(gen, s, dp, dl), "latency")
            n_out = tb.xpu.beats_out
            await tb.bench.run_until(lambda: tb.xpu.beats_out > n_out, timeout=2000, what="latency PDU out")
            lats.setdefault(name, []).append(tb.xpu.last_out - (tb.src.frame_end_cycles[-1] + 1))
            await tb.bench.run(30)
    await tb.quiet("latency")
    dut._log.info(f"latency last MAC beat -> first rx beat (cycles): {lats}")
    with open("sue_rx_figures.txt", "w") as fh:
        fh.write(f"latency_command {min(lats['command'])} {max(lats['command'])}\n"
                 f"latency_data64 {min(lats['data64'])} {max(lats['data64'])}\n"
                 f"fuzz_frames {N_FUZZ}\nfuzz_cycles {fuzz_cycles}\n")
        for kind in FUZZ_KINDS:
            fh.write(f"kind {kind} {dict(tally[kind])}\n")
        fh.write(f"counters {read_counters(dut)}\n")

    # ---- phase 4: bad and good interleaved
    tb.src.idle, tb.csink.backpressure = IDLE, BP
    goods = 0
    for i in range(N_MIX):
        if rng.random() < 0.5:
            k = rng.choice(FUZZ_KINDS)
            feed.push(lambda k=k: gen.fuzz(k), k, must_drop=True)
        else:
            goods += 1
            s = rng.choice(srcs)
            feed.push(lambda s=s: gen.good(s), "good")
    n0 = len(feed.log)
    await tb.quiet("phase 4 (mixed)")
    mixed = Counter(o.label for _, o in feed.log[n0:])
    dut._log.info(f"phase 4: {N_MIX} frames, {goods} good: {dict(mixed)}")
    assert mixed["delivered:ops"] == goods


def fill_pdu(gen: FrameGen, src: int, vc: int, words: int, bpb: int):
    """A well-formed PDU whose op region is exactly ``words`` buffer words (ops, then PAD)."""
    size = words * bpb
    ops = b""
    while True:
        op = gen.good_ops(1)[0]
        if len(ops) + len(op) > size:
            break
        ops += op
    region = ops + bytes(size - len(ops))
    if not ops:
        region = b"\x00" * size
    return gen.valid(ops=region, rh=gen.rh(True, vc=vc, src=src), min_frame=0), 0


def one_op_pdu(gen: FrameGen, src: int, data_present: int, data_len):
    op = random_op(gen.rng, gen.table, 0, 0, data_len=data_len, data_present=data_present).wire_bytes()
    return gen.valid(ops=op, rh=gen.rh(True, vc=0, src=src), min_frame=0), 0


class Probe:
    def __init__(self, fn):
        self.fn = fn

    def drive(self):
        pass

    def sample(self):
        self.fn()
