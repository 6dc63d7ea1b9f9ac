# SPDX-License-Identifier: Apache-2.0
"""Stimulus shared by the RX benches (``sue_rx_parser``, ``sue_rx``): SUE frames to this endpoint,
valid or mutated in one way, built by ``common.sue_frame_builder`` (scapy + zlib, ARCHITECTURE.md
§5) for an ``RxConfig`` (the benches send them with cocotbext-axi, ``common.mac_axis``).

* ``Gen(cfg, rng).valid(**over)``: a valid frame (random RH fields, random op bytes); ``rh=``
  overrides RH fields, ``ops=``/``ops_len=`` the op region, other keywords go to ``build``.
* ``Gen.mutated()``: ``(frame, err, mutation)`` with one mutation from ``MUTATIONS``.
* ``random_rx_config`` / ``write_rx_config``: a random parser configuration and its ``cfg_*`` writes.
"""

from __future__ import annotations

import random
import zlib

from cocotb.triggers import ReadOnly, RisingEdge

from common.rx_model import RxConfig
from common.sue_frame_builder import Peer, build, header_bytes

MUTATIONS = ("trunc", "over", "ethertype", "da", "ip_csum", "ip_len", "udp_port", "rcrc", "fcs", "mac_err", "ver",
             "op", "part", "src", "flip", "flips", "foreign", "tiny", "ip_ver", "frag", "shim", "afh_v")


class Gen:
    def __init__(self, cfg: RxConfig, rng: random.Random):
        self.cfg, self.rng = cfg, rng
        self.me = Peer(mac=cfg.own_mac, ip=cfg.own_ip, xpuid=cfg.own_xpuid, prefix=cfg.da_prefix)
        self.hb = header_bytes(cfg.encap, cfg.vlan)
        self.psn_for = lambda src: rng.getrandbits(16)  # RH PSN of a frame from src (a bench may steer it)

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
        rh = dict(ver=0, op=rng.randrange(3), xpuid=src, psn=self.psn_for(src), vc=rng.randrange(4),
                  partition=cfg.partition[src], rpsn=rng.getrandbits(16), conn_move=rng.getrandbits(2),
                  plane=rng.getrandbits(2), move=rng.getrandbits(2))
        rh.update(over.pop("rh", {}))
        ops = over.pop("ops", None)
        if ops is None:
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
        return body + zlib.crc32(body).to_bytes(4, "little") if self.cfg.fcs else body

    def mutated(self, kind: str | None = None):
        """(frame, err, mutation): ``kind`` from MUTATIONS, random when None. A mutation that does not
        apply to the encapsulation (e.g. ip_csum on AFH) leaves the frame valid."""
        rng, cfg = self.rng, self.cfg
        kind = rng.choice(MUTATIONS) if kind is None else kind
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


async def write_cfg(dut, addr: int, data: int) -> None:
    """One write on the ``cfg_*`` bus; waits (bounded) for ``cfg_ready`` (a block may hold it low,
    e.g. receive reliability while it clears its state RAMs after reset)."""
    dut.cfg_valid.value = 1
    dut.cfg_addr.value = addr
    dut.cfg_data.value = data & 0xFFFFFFFF
    for _ in range(5000):
        await ReadOnly()
        ready = int(dut.cfg_ready.value) if hasattr(dut, "cfg_ready") else 1
        await RisingEdge(dut.clk)
        if ready:
            break
    else:
        raise AssertionError(f"cfg_ready stayed low for 5000 cycles (write {addr:#06x})")
    dut.cfg_valid.value = 0


def random_rx_config(rng: random.Random, encap: int, vlan: bool, num_xpus: int, fcs: bool, bb: int) -> RxConfig:
    """Random own addresses, UDP port, AFH prefix, partition table and RX_MAX_PDU (as written: a
    value above 4096 is kept here and clamped by ``write_rx_config``)."""
    cfg = RxConfig(encap, vlan, num_xpus, beat_bytes=bb)
    cfg.own_mac = rng.getrandbits(48) & ~(1 << 40)  # unicast
    cfg.own_xpuid = rng.getrandbits(32)
    if encap == 0:
        cfg.own_ip = rng.getrandbits(32)
    elif encap == 1:
        cfg.own_ip = rng.getrandbits(128)
    cfg.udp_port = rng.choice([50000, rng.getrandbits(16)])
    cfg.da_prefix = rng.choice([0x02000000, rng.getrandbits(32)])
    cfg.partition = [rng.getrandbits(10) for _ in range(num_xpus)]
    cfg.fcs = fcs
    cfg.max_pdu = rng.choice([4096, 4096, rng.randint(600, 4095), 5000])
    return cfg


async def write_rx_config(dut, cfg: RxConfig) -> None:
    """The parser's registers (DESIGN-RX.md "Configuration") through ``cfg_*``; leaves
    ``cfg.max_pdu`` as the parser takes it (at most 4096)."""
    dut.cfg_valid.value = 0
    await write_cfg(dut, 0x0000, cfg.own_mac)
    await write_cfg(dut, 0x0001, cfg.own_mac >> 32)
    await write_cfg(dut, 0x0002, cfg.own_xpuid)
    await write_cfg(dut, 0x0003, cfg.udp_port)
    await write_cfg(dut, 0x0004, cfg.da_prefix)
    for w in range(4):
        await write_cfg(dut, 0x0008 + w, cfg.own_ip >> (32 * w))
    for d in range(cfg.num_xpus):
        await write_cfg(dut, 0x4000 | d << 4 | 2, cfg.partition[d])
    await write_cfg(dut, 0x0300, int(cfg.fcs))
    await write_cfg(dut, 0x0301, cfg.max_pdu)
    cfg.max_pdu = min(cfg.max_pdu, 4096)
