"""cocotb bench for the SUE RX frame parser (top ``sue_rx_parser``, RxFrameParser.java).

Random configuration (own MAC/IP/xpuid, UDP port, AFH prefix, partition table, RX_FCS,
RX_MAX_PDU) written through the cfg port; frames built by ``common.sue_frame_builder`` (scapy +
zlib), valid ones and mutated ones (truncated, oversized, wrong EtherType/DA/UDP port/IP
fields/checksum/lengths, bad R-CRC, bad FCS, MAC err, bad version, reserved op, wrong
partition, unknown source, random bit flips, foreign frames), driven with random idle; both
outputs with random back-pressure. Oracle: ``rx_model.classify`` (the documented rules in plain
Python) predicts every delivered PDU (descriptor, bytes, commit), every control frame (bytes,
err) and every counter.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.triggers import RisingEdge

from common.stream_bfm import ClockedBench, StreamSink, StreamSource, start_clock_and_reset
from common.sue_frame_builder import Peer, build, header_bytes
from rx_model import REASONS, RxConfig, classify

ENCAP = int(os.environ.get("TB_ENCAP", "0"))
VLAN = os.environ.get("TB_VLAN", "0") == "1"
NUM_XPUS = int(os.environ.get("TB_NUMXPUS", "16"))
FCS = os.environ.get("TB_FCS", "0") == "1"
N_FRAMES = int(os.environ.get("TB_FRAMES", "1500"))
IDLE = float(os.environ.get("TB_IDLE", "0.2"))
BP = float(os.environ.get("TB_BP", "0.3"))
SEED = int(os.environ.get("TB_SEED", "1"))
MAX_LAT = int(os.environ.get("TB_MAX_LAT", "5"))

IN_FIELDS = ("data", "keep", "last", "err")
M_FIELDS = ("src", "vc", "psn", "op", "rpsn", "partition", "length", "data", "keep", "last", "commit")
COUNTERS = ("frames", "pass", "ctl") + REASONS
MUTATIONS = ("trunc", "over", "ethertype", "da", "ip_csum", "ip_len", "udp_port", "rcrc", "fcs", "mac_err", "ver",
             "op", "part", "src", "flip", "flips", "foreign", "tiny", "ip_ver", "frag", "shim", "afh_v")


async def write_cfg(dut, addr, data):
    dut.cfg_valid.value = 1
    dut.cfg_addr.value = addr
    dut.cfg_data.value = data & 0xFFFFFFFF
    await RisingEdge(dut.clk)
    dut.cfg_valid.value = 0


async def configure(dut, rng, bb) -> RxConfig:
    cfg = RxConfig(ENCAP, VLAN, NUM_XPUS, beat_bytes=bb)
    cfg.own_mac = rng.getrandbits(48) & ~(1 << 40)  # unicast
    cfg.own_xpuid = rng.getrandbits(32)
    if ENCAP == 0:
        cfg.own_ip = rng.getrandbits(32)
    elif ENCAP == 1:
        cfg.own_ip = rng.getrandbits(128)
    cfg.udp_port = rng.choice([50000, rng.getrandbits(16)])
    cfg.da_prefix = rng.choice([0x02000000, rng.getrandbits(32)])
    cfg.partition = [rng.getrandbits(10) for _ in range(NUM_XPUS)]
    cfg.fcs = FCS
    cfg.max_pdu = rng.choice([4096, 4096, rng.randint(600, 4095), 5000])
    dut.cfg_valid.value = 0
    await write_cfg(dut, 0x0000, cfg.own_mac)
    await write_cfg(dut, 0x0001, cfg.own_mac >> 32)
    await write_cfg(dut, 0x0002, cfg.own_xpuid)
    await write_cfg(dut, 0x0003, cfg.udp_port)
    await write_cfg(dut, 0x0004, cfg.da_prefix)
    for w in range(4):
        await write_cfg(dut, 0x0008 + w, cfg.own_ip >> (32 * w))
    for d in range(NUM_XPUS):
        await write_cfg(dut, 0x4000 | d << 4 | 2, cfg.partition[d])
    await write_cfg(dut, 0x0300, int(FCS))
    await write_cfg(dut, 0x0301, cfg.max_pdu)
    cfg.max_pdu = min(cfg.max_pdu, 4096)
    return cfg


class Gen:
    def __init__(self, cfg: RxConfig, rng: random.Random):
        self.cfg, self.rng = cfg, rng
        self.me = Peer(mac=cfg.own_mac, ip=cfg.own_ip, xpuid=cfg.own_xpuid, prefix=cfg.da_prefix)
        self.hb = header_bytes(cfg.encap, cfg.vlan)

    def ops_len(self):
        r = self.rng.random()
        if r < 0.15:
            return 0
        if r < 0.6:
            return self.rng.randint(1, 200)
        if r < 0.95:
            return self.rng.randint(200, 1500)
        return self.rng.randint(self.cfg.max_pdu - 300, self.cfg.max_pdu)

    def valid(self, **over):
        rng, cfg = self.rng, self.cfg
        src = rng.randrange(cfg.num_xpus)
        rh = dict(ver=0, op=rng.randrange(3), xpuid=src, psn=rng.getrandbits(16), vc=rng.randrange(4),
                  partition=cfg.partition[src], rpsn=rng.getrandbits(16), rsv=rng.getrandbits(2),
                  rsvd=rng.getrandbits(4))
        rh.update(over.pop("rh", {}))
        n = over.pop("ops_len", None)
        n = self.ops_len() if n is None else n
        ops = bytes(rng.getrandbits(8) for _ in range(n))
        peer = Peer(mac=rng.getrandbits(48), ip=rng.getrandbits(128 if cfg.encap == 1 else 32),
                    xpuid=rh["xpuid"] if rng.random() < 0.5 else rng.getrandbits(32), prefix=rng.getrandbits(32))
        args = dict(dst=self.me, src=peer, rh=rh, ops=ops, fcs=cfg.fcs, udp_dport=cfg.udp_port,
                    entropy=rng.getrandbits(16), vid=rng.getrandbits(12), pcp=rng.getrandbits(3),
                    dscp=rng.getrandbits(6), tc=rng.getrandbits(8), hop=rng.getrandbits(8),
                    min_frame=rng.choice([64, 64, 0]))
        args.update(over)
        return build(cfg.encap, cfg.vlan, **args)

    def refcs(self, body: bytes) -> bytes:
        import zlib
        return body + zlib.crc32(body).to_bytes(4, "little") if self.cfg.fcs else body

    def mutated(self):
        """(frame, err, mutation)."""
        rng, cfg = self.rng, self.cfg
        kind = rng.choice(MUTATIONS)
        f = 4 if cfg.fcs else 0
        fr = self.valid()
        body = bytearray(fr[:len(fr) - f])
        e = 18 if cfg.vlan else 14
        err = 0
        if kind == "trunc":
            return fr[:rng.randint(1, min(len(fr), self.hb + 16))], 0, kind
        if kind == "over":
            return self.valid(ops_len=cfg.max_pdu + rng.randint(1, 300)), 0, kind
        if kind == "ethertype":
            off = {0: e - 2, 1: e - 2, 2: e - 2, 3: e - 2, 4: 12, 5: 6}[cfg.encap]
            body[off + rng.randrange(2)] ^= 1 << rng.randrange(8)
        elif kind == "da":
            off = 2 if cfg.encap >= 4 else 0
            body[off + rng.randrange(4)] ^= 1 << rng.randrange(8)
        elif kind == "ip_csum" and cfg.encap == 0:
            body[e + 10 + rng.randrange(2)] ^= 1 << rng.randrange(8)
        elif kind == "ip_len" and cfg.encap in (0, 1):
            off = e + 2 if cfg.encap == 0 else e + 4
            body[off + 1] ^= 1 << rng.randrange(8)
        elif kind == "udp_port" and cfg.encap in (0, 1):
            body[e + (22 if cfg.encap == 0 else 42)] ^= 1 << rng.randrange(8)
        elif kind == "ip_ver" and cfg.encap in (0, 1):
            body[e] ^= 1 << rng.randrange(8)
        elif kind == "frag" and cfg.encap == 0:
            body[e + 6 + rng.randrange(2)] ^= 1 << rng.randrange(6)
        elif kind == "shim" and cfg.encap == 3:
            body[e] ^= 1 << rng.randrange(4, 8)
        elif kind == "afh_v" and cfg.encap >= 4:
            body[0] ^= 0x40
        elif kind == "rcrc":
            body[len(body) - 1 - rng.randrange(4)] ^= 1 << rng.randrange(8)
        elif kind == "fcs":
            out = bytearray(fr)
            out[-1 - rng.randrange(4)] ^= 1 << rng.randrange(8)
            return bytes(out), 0, kind
        elif kind == "mac_err":
            return fr, 1, kind
        elif kind == "ver":
            return self.valid(rh=dict(ver=rng.randint(1, 3))), 0, kind
        elif kind == "op":
            return self.valid(rh=dict(op=3)), 0, kind
        elif kind == "part":
            src = rng.randrange(cfg.num_xpus)
            return self.valid(rh=dict(xpuid=src, partition=cfg.partition[src] ^ (1 << rng.randrange(10)))), 0, kind
        elif kind == "src":
            if cfg.num_xpus == 1024:
                return self.valid(), 0, "none"
            return self.valid(rh=dict(xpuid=rng.randrange(cfg.num_xpus, 1024))), 0, kind
        elif kind == "flip":
            i = rng.randrange(len(fr))
            out = bytearray(fr)
            out[i] ^= 1 << rng.randrange(8)
            return bytes(out), 0, kind
        elif kind == "flips":
            for _ in range(rng.randint(1, 4)):
                body[rng.randrange(len(body))] ^= 1 << rng.randrange(8)
        elif kind == "foreign":
            return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 300))), rng.getrandbits(1), kind
        elif kind == "tiny":
            return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 9))), 0, kind
        return self.refcs(bytes(body)), err, kind


def beats_of(frame: bytes, err: int, bb: int, rng: random.Random):
    beats = []
    for off in range(0, len(frame), bb):
        chunk = frame[off:off + bb]
        last = off + bb >= len(frame)
        data = int.from_bytes(chunk, "little")
        if len(chunk) < bb:  # junk beyond keep
            data |= rng.getrandbits(8 * (bb - len(chunk))) << (8 * len(chunk))
        beats.append(dict(data=data, keep=(1 << len(chunk)) - 1, last=int(last),
                          err=err if last else rng.getrandbits(1)))
    return beats


def pdus_of(beats, bb):
    out, cur = [], []
    for b in beats:
        cur.append(b)
        if b["last"]:
            out.append(cur)
            cur = []
    assert not cur, f"{len(cur)} beats on m after the last PDU"
    res = []
    for p in pdus_of_check(out, bb):
        res.append(p)
    return res


def pdus_of_check(groups, bb):
    full = (1 << bb) - 1
    for g in groups:
        desc = {k: g[0][k] for k in ("src", "vc", "psn", "op", "rpsn", "partition")}
        data = bytearray()
        for i, b in enumerate(g):
            assert {k: b[k] for k in desc} == desc, f"descriptor changed inside a PDU: {desc} vs {b}"
            k = b["keep"]
            n = k.bit_length()
            assert k == (1 << n) - 1, f"keep {k:#x} not contiguous"
            if i < len(g) - 1:
                assert k == full, "partial keep on a beat that is not last"
            assert n > 0 or len(g) == 1, "empty beat in a multi-beat PDU"
            data += b["data"].to_bytes(bb, "little")[:n]
        yield desc, bytes(data), g[-1]["commit"], g[-1]["length"]


def frames_of(beats, bb):
    out, cur = [], bytearray()
    for b in beats:
        k = b["keep"]
        n = k.bit_length()
        assert k == (1 << n) - 1 and n > 0
        cur += b["data"].to_bytes(bb, "little")[:n]
        if b["last"]:
            out.append((bytes(cur), b["err"]))
            cur = bytearray()
    assert not cur
    return out


async def setup(dut, rng, idle, bp):
    await start_clock_and_reset(dut)
    bb = len(dut.s_data) // 8
    cfg = await configure(dut, rng, bb)
    bench = ClockedBench(dut.clk)
    src = bench.add(StreamSource(dut, "s", IN_FIELDS, rng, idle=idle))
    msink = bench.add(StreamSink(dut, "m", M_FIELDS, rng, backpressure=bp))
    csink = bench.add(StreamSink(dut, "ctl", IN_FIELDS, rng, backpressure=bp))
    return cfg, bb, bench, src, msink, csink


def check_all(dut, cfg, bb, frames, msink, csink):
    exp_m, exp_c = [], []
    counts = {c: 0 for c in COUNTERS}
    for fr, err, kind in frames:
        v = classify(cfg, fr, err)
        counts["frames"] += 1
        if v.kind == "ctl":
            counts["ctl"] += 1
            exp_c.append((fr, v.ctl_err))
        elif v.kind == "pass":
            counts["pass"] += 1
        else:
            counts[v.reason] += 1
        if v.out is not None:
            exp_m.append((v, fr, kind))
    got_m = list(pdus_of(msink.beats, bb))
    got_c = frames_of(csink.beats, bb)
    assert len(got_c) == len(exp_c), f"{len(got_c)} control frames, expected {len(exp_c)}"
    for i, (g, x) in enumerate(zip(got_c, exp_c)):
        assert g == x, f"control frame {i}: got {g[0].hex()} err {g[1]}, expected {x[0].hex()} err {x[1]}"
    assert len(got_m) == len(exp_m), f"{len(got_m)} PDUs on m, expected {len(exp_m)}"
    for i, (g, (v, fr, kind)) in enumerate(zip(got_m, exp_m)):
        desc, data, commit, length = g
        xdata, xcommit, xlen = v.out
        ctx = f"PDU {i} ({kind}, {v.kind}/{v.reason}, frame {len(fr)} B)"
        assert desc == v.desc, f"{ctx}: desc {desc} expected {v.desc}"
        assert commit == xcommit, f"{ctx}: commit {commit} expected {xcommit}"
        if xcommit:
            assert data == xdata, f"{ctx}: data differs:\n got {data.hex()}\n exp {xdata.hex()}"
            assert length == xlen, f"{ctx}: length {length} expected {xlen}"
        else:
            assert data == xdata, f"{ctx}: aborted data differs ({len(data)} vs {len(xdata)} B)"
    for c in COUNTERS:
        got = int(getattr(dut, f"cnt_{c}").value)
        assert got == counts[c], f"cnt_{c} = {got}, expected {counts[c]} (all: {counts})"
    total = counts["pass"] + counts["ctl"] + sum(counts[r] for r in REASONS)
    assert total == counts["frames"]
    return counts


@cocotb.test()
async def random_traffic(dut):
    rng = random.Random(SEED)
    cfg, bb, bench, src, msink, csink = await setup(dut, rng, IDLE, BP)
    gen = Gen(cfg, rng)
    frames = []
    for _ in range(N_FRAMES):
        if rng.random() < 0.45:
            frames.append((gen.valid(), 0, "valid"))
        else:
            frames.append(gen.mutated())
    for _ in range(2):  # 'last' missing for a long time: far beyond every limit and the 15-bit positions
        frames.insert(rng.randrange(len(frames)), (gen.valid(ops_len=rng.randint(34000, 40000)), 0, "giant"))
    for _ in range(30):  # valid traffic afterwards
        frames.append((gen.valid(), 0, "valid-after"))
    for fr, err, _ in frames:
        src.send_all(beats_of(fr, err, bb, rng))
    await bench.run_until(lambda: src.idle_now, timeout=2_000_000, what="all frames sent")
    await bench.run(60)
    counts = check_all(dut, cfg, bb, frames, msink, csink)
    dut._log.info(f"{len(frames)} frames: {counts}")
    assert counts["pass"] > 30


@cocotb.test()
async def latency_throughput(dut):
    """No idle, no back-pressure: back-to-back frames (valid, control and dropped mixed) are
    accepted at one beat per cycle; then frames one at a time: last MAC beat accepted -> last
    PDU beat on m (with commit) within TB_MAX_LAT cycles, for every end position in the beat."""
    rng = random.Random(SEED + 100)
    cfg, bb, bench, src, msink, csink = await setup(dut, rng, 0.0, 0.0)
    gen = Gen(cfg, rng)
    frames = []
    for i in range(300):
        frames.append((gen.valid(ops_len=rng.randint(0, 3 * bb)), 0, "valid") if i % 3 else gen.mutated())
    nbeats = 0
    for fr, err, _ in frames:
        b = beats_of(fr, err, bb, rng)
        nbeats += len(b)
        src.send_all(b)
    await bench.run_until(lambda: src.idle_now, timeout=200_000, what="burst sent")
    cycles = [c for c, _ in src.sent]
    span = cycles[-1] - cycles[0] + 1
    thr = nbeats / span
    dut._log.info(f"throughput: {nbeats} beats in {span} cycles = {thr:.4f}")
    assert thr == 1.0, f"input throughput {thr:.4f} on back-to-back frames (expected 1.0)"
    await bench.run(60)
    check_all(dut, cfg, bb, frames, msink, csink)
    # latency, one frame at a time, every op-region end offset in the beat
    worst = 0
    lats = {}
    for n in range(0, 2 * bb + 2):
        fr = gen.valid(ops_len=n, min_frame=0)
        nm = len(msink.beats)
        ns = len(src.sent)
        src.send_all(beats_of(fr, 0, bb, rng))
        await bench.run_until(lambda: len(msink.beats) > nm and msink.beats[-1]["last"], timeout=200,
                              what="PDU out")
        t_in = src.sent[-1][0]
        assert len(src.sent) > ns
        t_out = msink.cycles[-1]
        lat = t_out - t_in
        lats[n] = lat
        worst = max(worst, lat)
        assert msink.beats[-1]["commit"] == 1
        await bench.run(10)
    dut._log.info(f"latency last beat in -> last PDU beat out: worst {worst}, by ops length {lats}")
    assert worst <= MAX_LAT, f"latency {worst} > {MAX_LAT}"
    with open(os.environ.get("TB_LAT_FILE", "/dev/null"), "w") as fh:
        fh.write(f"{worst} {min(lats.values())} {thr}\n")
