# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for the whole SUE transmit path (top ``sue_tx``, SueTx.java).

A Python XPU (common.sue_ops.XpuTx) sends random ops on the tx_* credit interface (random
destinations, VCs, command table, data lengths 0..256, random idle); the MAC is a sink with
random back-pressure. Every frame on ``mac_tx`` is decoded with scapy and the SUE layers written
from ARCHITECTURE.md §5 (common.sue_frames), independently of the RTL, and checked:

* headers: addressed to the op's destination (DA / AFH dst xpuid / IP), own source, RH ver 0,
  xpuid = own, VC, partition from the destination's table, IPv4 checksum, lengths;
* R-CRC and (when SUE appends it) FCS equal ``zlib.crc32``; frames padded to MIN_FRAME;
* ops: walked with the command table (common.sue_ops.walk_ops); every accepted op appears
  exactly once, byte-identical, in order per {destination, VC}, in a frame to its destination;
  no PDU is longer than PACK_LIMIT;
* PSNs consecutive per destination from the configured NEXT_PSN, across the 16-bit wrap;
* ACK information from ``ack_req`` carried at most once per request, never older than a request
  already carried.

* empty PDUs (no ops) carry ACK information and the destination's next PSN without consuming it.

The transmit path is reliable (go-back-N): a peer model (common.peer_ack.FrameAcker) acknowledges
every data PDU on the MAC after a random delay, so PDUs are freed and windows stay open; RTO is set
high enough that nothing is retransmitted here (sue_tx_reliability tests loss and recovery).

Scenarios (TB_SCENARIO): ``random`` (the above), ``latency`` (idle system: cycles from the op's
acceptance to its frame's first beat; one op at a time), ``packing`` (MAC stalled while ops queue:
frames must carry several ops), ``hol`` (one peer stops acknowledging: at most WINDOW PDUs leave
for it, the others keep the MAC busy; when it acknowledges again the rest drains), ``saturate`` (back-to-back load of
equal ops for the benchmarks: MAC-side utilisation while a backlog exists and wire efficiency).
Results for the benchmarks go to TB_RESULTS (JSON) when set.
"""

from __future__ import annotations

import ipaddress
import json
import os
import random
from collections import defaultdict, deque

import cocotb
from cocotb.triggers import RisingEdge

from common import sue_frames
from common.peer_ack import FrameAcker, PeerAckDriver
from common.mac_axis import FrameSink, MacFrame
from common.stream_bfm import ClockedBench, start_clock_and_reset
from common.sue_ops import HEADER_BYTES, CommandTable, XpuTx, frame_wire_bytes, random_op, walk_ops

SCENARIO = os.environ.get("TB_SCENARIO", "random")
ENCAP = int(os.environ.get("TB_ENCAP", "0"))
VLAN = os.environ.get("TB_VLAN", "0") == "1"
FCS = os.environ.get("TB_FCS", "0") == "1"
MIN_FRAME = int(os.environ.get("TB_MIN_FRAME", "64"))
PACK_LIMIT = int(os.environ.get("TB_PACK_LIMIT", "2048"))
PSN_START = int(os.environ.get("TB_PSN_START", "65530"))
N_OPS = int(os.environ.get("TB_OPS", "400"))
IDLE = float(os.environ.get("TB_IDLE", "0.3"))
BACKPRESSURE = float(os.environ.get("TB_BACKPRESSURE", "0.3"))
DATA_LEN = int(os.environ.get("TB_DATA_LEN", "64"))
N_DESTS = int(os.environ.get("TB_DESTS", "0"))  # 0: every destination
PCAP = os.environ.get("TB_PCAP")
RESULTS = os.environ.get("TB_RESULTS")
CELLS = int(os.environ.get("TB_CELLS", "128"))

# Configuration address map (sue-rtl/README.md, DESIGN-TX.md "Contract").
OWN_MAC_LO, OWN_MAC_HI, OWN_XPUID, UDP_DST_PORT = 0x0, 0x1, 0x2, 0x3
OWN_IP = 0x8
CMD_TYPE = 0x100
PACK_LIMIT_REG, MIN_FRAME_REG, FCS_REG = 0x200, 0x210, 0x211
WINDOW_REG, RTO_REG = 0x220, 0x221
HOL_WINDOW = 4
TABLE = 0x4000
T_MAC_LO, T_MAC_HI, T_PARTITION, T_NEXT_PSN, T_IP = 0x0, 0x1, 0x2, 0x3, 0x4
AFH_PREFIX = 0x02000000  # AFH_DA_PREFIX / AFH_SA_PREFIX reset value


class Setup:
    """The configuration the bench writes, and what it implies for every frame."""

    def __init__(self, rng: random.Random, xpus: int):
        self.xpus = xpus
        self.own_xpuid = rng.randrange(xpus)
        self.own_mac = 0x02_00_5E_00_00_00 | rng.getrandbits(16)
        self.table = CommandTable.random(rng)
        self.dst_mac = {d: 0x02_10_00_00_00_00 | d << 8 | rng.getrandbits(8) for d in range(xpus)}
        ip_bits = 128 if ENCAP == 1 else 32
        self.own_ip = rng.getrandbits(ip_bits) | 1
        self.dst_ip = {d: rng.getrandbits(ip_bits - 12) << 12 | d for d in range(xpus)}
        self.partition = {d: rng.getrandbits(10) for d in range(xpus)}
        self.next_psn = {d: (PSN_START + rng.randrange(8)) & 0xFFFF for d in range(xpus)}

    def writes(self) -> list[tuple[int, int]]:
        w = [(OWN_MAC_LO, self.own_mac & 0xFFFFFFFF), (OWN_MAC_HI, self.own_mac >> 32),
             (OWN_XPUID, self.own_xpuid)]
        w += [(OWN_IP + i, self.own_ip >> 32 * i & 0xFFFFFFFF) for i in range(4 if ENCAP == 1 else 1)]
        w += [(PACK_LIMIT_REG, PACK_LIMIT), (MIN_FRAME_REG, MIN_FRAME), (FCS_REG, int(FCS)), (RTO_REG, 1 << 22)]
        if SCENARIO == "hol":
            w.append((WINDOW_REG, HOL_WINDOW))
        w += [(CMD_TYPE + t, self.table.cfg_word(t)) for t in self.table.entries]
        for d in range(self.xpus):
            base = TABLE | d << 4
            w += [(base | T_MAC_LO, self.dst_mac[d] & 0xFFFFFFFF), (base | T_MAC_HI, self.dst_mac[d] >> 32),
                  (base | T_PARTITION, self.partition[d]), (base | T_NEXT_PSN, self.next_psn[d])]
            w += [(base | (T_IP + i), self.dst_ip[d] >> 32 * i & 0xFFFFFFFF) for i in range(4 if ENCAP == 1 else 1)]
        return w

    def dest_of(self, f) -> int:
        """The destination a decoded frame is addressed to, from its addresses alone; checks the
        source addresses and the header's VC field on the way."""
        net = f.net
        if ENCAP in (0, 1, 2, 3):
            da, sa = mac_int(net["dst"]), mac_int(net["src"])
        if ENCAP in (0, 1):
            matches = [d for d, m in self.dst_mac.items() if m == da]
            assert len(matches) == 1, f"DA {net['dst']} is no destination's MAC"
            d = matches[0]
            assert sa == self.own_mac, f"SA {net['src']} is not the own MAC {self.own_mac:#014x}"
            ip_dst = int(ipaddress.ip_address(net["ip_dst"]))
            ip_src = int(ipaddress.ip_address(net["ip_src"]))
            assert ip_dst == self.dst_ip[d], f"IP DA {net['ip_dst']} is not dest {d}'s {self.dst_ip[d]:#x}"
            assert ip_src == self.own_ip, f"IP SA {net['ip_src']} is not the own IP {self.own_ip:#x}"
            assert net["dport"] == 50000, f"UDP destination port {net['dport']}"
            return d
        if ENCAP in (2, 3):
            assert da >> 16 == AFH_PREFIX and sa >> 16 == AFH_PREFIX, f"AFH1 prefixes: DA {net['dst']} SA {net['src']}"
            assert sa & 0xFFFF == self.own_xpuid, f"AFH1 SA xpuid {sa & 0xFFFF} is not {self.own_xpuid}"
            return da & 0xFFFF
        assert net["src_xpuid"] == self.own_xpuid, f"AFH2 src xpuid {net['src_xpuid']} is not {self.own_xpuid}"
        assert net["vc"] == f.rh.vc, f"AFH2 key VC {net['vc']} != RH VC {f.rh.vc}"
        return net["dst_xpuid"]


def mac_int(s: str) -> int:
    return int(s.replace(":", ""), 16)


class Mac(FrameSink):
    """The MAC: takes frames from the AXI4-Stream ``mac_tx_0`` (cocotbext-axi sink, random
    back-pressure); notes each frame's first-beat cycle and the cycles it offered ``tready``."""

    def __init__(self, bench, dut, rng, backpressure, width_bytes):
        super().__init__(bench, dut, "mac_tx_0", width_bytes, backpressure, rng, self._take)
        self.tvalid, self.tready = dut.mac_tx_0_tvalid, dut.mac_tx_0_tready
        self.frames: list[bytes] = []
        self.first_cycle: list[int] = []
        self.last_beat_cycle = None
        self.valid_cycles = 0  # cycles with mac_tx_0_tvalid (for utilisation)
        self.ready_cycles: list[int] = []  # cycles in which the MAC offered tready
        self.cycle = 0

    def _take(self, f: MacFrame) -> None:
        assert f.user == 0, "mac_tx_0_tuser (abort) set on a frame"
        self.frames.append(f.data)
        self.first_cycle.append(f.first_cycle)
        self.last_beat_cycle = f.last_cycle

    def sample(self) -> None:
        if int(self.tready.value):
            self.ready_cycles.append(self.cycle)
        if int(self.tvalid.value):
            self.valid_cycles += 1
        self.cycle += 1
        super().sample()


class CfgPort:
    """Configuration writes, one per cycle; a write is taken when cfg_valid && cfg_ready."""

    def __init__(self, dut):
        self.dut = dut
        self.queue: deque[tuple[int, int]] = deque()
        self.cur = None
        dut.cfg_valid.value = 0

    def drive(self):
        if self.cur is None and self.queue:
            self.cur = self.queue.popleft()
        if self.cur is not None:
            a, v = self.cur
            self.dut.cfg_valid.value, self.dut.cfg_addr.value, self.dut.cfg_data.value = 1, a, v
        else:
            self.dut.cfg_valid.value = 0

    def sample(self):
        if self.cur is not None and int(self.dut.cfg_ready.value):
            self.cur = None

    @property
    def busy(self):
        return self.cur is not None or bool(self.queue)


class Pulses:
    """Drives a Flow (valid + fields) from a queue, one item per cycle."""

    def __init__(self, dut, prefix, fields):
        self.dut, self.prefix, self.fields = dut, prefix, fields
        self.queue: deque[dict] = deque()
        self.sent: list[tuple[int, dict]] = []
        self.cycle = 0
        getattr(dut, f"{prefix}_valid").value = 0

    def drive(self):
        v = getattr(self.dut, f"{self.prefix}_valid")
        if self.queue:
            item = self.queue.popleft()
            for f in self.fields:
                getattr(self.dut, f"{self.prefix}_{f}").value = item[f]
            v.value = 1
            self.sent.append((self.cycle, item))
        else:
            v.value = 0

    def sample(self):
        self.cycle += 1


class Checker:
    """Decodes and checks every frame; matches ops against what the XPU had accepted."""

    def __init__(self, setup: Setup, xpu: XpuTx, acks: Pulses):
        self.s, self.xpu, self.acks = setup, xpu, acks
        self.expect: dict[tuple[int, int], deque] = defaultdict(deque)
        self.taken = 0
        self.psn = dict(setup.next_psn)
        self.ops_out = 0
        self.pdus: list[dict] = []
        self.ack_seen: dict[int, int] = {}  # dest -> index (in acks.sent) of the newest request carried
        self.empties = 0

    def _refresh(self):
        while self.taken < len(self.xpu.accepted):
            op = self.xpu.accepted[self.taken]
            self.expect[(op.dest, op.vc)].append(op)
            self.taken += 1

    def check(self, raw: bytes, first_cycle: int) -> dict:
        self._refresh()
        try:
            f = sue_frames.decode(raw, ENCAP, VLAN, FCS)
        except sue_frames.SueFrameError as e:
            raise AssertionError(f"frame {len(self.pdus)} ({len(raw)} bytes) does not decode: {e}\n{raw.hex()}")
        s = self.s
        assert f.rcrc_ok, "R-CRC does not match zlib.crc32"
        if FCS:
            assert f.fcs_ok, "FCS does not match zlib.crc32"
        on_wire = len(raw) + (0 if FCS else 4)
        assert on_wire >= MIN_FRAME, f"frame of {on_wire} bytes (with FCS) below MIN_FRAME {MIN_FRAME}"
        d = s.dest_of(f)
        rh = f.rh
        assert rh.ver == 0 and rh.xpuid == s.own_xpuid, f"RH ver {rh.ver} xpuid {rh.xpuid} (own {s.own_xpuid})"
        assert rh.partition == s.partition[d], f"partition {rh.partition} != table {s.partition[d]} of dest {d}"
        assert rh.op in (0, 1, 2), f"RH op {rh.op}"
        ops = walk_ops(f.payload, s.table)
        if not ops:  # an empty PDU: ACK information only, the next PSN not consumed
            assert rh.op in (0, 1), f"dest {d}: an empty PDU without ACK information"
            assert rh.psn == self.psn[d], f"dest {d}: empty PDU PSN {rh.psn:#06x}, expected {self.psn[d]:#06x}"
            self._check_ack(d, rh)
            self.empties += 1
            rec = {"dest": d, "vc": rh.vc, "ops": 0, "pdu": 0, "frame": on_wire, "first_cycle": first_cycle,
                   "accepted": []}
            self.pdus.append(rec)
            return rec
        pdu_len = sum(len(o) for o in ops)
        assert pdu_len <= PACK_LIMIT, f"PDU of {pdu_len} bytes over PACK_LIMIT {PACK_LIMIT}"
        if on_wire > MIN_FRAME:
            assert len(f.payload) == pdu_len, f"{len(f.payload) - pdu_len} padding bytes in a frame above the minimum"
        assert rh.psn == self.psn[d], f"dest {d}: PSN {rh.psn:#06x}, expected {self.psn[d]:#06x}"
        self.psn[d] = (self.psn[d] + 1) & 0xFFFF
        q = self.expect[(d, rh.vc)]
        accepted = []
        for o in ops:
            assert q, f"an op to ({d}, vc {rh.vc}) that the XPU never sent (or sent twice): {o.hex()}"
            want = q.popleft()
            assert o == want.wire_bytes(), (f"({d}, vc {rh.vc}) op #{want.seq}: got {o.hex()}, "
                                            f"expected {want.wire_bytes().hex()}")
            accepted.append((want.accepted_cycle, want.last_beat_cycle))
        if rh.op != 2:
            self._check_ack(d, rh)
        self.ops_out += len(ops)
        rec = {"dest": d, "vc": rh.vc, "ops": len(ops), "pdu": pdu_len, "frame": on_wire,
               "first_cycle": first_cycle, "accepted": accepted}
        self.pdus.append(rec)
        return rec

    def _check_ack(self, d, rh):
        reqs = [(i, c, a) for i, (c, a) in enumerate(self.acks.sent) if a["dest"] == d
                and a["op"] == rh.op and a["rpsn"] == rh.rpsn and i > self.ack_seen.get(d, -1)]
        assert reqs, f"dest {d}: ACK info op {rh.op} rpsn {rh.rpsn:#x} never requested, or carried twice"
        self.ack_seen[d] = reqs[-1][0]

    def consume(self, mac: Mac) -> None:
        while len(self.pdus) < len(mac.frames):
            self.check(mac.frames[len(self.pdus)], mac.first_cycle[len(self.pdus)])

    def leftovers(self) -> list:
        self._refresh()
        return [(k, len(q)) for k, q in self.expect.items() if q]


async def start(dut, seed: int):
    rng = random.Random(seed)
    width_bytes = len(dut.mac_tx_0_tdata) // 8
    xpus = int(os.environ["TB_XPUS"])
    vcs = int(os.environ["TB_VCS"])
    setup = Setup(rng, xpus)
    bench = ClockedBench(dut.clk)
    cfg = bench.add(CfgPort(dut))
    xpu = XpuTx(dut, rng, len(dut.tx_data) // 8, idle=IDLE)
    xpu.paused = True
    bench.add(xpu)
    mac = bench.add(Mac(bench, dut, rng, BACKPRESSURE, width_bytes))
    acks = bench.add(Pulses(dut, "ack_req", ["dest", "op", "rpsn"]))
    peer = bench.add(PeerAckDriver(dut))
    win = bench.add(FrameAcker(peer, mac, random.Random(seed + 99), setup.dest_of, ENCAP, VLAN, FCS))
    dut.vc_pause.value = 0
    dut.conn_state_dest.value = 0
    await start_clock_and_reset(dut)
    cfg.queue.extend(setup.writes())
    await bench.run_until(lambda: not cfg.busy, 100_000, "configuration")
    await bench.run(8)
    xpu.paused = False
    return rng, setup, bench, xpu, mac, acks, win, vcs


def dests_for(setup: Setup) -> list[int]:
    return list(range(N_DESTS or setup.xpus))


async def drain(bench, xpu, mac, checker, what):
    def done():
        checker.consume(mac)
        return xpu.idle_now and not checker.leftovers()
    try:
        await bench.run_until(done, 400_000, what)
    except AssertionError:
        d = xpu.dut
        raise AssertionError(
            f"{what}: stuck with {len(xpu.accepted)} ops accepted, {checker.ops_out} on the wire in "
            f"{len(mac.frames)} frames, XPU credits {xpu.credits}, interface ok {int(d.cnt_tx_xpu_ok.value)} "
            f"no_credit {int(d.cnt_tx_xpu_no_credit.value)} overflow {int(d.cnt_tx_xpu_overflow.value)}, qm pdus "
            f"{int(d.cnt_tx_qm_pdus.value)} ops {int(d.cnt_tx_qm_ops.value)} bad_dest {int(d.cnt_tx_qm_bad_dest.value)}, "
            f"framer frames {int(d.cnt_tx_framer_frames.value)} drops {int(d.cnt_tx_framer_drops.value)}; left {checker.leftovers()[:8]}")


def write_pcap(frames):
    if PCAP:
        from scapy.layers.l2 import Ether
        from scapy.utils import wrpcap
        wrpcap(PCAP, [Ether(fr) for fr in frames])


def write_results(rec: dict):
    if RESULTS:
        with open(RESULTS, "w") as fh:
            json.dump(rec, fh, indent=1)


@cocotb.test()
async def run(dut):
    seed = int(os.environ.get("TB_SEED", cocotb.RANDOM_SEED))
    rng, setup, bench, xpu, mac, acks, win, vcs = await start(dut, seed)
    checker = Checker(setup, xpu, acks)
    dests = dests_for(setup)
    seq = defaultdict(int)

    def op(dest, vc, **kw):
        o = random_op(rng, setup.table, dest, vc, **kw)
        o.seq = seq[(dest, vc)]
        seq[(dest, vc)] += 1
        return o

    if SCENARIO == "random":
        for _ in range(N_OPS):
            xpu.submit(op(rng.choice(dests), rng.randrange(vcs)))
        ack_rng = random.Random(seed + 7)
        ack_on = [True]

        def ack_maybe():
            if ack_on[0] and ack_rng.random() < 0.05:
                acks.queue.append({"dest": ack_rng.choice(dests), "op": ack_rng.getrandbits(1),
                                   "rpsn": ack_rng.getrandbits(16)})
        bench.add(type("AckSource", (), {"drive": staticmethod(ack_maybe), "sample": staticmethod(lambda: None)})())
        await drain(bench, xpu, mac, checker, "random traffic")
        assert checker.ops_out == N_OPS, f"{checker.ops_out} ops on the wire, {N_OPS} sent"
        ack_on[0] = False
        await bench.run_until(lambda: not win.driver.busy and int(dut.free_cells.value) == CELLS, 20_000,
                              "every cell freed after the last ACK")
        assert int(dut.cnt_tx_rel_retx.value) == 0, "a retransmission although the peer acknowledged everything"
        await bench.run(400)  # the last empty PDUs for ACK information requested before the stop
        checker.consume(mac)
        wrapped = [d for d in dests if checker.psn[d] < setup.next_psn[d]]
        dut._log.info(f"{N_OPS} ops in {len(checker.pdus)} frames ({checker.empties} empty), PSN wrapped for "
                      f"{len(wrapped)} dests, max ops/frame {max(r['ops'] for r in checker.pdus)}, "
                      f"{len(acks.sent)} ack requests")
        assert int(dut.cnt_tx_rel_empty.value) == checker.empties
        write_pcap(mac.frames)
    elif SCENARIO == "latency":
        mac.backpressure = 0.0
        xpu.idle = 0.0
        # An op is accepted when its last beat is taken: tx_err on any beat poisons it, so no byte
        # of it may reach the wire before then. From the first beat is reported beside it.
        lat, lat_first, by_len = [], [], defaultdict(int)
        for i in range(N_OPS):
            # Every data length class: command only, one beat, several beats, the 256-byte maximum.
            n = [0, 1, DATA_LEN, 256, xpu.bpb, xpu.bpb + 2][i % 6]
            xpu.submit(op(rng.choice(dests), rng.randrange(vcs), data_len=n or None, data_present=int(n > 0)))
            await drain(bench, xpu, mac, checker, "one op on an idle system")
            await bench.run(30)
            r = checker.pdus[-1]
            assert r["ops"] == 1
            first, last = r["accepted"][0]
            lat.append(r["first_cycle"] - last)
            lat_first.append(r["first_cycle"] - first)
            by_len[n] = max(by_len[n], lat[-1])
        dut._log.info(f"idle latency, op's last beat accepted -> first MAC beat: min {min(lat)} max {max(lat)} "
                      f"cycles; from its first beat: min {min(lat_first)} max {max(lat_first)}; worst by data "
                      f"length {dict(sorted(by_len.items()))}")
        write_results({"latency_min": min(lat), "latency_max": max(lat), "samples": len(lat),
                       "latency_from_first_beat_max": max(lat_first),
                       "latency_max_by_data_len": {str(k): v for k, v in sorted(by_len.items())}})
        bound = int(os.environ["TB_LATENCY_BOUND"])
        assert max(lat) <= bound, f"idle latency {max(lat)} cycles > {bound}"
    elif SCENARIO == "packing":
        mac.backpressure = 0.0
        mac.paused = True
        xpu.idle = 0.0
        d, vc = dests[0], 0
        for _ in range(N_OPS):
            xpu.submit(op(d, vc, data_len=DATA_LEN))
        # until the XPU runs out of credits for its next op (the buffer holds what the credits cover)
        await bench.run_until(lambda: xpu.idle_now or (not xpu.beats and not xpu._startable(xpu.queues[vc][0])),
                              50_000, "ops queued behind a stalled MAC")
        await bench.run(20)
        queued = len(xpu.accepted)  # ops waiting behind the stalled MAC
        mac.paused = False
        await drain(bench, xpu, mac, checker, "packing")
        multi = [r for r in checker.pdus if r["ops"] > 1]
        dut._log.info(f"{N_OPS} ops in {len(checker.pdus)} frames; ops per frame {[r['ops'] for r in checker.pdus][:20]}")
        assert multi, "no frame carried more than one op although the MAC was stalled"
        frames, ops = 0, 0
        for r in checker.pdus:
            if ops >= queued:
                break
            frames, ops = frames + 1, ops + r["ops"]
        assert queued >= 4 and frames <= queued / 2, f"{queued} queued ops left in {frames} frames: too little packing"
    elif SCENARIO == "hol":
        mac.backpressure = 0.0
        xpu.idle = 0.0
        blocked = dests[0]
        win.muted.add(blocked)
        # The blocked destination gets a few ops on VC 0 only: the XPU's credits are per VC, so ops
        # waiting for a closed window must not hold every credit of a VC the others use.
        for i in range(N_OPS):
            if i % 8 == 0 and i < 32:
                xpu.submit(op(blocked, 0, data_len=DATA_LEN))
            else:
                xpu.submit(op(rng.choice(dests[1:]), rng.randrange(vcs), data_len=DATA_LEN))
        others = N_OPS // 2
        others = sum(1 for o in xpu.queues for x in o if x.dest != blocked)

        def others_done():
            checker.consume(mac)
            return sum(r["ops"] for r in checker.pdus if r["dest"] != blocked) >= others
        await bench.run_until(others_done, 200_000, "traffic to the open destinations")
        to_blocked = [r for r in checker.pdus if r["dest"] == blocked and r["ops"]]
        # the window bounds what leaves for the silent peer (plus PDUs already in the reader's pipeline)
        assert len(to_blocked) <= HOL_WINDOW + 8, f"{len(to_blocked)} PDUs left for a peer that does not acknowledge"
        win.unmute(blocked)
        await drain(bench, xpu, mac, checker, "the reopened destination")
        assert checker.ops_out == N_OPS
    elif SCENARIO == "saturate":
        # The link must be the bottleneck so that a backlog exists: the XPU interface carries at
        # most one op per cycle (64 bytes + control), less than a 1024-bit MAC takes. A MAC that is
        # ready in a fraction TB_MAC_READY of the cycles (a slower port on the same bus) makes it
        # so at every width. Utilisation = beats sent / cycles the MAC was ready, from the first
        # to the last beat.
        mac.backpressure = 1.0 - float(os.environ.get("TB_MAC_READY", "1.0"))
        xpu.idle = 0.0
        # One command type for every op, so that every op has the same size on the wire (the
        # ideal packing bound is computed for that size).
        write_type = setup.table.types(1)[0]
        for i in range(N_OPS):
            xpu.submit(op(dests[i % len(dests)], i % vcs, data_len=DATA_LEN, cmd_type=write_type))
        await drain(bench, xpu, mac, checker, "saturating load")
        assert len({len(o.wire_bytes()) for o in xpu.accepted}) == 1
        first = checker.pdus[0]["first_cycle"]
        span = mac.last_beat_cycle - first + 1
        offered = sum(1 for c in mac.ready_cycles if first <= c <= mac.last_beat_cycle)
        util = mac.beats_out / offered
        data = sum(len(o.data) for o in xpu.accepted)
        hdr = HEADER_BYTES[ENCAP][int(VLAN)]
        wire = sum(frame_wire_bytes(hdr, r["pdu"], MIN_FRAME) for r in checker.pdus)
        # ops the XPU interface accepted per cycle, first op to last (the input side's rate)
        op_span = xpu.accepted[-1].last_beat_cycle - xpu.accepted[0].accepted_cycle + 1
        write_results({"utilization": util, "span": span, "valid_cycles": mac.valid_cycles, "ready_cycles": offered,
                       "op_rate": len(xpu.accepted) / op_span,
                       "frames": len(checker.pdus), "ops": checker.ops_out, "data_bytes": data,
                       "wire_bytes": wire, "op_bytes": xpu.accepted[0].wire_bytes().__len__(),
                       "header_bytes": hdr})
        dut._log.info(f"utilisation {util:.4f} over {span} cycles, {len(checker.pdus)} frames")
    else:
        raise AssertionError(f"unknown TB_SCENARIO {SCENARIO}")
    await RisingEdge(dut.clk)
