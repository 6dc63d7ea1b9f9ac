# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for the SUE RX frame parser (top ``sue_rx_parser``, RxFrameParser.java).

Random configuration (own MAC/IP/xpuid, UDP port, AFH prefix, partition table, RX_FCS,
RX_MAX_PDU) written through the cfg port; frames built by ``common.sue_frame_builder`` (scapy +
zlib), valid ones and mutated ones (truncated, oversized, wrong EtherType/DA/UDP port/IP
fields/checksum/lengths, bad R-CRC, bad FCS, MAC err, bad version, reserved op, wrong
partition, unknown source, random bit flips, foreign frames), driven with random idle; both
outputs with random back-pressure. The MAC side is cocotbext-axi: an ``AxiStreamSource`` with a
pause generator into ``s_t*`` (``common.mac_axis.MacSource``: junk past ``tkeep``, a random
``tuser`` on beats before the last) and an ``AxiStreamSink`` with a pause generator on ``ctl_t*``
(``FrameSink``, which also checks the stream rules and the ``tkeep`` shape). The PDU output ``m``
carries a descriptor beside every beat, not an AXI4-Stream: ``common.stream_bfm.StreamSink``
takes it. Oracle: ``common.rx_model.classify`` (the documented rules in plain Python) predicts
every delivered PDU (descriptor, bytes, commit), every control frame (bytes, err) and every
counter.
"""

from __future__ import annotations

import os
import random

import cocotb

from common.mac_axis import FrameSink, MacSource
from common.rx_model import REASONS, RxConfig, classify
from common.stream_bfm import ClockedBench, StreamSink, start_clock_and_reset
from common.sue_rx_stimulus import Gen, random_rx_config, write_rx_config

ENCAP = int(os.environ.get("TB_ENCAP", "0"))
VLAN = os.environ.get("TB_VLAN", "0") == "1"
NUM_XPUS = int(os.environ.get("TB_NUMXPUS", "16"))
FCS = os.environ.get("TB_FCS", "0") == "1"
N_FRAMES = int(os.environ.get("TB_FRAMES", "1500"))
IDLE = float(os.environ.get("TB_IDLE", "0.2"))
BP = float(os.environ.get("TB_BP", "0.3"))
SEED = int(os.environ.get("TB_SEED", "1"))
MAX_LAT = int(os.environ.get("TB_MAX_LAT", "4"))
# frames whose last beat comes at least two beats after the one with the RH's last byte (the info
# record is then ready) and whose op region's tail needs no output beat of its own: the CRC
# checks' latency and as many elastic registers (DESIGN-RX.md, "Timing")
MAX_LAT_LONG = int(os.environ.get("TB_MAX_LAT_LONG", "3"))

M_FIELDS = ("src", "vc", "psn", "op", "rpsn", "partition", "length", "data", "keep", "last", "commit")
COUNTERS = ("frames", "pass", "ctl") + REASONS



async def configure(dut, rng, bb) -> RxConfig:
    cfg = random_rx_config(rng, ENCAP, VLAN, NUM_XPUS, FCS, bb)
    await write_rx_config(dut, cfg)
    return cfg


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


class InputBeats:
    """A ``ClockedBench`` agent: the bench cycle of every beat ``s`` takes (``s_tvalid && s_tready``)."""

    def __init__(self, dut):
        self.valid, self.ready = dut.s_tvalid, dut.s_tready
        self.cycles: list[int] = []
        self.cycle = 0

    def drive(self) -> None:
        pass

    def sample(self) -> None:
        if int(self.valid.value) and int(self.ready.value):
            self.cycles.append(self.cycle)
        self.cycle += 1


async def setup(dut, rng, idle, bp):
    await start_clock_and_reset(dut)
    bb = len(dut.s_tdata) // 8
    cfg = await configure(dut, rng, bb)
    bench = ClockedBench(dut.clk)
    src = bench.add(MacSource(bench, dut, "s", rng, bb, idle=idle))
    beats_in = bench.add(InputBeats(dut))
    msink = bench.add(StreamSink(dut, "m", M_FIELDS, rng, backpressure=bp))
    csink = bench.add(FrameSink(bench, dut, "ctl", bb, backpressure=bp, rng=rng))
    return cfg, bb, bench, src, beats_in, msink, csink


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
    got_c = [(f.data, f.user) for f in csink.frames]
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
    cfg, bb, bench, src, _, msink, csink = await setup(dut, rng, IDLE, BP)
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
        src.send(fr, err)
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
    cfg, bb, bench, src, beats_in, msink, csink = await setup(dut, rng, 0.0, 0.0)
    gen = Gen(cfg, rng)
    frames = []
    for i in range(300):
        frames.append((gen.valid(ops_len=rng.randint(0, 3 * bb)), 0, "valid") if i % 3 else gen.mutated())
    nbeats = 0
    for fr, err, _ in frames:
        nbeats += -(-len(fr) // bb)
        src.send(fr, err)
    await bench.run_until(lambda: src.idle_now, timeout=200_000, what="burst sent")
    cycles = beats_in.cycles
    assert len(cycles) == nbeats, f"{len(cycles)} beats taken on s, {nbeats} sent"
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
        ns = src.sent_frames
        src.send(fr, 0)
        await bench.run_until(lambda: len(msink.beats) > nm and msink.beats[-1]["last"], timeout=200,
                              what="PDU out")
        assert src.sent_frames == ns + 1
        t_in = src.frame_end_cycles[-1]
        t_out = msink.cycles[-1]
        lat = t_out - t_in
        lats[n] = lat
        worst = max(worst, lat)
        o = gen.hb + 8
        end_beat = (o + n - 1) // bb  # the beat with the op region's last byte
        tail = end_beat > o // bb and o + n - end_beat * bb > o % bb  # the realigner's pending tail slot
        if (len(fr) - 1) // bb >= (o - 1) // bb + 2 and not tail:  # last beat 2+ beats after the RH's
            assert lat <= MAX_LAT_LONG, f"ops length {n}: latency {lat} > {MAX_LAT_LONG} (last beat 2+ beats after the RH)"
        assert msink.beats[-1]["commit"] == 1
        await bench.run(10)
    dut._log.info(f"latency last beat in -> last PDU beat out: worst {worst}, by ops length {lats}")
    assert worst <= MAX_LAT, f"latency {worst} > {MAX_LAT}"
    with open(os.environ.get("TB_LAT_FILE", "/dev/null"), "w") as fh:
        fh.write(f"{worst} {min(lats.values())} {thr}\n")
