# SPDX-License-Identifier: Apache-2.0
"""Two SUE endpoints with the AXI4 XPU interface back to back through a faulty link (top
``sue_endpoint`` with ``xpuIf=1``, as ``sue_endpoint_pair``).

Endpoint A (xpuid ``ID_A``) and B (``ID_B``): each ``s_axi`` is driven by cocotbext-axi's
``AxiMaster`` and each ``m_axi`` answered by an ``AxiRam``; every frame between the MACs passes
``common.link_model.LinkModel`` (loss, corruption, duplication per the environment). Workers on
both sides issue random writes and reads of 1..256 bytes at random addresses of the far RAM with
random IDs, many at once; each worker owns an address range, so its Python byte array is the
exact oracle. Checked: every write gets an OKAY B and every read returns what the oracle holds
(a lost request or response hangs the test: it fails on its timeout), the far RAMs equal the
oracles at the end, and the bridges' counters show each burst sent once and answered once
(a duplicated op would be issued twice on the far ``m_axi`` and answered twice).

Environment: TB_REGS_DIR (the design's directory: ``sue_endpoint_regs.py``), TB_OPS (per side), TB_SEED, TB_DROP, TB_CORRUPT, TB_DUP, TB_XPUS, TB_DEST_LSB,
TB_DEST_BITS, TB_WORKERS, TB_SCENARIO (traffic, bandwidth), TB_RESULTS.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.utils import get_sim_time
from cocotb.triggers import Timer, with_timeout
from cocotbext.axi import AxiBus, AxiMaster, AxiRam, AxiResp

from common.link_model import Faults, LinkModel
from common.mac_axis import MacSource
from common.stream_bfm import ClockedBench, CycleProbe, start_clock_and_reset
from common.sue_endpoint_bench import MacTxSink, RegPort, View, load_regs

N_OPS = int(os.environ.get("TB_OPS", "200"))
SEED = int(os.environ.get("TB_SEED", "1"))
XPUS = int(os.environ.get("TB_XPUS", "4"))
DEST_LSB = int(os.environ["TB_DEST_LSB"])
DEST_BITS = int(os.environ.get("TB_DEST_BITS", "2"))
WORKERS = int(os.environ.get("TB_WORKERS", "8"))
# "traffic": random writes and reads both ways; "bandwidth": A writes 256-byte aligned bursts to
# B only, MACs always ready, and the bench reports write bytes per cycle (TB_RESULTS, JSON)
SCENARIO = os.environ.get("TB_SCENARIO", "traffic")
RESULTS = os.environ.get("TB_RESULTS")
ID_A, ID_B = 1, 2
REGS = load_regs(os.environ["TB_REGS_DIR"])
OP_TIMEOUT_NS = 400_000  # one AXI transfer, retransmissions included; longer is a hang

# The AXI op types' command-table words (DESIGN-AXI.md "Setup": {data_present, units}).
AXI_TYPES = {0xA0: 1 << 4 | 9, 0xA1: 8, 0xA2: 3, 0xA3: 1 << 4 | 3}


def mac_of(x: int) -> int:
    return 0x02_00_5E_00_00_00 | x << 8 | 0x11


def setup_writes(own: int) -> list[tuple[int, int]]:
    """The configuration of one end, (byte address, word), by the generated register names."""
    c = REGS.cfg
    w = [(c.OWN_MAC_LO.address, mac_of(own) & 0xFFFFFFFF), (c.OWN_MAC_HI.address, mac_of(own) >> 32),
         (c.OWN_XPUID.address, own), (c.OWN_IP_0.address, 10 << 24 | own), (c.WINDOW.address, 32),
         (c.RTO.address, 3000), (c.RETRY_LIMIT.address, 100), (c.ACK_EVERY.address, 4), (c.ACK_DELAY.address, 64),
         (c.NACK_RETRY.address, 1500)]
    w += [(c.CMD_TYPE.at(t - 1), word) for t, word in AXI_TYPES.items()]
    for d in range(XPUS):
        lo, hi = min(own, d), max(own, d)
        w += [(c.DST_MAC_LO.at(d), mac_of(d) & 0xFFFFFFFF), (c.DST_MAC_HI.at(d), mac_of(d) >> 32),
              (c.PARTITION.at(d), (lo * 37 + hi * 101) & 0x3FF), (c.DST_IP_0.at(d), 10 << 24 | d)]
    return w


class Pair:
    """Both endpoints configured and running: AxiMaster on each s_axi, AxiRam on each m_axi, the
    MACs joined through the link model; ``runner`` steps the bench until cancelled."""

    def __init__(self, dut, rng: random.Random, mac_bp: float, mac_idle: float, faults: Faults):
        self.dut = dut
        self.wb = len(dut.a_s_axi_wdata) // 8
        self.max_beats = max(1, 256 // self.wb)
        self.links = {"ab": LinkModel(random.Random(SEED + 1), faults, latency=20),
                      "ba": LinkModel(random.Random(SEED + 2), faults, latency=20)}
        self.bench = bench = ClockedBench(dut.clk)
        self.cfg, mac_in = {}, {}
        for p in ("a_", "b_"):
            view = View(dut, p)
            self.cfg[p] = bench.add(RegPort(view, REGS))
            mac_in[p] = bench.add(MacSource(bench, dut, f"{p}mac_rx_0", rng, self.wb, idle=mac_idle))
            for name in ("vc_pause", "conn_state_dest"):
                getattr(dut, p + name).value = 0
        links = self.links
        bench.add(MacTxSink(bench, View(dut, "a_"), rng, self.wb, mac_bp, lambda fr, cyc: links["ab"].push(cyc, fr)))
        bench.add(MacTxSink(bench, View(dut, "b_"), rng, self.wb, mac_bp, lambda fr, cyc: links["ba"].push(cyc, fr)))

        def move(cycle: int) -> None:
            for fr in links["ab"].due(cycle):
                mac_in["b_"].send(fr)
            for fr in links["ba"].due(cycle):
                mac_in["a_"].send(fr)
        bench.add(CycleProbe(move))

        self.masters, self.rams = {}, {}
        for p in ("a_", "b_"):
            self.masters[p] = AxiMaster(AxiBus.from_prefix(dut, f"{p}s_axi"), dut.clk, dut.rst)
            self.masters[p].write_if.max_burst_len = self.max_beats
            self.masters[p].read_if.max_burst_len = self.max_beats
            self.rams[p] = AxiRam(AxiBus.from_prefix(dut, f"{p}m_axi"), dut.clk, dut.rst,
                                  size=1 << len(dut.a_m_axi_awaddr))
        self.runner = None

    async def start(self) -> None:
        """Reset, configure both ends, then keep the bench stepping in ``runner``."""
        await start_clock_and_reset(self.dut)
        self.cfg["a_"].queue.extend(setup_writes(ID_A))
        self.cfg["b_"].queue.extend(setup_writes(ID_B))
        await self.bench.run_until(lambda: not any(c.busy for c in self.cfg.values()), 100_000, "configuration")
        await self.bench.run(16)
        self.runner = cocotb.start_soon(self.bench.run(10_000_000))

    async def counters(self, p: str) -> dict:
        """The AXI bridge's status words of endpoint ``p``."""
        self.cfg[p].read_status()
        await bench_idle(self.cfg)
        words = self.cfg[p].status()
        return {n: words[f"axi.{n}"] for n in (
            "writes", "reads", "b", "r", "unmapped", "too_long", "bad_burst", "bad_op", "overlong")}


@cocotb.test()
async def axi_pair(dut):
    rng = random.Random(SEED)
    faults = Faults(drop=float(os.environ.get("TB_DROP", "0")), corrupt=float(os.environ.get("TB_CORRUPT", "0")),
                    duplicate=float(os.environ.get("TB_DUP", "0")))
    bandwidth = SCENARIO == "bandwidth"
    pair = Pair(dut, rng, mac_bp=0.0 if bandwidth else 0.1, mac_idle=0.0 if bandwidth else 0.05, faults=faults)
    await pair.start()
    wb, max_beats, links, cfg, masters, rams = pair.wb, pair.max_beats, pair.links, pair.cfg, pair.masters, pair.rams

    id_count = 1 << len(dut.a_s_axi_awid)
    region = (1 << DEST_LSB) // WORKERS
    oracles = []
    bursts = {"a_": 0, "b_": 0}
    done = {"a_": 0, "b_": 0}

    async def worker(src: str, far: str, far_id: int, w: int):
        r = random.Random(SEED * 1000 + w + (0 if src == "a_" else 500))
        base = far_id << DEST_LSB | w * region
        mem = bytearray(r.randrange(256) for _ in range(region))
        rams[far].write(base, bytes(mem))
        axi = masters[src]
        for _ in range(N_OPS // WORKERS):
            if SCENARIO == "bandwidth":
                length, off = 256, r.randrange(region // 256) * 256
            else:
                length = r.randint(1, 256)
                off = r.randrange(region - length)
            addr = base + off
            # bursts the master makes: split at max_beats bus beats
            first_beat, last_beat = addr // wb, (addr + length - 1) // wb
            n_bursts = -(-(last_beat - first_beat + 1) // max_beats)
            if r.random() < 0.5 or SCENARIO == "bandwidth":
                data = bytes(r.randrange(256) for _ in range(length))
                rsp = await with_timeout(axi.write(addr, data, awid=r.randrange(id_count)), OP_TIMEOUT_NS, "ns")
                assert rsp.resp == AxiResp.OKAY, f"{src}write {addr:#x}+{length}: {rsp.resp}"
                mem[off:off + length] = data
                bursts[src] += n_bursts
            else:
                rsp = await with_timeout(axi.read(addr, length, arid=r.randrange(id_count)), OP_TIMEOUT_NS, "ns")
                assert rsp.resp == AxiResp.OKAY, f"{src}read {addr:#x}+{length}: {rsp.resp}"
                assert bytes(rsp.data) == bytes(mem[off:off + length]), f"{src}read {addr:#x}+{length} differs"
            done[src] += 1
        oracles.append((far, base, mem))

    async def progress():
        while True:
            await Timer(50, "us")
            dut._log.info("ops done %s", done)

    meter = cocotb.start_soon(progress())
    directions = (("a_", "b_", ID_B),) if SCENARIO == "bandwidth" else (("a_", "b_", ID_B), ("b_", "a_", ID_A))
    t0 = get_sim_time("ns")
    tasks = [cocotb.start_soon(worker(src, far, fid, w)) for src, far, fid in directions for w in range(WORKERS)]
    for t in tasks:
        await t
    cycles = (get_sim_time("ns") - t0) / 10
    if SCENARIO == "bandwidth":
        n_bytes = 256 * (N_OPS // WORKERS) * WORKERS
        result = {"data_width": wb * 8, "write_bytes": n_bytes, "cycles": cycles,
                  "bytes_per_cycle": round(n_bytes / cycles, 2), "bus_bytes_per_cycle": wb,
                  "workers": WORKERS}
        dut._log.info("bandwidth: %s", result)
        if RESULTS:
            import json
            with open(RESULTS, "w") as fh:
                json.dump(result, fh, indent=1)
    meter.cancel()
    for far, base, mem in oracles:
        assert rams[far].read(base, len(mem)) == bytes(mem), f"{far}RAM differs from its writers' oracle"
    await Timer(2, "us")  # the bench keeps stepping in `runner`: responses settle
    counters = {p: await pair.counters(p) for p in ("a_", "b_")}
    pair.runner.cancel()
    for p, c in counters.items():
        dut._log.info("%s: %s; link out %s", p, c, links["ab" if p == "a_" else "ba"].stats)
        assert c["b"] == c["writes"], f"{p}: {c['writes']} write bursts sent, {c['b']} B responses"
        assert c["r"] == c["reads"], f"{p}: {c['reads']} read bursts sent, {c['r']} R bursts"
        assert not any(c[n] for n in ("unmapped", "too_long", "bad_burst", "bad_op", "overlong")), c
    dut._log.info("write bursts A->B %d, B->A %d", bursts["a_"], bursts["b_"])
    if faults.drop:
        assert all(link.stats["dropped"] for link in links.values()), "no frame was lost: the test proves nothing"
    assert counters["a_"]["writes"] == bursts["a_"] and counters["b_"]["writes"] == bursts["b_"], (counters, bursts)


@cocotb.test()
async def dest_map_at_run_time(dut):
    """AXI_DEST_MAP reprogrammed on A through AXI4-Lite while the pair runs (DESIGN-AXI.md,
    "Destination"): the reset value is the generator's destLsb/destBits; values outside the legal
    ranges answer SLVERR and change nothing; under the new map (lsb DEST_LSB + 3, 3 bits) random
    writes and reads reach the XPU it names (B's AxiRam holds exactly what was written, at
    addresses the old map would send to XPU 3, which does not exist here), a destination >= xpus
    answers DECERR on B and on every R beat and counts in axi.unmapped (at an address the old map
    sends to B, whose RAM stays untouched); the old map written back routes by the old bits again."""
    rng = random.Random(SEED)
    pair = Pair(dut, rng, mac_bp=0.1, mac_idle=0.05, faults=Faults())
    await pair.start()
    lite, axi, ram_b = pair.cfg["a_"].master, pair.masters["a_"], pair.rams["b_"]
    reg = REGS.cfg.AXI_DEST_MAP
    addr_bits = len(dut.a_s_axi_awaddr)
    id_count = 1 << len(dut.a_s_axi_awid)

    async def read_map() -> int:
        rsp = await lite.read(reg.address, 4)
        assert rsp.resp == AxiResp.OKAY, rsp.resp
        return int.from_bytes(rsp.data, "little")

    async def write_map(word: int, expect: AxiResp) -> None:
        rsp = await lite.write(reg.address, word.to_bytes(4, "little"))
        assert rsp.resp == expect, f"AXI_DEST_MAP <- {word:#x}: {rsp.resp!r}, expected {expect!r}"

    old = reg.pack(lsb=DEST_LSB, bits=DEST_BITS)
    assert await read_map() == old, "AXI_DEST_MAP after reset is not the generator's destLsb/destBits"
    for bad in (reg.pack(lsb=addr_bits, bits=2), reg.pack(lsb=0, bits=0), reg.pack(lsb=0, bits=11),
                reg.pack(lsb=63, bits=15), old | 1 << 7, old | 1 << 31):
        await write_map(bad, AxiResp.SLVERR)
    assert await read_map() == old, "an illegal AXI_DEST_MAP write changed the map"

    lsb, bits = DEST_LSB + 3, 3
    assert lsb + bits <= addr_bits and (1 << bits) > XPUS
    await write_map(reg.pack(lsb=lsb, bits=bits), AxiResp.OKAY)
    assert await read_map() == reg.pack(lsb=lsb, bits=bits)

    def address(new_dest: int, old_dest: int, off: int) -> int:
        """An address the new map sends to new_dest and the old one to old_dest."""
        a = new_dest << lsb | old_dest << DEST_LSB | off
        assert (a >> lsb) & ((1 << bits) - 1) == new_dest and (a >> DEST_LSB) & ((1 << DEST_BITS) - 1) == old_dest
        return a

    # random traffic to B under the new map, at addresses the old map names XPU 3 (absent)
    region = 1 << DEST_LSB
    base = address(ID_B, 3, 0)
    mem = bytearray(rng.randrange(256) for _ in range(region))
    ram_b.write(base, bytes(mem))
    before = await pair.counters("a_")

    async def worker(w: int) -> None:
        r = random.Random(SEED * 77 + w)
        for _ in range(12):
            length = r.randint(1, 256)
            off = r.randrange(w * region // 4, (w + 1) * region // 4 - length)
            if r.random() < 0.5:
                data = r.randbytes(length)
                rsp = await with_timeout(axi.write(base + off, data, awid=r.randrange(id_count)), OP_TIMEOUT_NS, "ns")
                assert rsp.resp == AxiResp.OKAY, f"write {base + off:#x}+{length} under the new map: {rsp.resp}"
                mem[off:off + length] = data
            else:
                rsp = await with_timeout(axi.read(base + off, length, arid=r.randrange(id_count)), OP_TIMEOUT_NS, "ns")
                assert rsp.resp == AxiResp.OKAY, f"read {base + off:#x}+{length} under the new map: {rsp.resp}"
                assert bytes(rsp.data) == bytes(mem[off:off + length]), f"read {base + off:#x}+{length} differs"
    for t in [cocotb.start_soon(worker(w)) for w in range(4)]:
        await t
    assert ram_b.read(base, region) == bytes(mem), "B's RAM differs from what was written under the new map"

    # unmapped under the new map, mapped (to B) under the old one
    wb = pair.wb
    for n, new_dest in enumerate(range(XPUS, 1 << bits)):
        a = address(new_dest, ID_B, 0x100 * n)
        sentinel = bytes([0xA5]) * 64
        ram_b.write(a, sentinel)
        rsp = await with_timeout(axi.write(a, bytes(64), awid=1), OP_TIMEOUT_NS, "ns")
        assert rsp.resp == AxiResp.DECERR, f"write to unmapped XPU {new_dest}: {rsp.resp!r}"
        rsp = await with_timeout(axi.read(a, 2 * wb, arid=2), OP_TIMEOUT_NS, "ns")
        assert rsp.resp == AxiResp.DECERR, f"read of unmapped XPU {new_dest}: {rsp.resp!r}"
        assert ram_b.read(a, 64) == sentinel, "a DECERR write reached B"
    after = await pair.counters("a_")
    refused = len(range(XPUS, 1 << bits))  # writes, and as many reads
    assert after["unmapped"] - before["unmapped"] == 2 * refused, (before, after)
    # b and r count every response given on s_axi, the local DECERRs included
    assert after["b"] == after["writes"] + refused and after["r"] == after["reads"] + refused, after

    # the old map again: the old destination bits route
    await write_map(old, AxiResp.OKAY)
    a = address(0, ID_B, 0x2000)
    data = rng.randbytes(200)
    rsp = await with_timeout(axi.write(a, data, awid=3), OP_TIMEOUT_NS, "ns")
    assert rsp.resp == AxiResp.OKAY, rsp.resp
    assert ram_b.read(a, len(data)) == data, "under the old map again the write did not reach B"
    pair.runner.cancel()


async def bench_idle(ports) -> None:
    """Waits until every register port has done its queued accesses."""
    while any(p.busy for p in ports.values()):
        await Timer(100, "ns")
