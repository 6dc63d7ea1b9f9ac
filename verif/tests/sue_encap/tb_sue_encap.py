# SPDX-License-Identifier: Apache-2.0
"""cocotb side of the sue_header_builder test: random configuration through the cfg write port,
random header requests, every emitted header checked with scapy (Ethernet/802.1Q/IPv4/IPv6/UDP
from scapy, RH/AFH layers from common.sue_layers, written from ARCHITECTURE.md §5), and every
frame (header + RH + dummy payload + R-CRC) written to a pcap for tshark.

Environment (set by test_sue_encap.py): ENCAP (0 STD_IPV4, 1 STD_IPV6, 2 AFH1, 3 AFH1_SHIM,
4 AFH2_NORMAL, 5 AFH2_COMPRESSED), VLAN (0/1), NUM_XPUS, N_REQ (requests per phase), PCAP
(output file).
"""

from __future__ import annotations

import ipaddress
import os
import random
import zlib

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Dot1Q, Ether
from scapy.utils import PcapWriter, checksum

from common.sue_layers import RH, AFHGen1Shim, dissect_afh2

ENCAP = int(os.environ["ENCAP"])
VLAN = os.environ["VLAN"] == "1"
NUM_XPUS = int(os.environ["NUM_XPUS"])
N_REQ = int(os.environ.get("N_REQ", "300"))
PCAP = os.environ["PCAP"]
LATENCY = 3  # SueHeaderBuilder.LATENCY, from its Javadoc

STD_IPV4, STD_IPV6, AFH1, AFH1_SHIM, AFH2_NORMAL, AFH2_COMPRESSED = range(6)
# Header bytes per encapsulation without VLAN tag (ARCHITECTURE.md §5 field sizes).
BASE_BYTES = {STD_IPV4: 14 + 20 + 8, STD_IPV6: 14 + 40 + 8, AFH1: 14, AFH1_SHIM: 22, AFH2_NORMAL: 14,
              AFH2_COMPRESSED: 8}
HDR_BYTES = BASE_BYTES[ENCAP] + (4 if VLAN else 0)

# Address map (SueEncapConfig Javadoc).
OWN_MAC_LO, OWN_MAC_HI, OWN_XPUID, UDP_DST_PORT, AFH_DA_PREFIX, AFH_SA_PREFIX, VLAN_VID, HOP_LIMIT = range(8)
OWN_IP = 0x8
VC_MAP = 0x10
TABLE = 0x4000
T_MAC_LO, T_MAC_HI, T_PARTITION, T_IP = 0x0, 0x1, 0x2, 0x4


def mac_str(v: int) -> str:
    return ":".join(f"{b:02x}" for b in v.to_bytes(6, "big"))


class Config:
    """The configuration as written (reset values from the Javadoc)."""

    def __init__(self):
        self.own_mac = 0
        self.own_xpuid = 0
        self.udp_port = 50000
        self.da_prefix = 0x02000000
        self.sa_prefix = 0x02000000
        self.vid = 0
        self.hop = 64
        self.own_ip = 0
        self.vc_map = [(vc, 8 * vc, 32 * vc) for vc in range(4)]  # (pcp, dscp, tc)
        self.mac = {}
        self.partition = {}
        self.ip = {}


class Tb:
    def __init__(self, dut):
        self.dut = dut
        self.cfg = Config()
        self.ip_words = 1 if ENCAP == STD_IPV4 else 4 if ENCAP == STD_IPV6 else 0

    async def reset(self):
        d = self.dut
        d.cfg_valid.value = 0
        d.cfg_addr.value = 0
        d.cfg_data.value = 0
        d.req_valid.value = 0
        d.req_dest.value = 0
        d.req_vc.value = 0
        d.req_length.value = 0
        d.req_entropy.value = 0
        d.rst.value = 1
        for _ in range(3):
            await RisingEdge(d.clk)
        await FallingEdge(d.clk)
        d.rst.value = 0

    async def write(self, addr: int, data: int):
        """One config write, driven at a falling edge, accepted at the next rising edge."""
        d = self.dut
        await FallingEdge(d.clk)
        assert int(d.cfg_ready.value) == 1
        d.cfg_valid.value = 1
        d.cfg_addr.value = addr
        d.cfg_data.value = data & 0xFFFFFFFF
        await RisingEdge(d.clk)
        await FallingEdge(d.clk)
        d.cfg_valid.value = 0

    async def write_globals(self, rng: random.Random, all_fields: bool):
        c = self.cfg
        c.own_mac = rng.getrandbits(48) & ~(1 << 40)  # unicast
        c.own_xpuid = rng.getrandbits(32)
        c.own_ip = rng.getrandbits(32 * max(self.ip_words, 1))
        await self.write(OWN_MAC_LO, c.own_mac & 0xFFFFFFFF)
        await self.write(OWN_MAC_HI, c.own_mac >> 32 | rng.getrandbits(16) << 16)  # high bits ignored
        await self.write(OWN_XPUID, c.own_xpuid)
        for w in range(max(self.ip_words, 1)):
            await self.write(OWN_IP + w, c.own_ip >> (32 * w))
        if all_fields:
            c.udp_port = rng.getrandbits(16)
            c.da_prefix = rng.getrandbits(32) | 0x02000000
            c.sa_prefix = rng.getrandbits(32) | 0x02000000
            c.vid = rng.getrandbits(12)
            c.hop = rng.randrange(1, 256)
            c.vc_map = [(rng.getrandbits(3), rng.getrandbits(6), rng.getrandbits(8)) for _ in range(4)]
            await self.write(UDP_DST_PORT, c.udp_port)
            await self.write(AFH_DA_PREFIX, c.da_prefix)
            await self.write(AFH_SA_PREFIX, c.sa_prefix)
            await self.write(VLAN_VID, c.vid)
            await self.write(HOP_LIMIT, c.hop)
            for vc, (pcp, dscp, tc) in enumerate(c.vc_map):
                await self.write(VC_MAP + vc, pcp | dscp << 8 | tc << 16)
        await self.write(0x1F, rng.getrandbits(32))  # unmapped: ignored

    async def write_entry(self, rng: random.Random, dest: int):
        c = self.cfg
        base = TABLE | dest << 4
        c.partition[dest] = rng.getrandbits(10)
        await self.write(base | T_PARTITION, c.partition[dest])
        if ENCAP in (STD_IPV4, STD_IPV6):
            c.mac[dest] = rng.getrandbits(48) & ~(1 << 40)
            await self.write(base | T_MAC_LO, c.mac[dest])
            await self.write(base | T_MAC_HI, c.mac[dest] >> 32)
            c.ip[dest] = rng.getrandbits(32 * self.ip_words)
            for w in range(self.ip_words):
                await self.write(base | (T_IP + w), c.ip[dest] >> (32 * w))

    async def write_tables(self, rng: random.Random, dests):
        for dest in dests:
            await self.write_entry(rng, dest)
        if NUM_XPUS < 1024:
            # Writes to destinations >= NUM_XPUS are ignored (they must not alias a valid entry).
            # 1 << aw has the same RAM index bits as destination 0 (aw = address bits of the tables).
            aw = max(1, (NUM_XPUS - 1).bit_length())
            for dest in {NUM_XPUS, min(1023, 1 << aw), 1023}:
                base = TABLE | dest << 4
                for f in range(8):
                    await self.write(base | f, rng.getrandbits(32))

    async def run_requests(self, rng: random.Random, n: int, frames: list, dests=None):
        """n random requests (70 % of cycles), some to destinations >= NUM_XPUS; with *dests*,
        in-range requests go only to those destinations."""
        d = self.dut
        c = self.cfg
        pending = {}  # sample cycle -> request
        cycle = 0
        sent = 0
        checked = 0
        while checked < n:
            await FallingEdge(d.clk)
            # Outputs are registered: at this falling edge they reflect the last rising edge.
            valid = int(d.hdr_valid.value)
            want = pending.pop(cycle, None)
            assert bool(valid) == (want is not None), f"cycle {cycle}: hdr_valid={valid}, expected {want is not None}"
            if want is not None:
                self.check(want, d, frames)
                checked += 1
            if sent < n and rng.random() < 0.7:
                in_range = NUM_XPUS == 1024 or rng.random() < 0.93
                if not in_range:
                    dest = rng.randrange(NUM_XPUS, 1024)
                else:
                    dest = rng.choice(dests) if dests is not None else rng.randrange(NUM_XPUS)
                req = {"dest": dest, "vc": rng.randrange(4), "len": 16383 if rng.random() < 0.02 else rng.choice([12, 13, 60, rng.randrange(12, 4109)]),
                       "entropy": rng.getrandbits(16), "cfg": c}
                d.req_valid.value = 1
                d.req_dest.value = req["dest"]
                d.req_vc.value = req["vc"]
                d.req_length.value = req["len"]
                d.req_entropy.value = req["entropy"]
                pending[cycle + LATENCY] = req
                sent += 1
            else:
                d.req_valid.value = 0
                d.req_dest.value = rng.getrandbits(10)  # garbage while idle
            cycle += 1
        d.req_valid.value = 0

    def check(self, req, d, frames):
        c = self.cfg
        dest, vc, length, entropy = req["dest"], req["vc"], req["len"], req["entropy"]
        in_range = dest < NUM_XPUS
        assert int(d.hdr_dest_error.value) == (0 if in_range else 1), f"hdr_dest_error for dest {dest}"
        if not in_range:
            return
        assert int(d.hdr_partition.value) == c.partition[dest], "hdr_partition"
        hdr = int(d.hdr_data.value).to_bytes(HDR_BYTES, "little")  # byte k at [8k+7:8k]
        # A PDU of the declared length: RH (sending XPU, partition) + dummy ops + R-CRC.
        rng = random.Random(entropy ^ length << 16)
        rh = bytes(RH(ver=0, op=rng.randrange(3), xpuid=c.own_xpuid & 0x3FF, psn=rng.getrandbits(16), vc=vc,
                      partition=c.partition[dest], rpsn=rng.getrandbits(16)))
        body = rh + bytes(rng.getrandbits(8) for _ in range(length - 12))
        pdu = body + zlib.crc32(body).to_bytes(4, "little")
        assert len(pdu) == length
        frame = hdr + pdu
        frames.append(frame)
        pcp, dscp, tc = c.vc_map[vc]
        ctx = f"dest {dest} vc {vc} len {length} entropy {entropy:#06x}: header {hdr.hex()}"

        if ENCAP in (STD_IPV4, STD_IPV6, AFH1, AFH1_SHIM):
            p = Ether(frame)
            if ENCAP in (STD_IPV4, STD_IPV6):
                assert p.dst == mac_str(c.mac[dest]), ctx
                assert p.src == mac_str(c.own_mac), ctx
            else:
                assert p.dst == mac_str(c.da_prefix << 16 | dest), ctx
                assert p.src == mac_str(c.sa_prefix << 16 | c.own_xpuid & 0xFFFF), ctx
            if VLAN:
                assert p.type == 0x8100, ctx
                q = p[Dot1Q]
                assert (q.prio, q.id, q.vlan) == (pcp, 0, c.vid), ctx
                inner = q
            else:
                assert Dot1Q not in p, ctx
                inner = p
            etype = {STD_IPV4: 0x0800, STD_IPV6: 0x86DD, AFH1: 0x88B5, AFH1_SHIM: 0x88B6}[ENCAP]
            assert inner.type == etype, ctx
            if ENCAP == STD_IPV4:
                ip = p[IP]
                assert (ip.version, ip.ihl, ip.tos, ip.len, ip.id, int(ip.flags), ip.frag, ip.ttl, ip.proto) == (
                    4, 5, dscp << 2, 28 + length, 0, 2, 0, c.hop, 17), ctx
                assert ip.src == str(ipaddress.IPv4Address(c.own_ip)), ctx
                assert ip.dst == str(ipaddress.IPv4Address(c.ip[dest])), ctx
                raw_ip = bytes(ip)[:20]
                fresh = IP(raw_ip)
                del fresh.chksum
                assert IP(bytes(fresh)).chksum == ip.chksum, f"IPv4 checksum {ip.chksum:#06x}: {ctx}"
                assert checksum(raw_ip) == 0, ctx
            if ENCAP == STD_IPV6:
                ip6 = p[IPv6]
                assert (ip6.version, ip6.tc, ip6.fl, ip6.plen, ip6.nh, ip6.hlim) == (
                    6, tc, entropy, 8 + length, 17, c.hop), ctx
                assert ip6.src == str(ipaddress.IPv6Address(c.own_ip)), ctx
                assert ip6.dst == str(ipaddress.IPv6Address(c.ip[dest])), ctx
            if ENCAP in (STD_IPV4, STD_IPV6):
                u = p[UDP]
                assert (u.sport, u.dport, u.len, u.chksum) == (entropy, c.udp_port, 8 + length, 0), ctx
                assert bytes(u.payload) == pdu, ctx
            elif ENCAP == AFH1:
                assert bytes(inner.payload) == pdu, ctx
                assert p[RH].partition == c.partition[dest], ctx
            else:
                s = p[AFHGen1Shim]
                assert (s.ver, s.rsv, s.dscp, s.ecn, s.ttl, s.rsv2, s.entropy, s.type) == (
                    0, 0, dscp, 0, c.hop, 0, entropy, 0x88B5), ctx
                assert bytes(s.payload) == pdu, ctx
                assert p[RH].xpuid == c.own_xpuid & 0x3FF, ctx
        else:
            a = dissect_afh2(frame)
            w = 1 if ENCAP == AFH2_COMPRESSED else 0
            assert (a.w, a.v, a.vc, a.z, a.y, a.x, a.m) == (w, 0, vc, 0, 0, 1, 0), ctx
            if w == 0:
                assert (a.hop_count, a.dst_xpuid, a.entropy, a.src_xpuid) == (c.hop, dest, entropy, c.own_xpuid), ctx
            else:
                assert (a.reserved, a.dst_xpuid, a.src_xpuid) == (0, dest, c.own_xpuid & 0xFFFF), ctx
            assert a.type == 0x88B5, ctx
            assert bytes(a.payload) == pdu, ctx
            assert a[RH].vc == vc, ctx


@cocotb.test()
async def random_config_and_requests(dut):
    """Phase 1: tables and own addresses written, every other field at its reset value.
    Phase 2: every global field random, half the table rewritten. Phase 3: table writes
    concurrent with requests to other destinations. Then pcap for tshark."""
    cocotb.start_soon(Clock(dut.clk, 10, unit="ns").start())
    tb = Tb(dut)
    rng = random.Random(cocotb.RANDOM_SEED)
    await tb.reset()
    frames: list[bytes] = []
    await tb.write_globals(rng, all_fields=False)
    await tb.write_tables(rng, range(NUM_XPUS))
    await tb.run_requests(rng, N_REQ, frames)
    await tb.write_globals(rng, all_fields=True)
    await tb.write_tables(rng, rng.sample(range(NUM_XPUS), (NUM_XPUS + 1) // 2))
    await tb.run_requests(rng, N_REQ, frames)
    if NUM_XPUS > 1:
        # Phase 3: table writes to some destinations while requests go to the others (the write
        # port and the lookup are independent); then requests to all of them.
        dests = list(range(NUM_XPUS))
        rng.shuffle(dests)
        busy, rewritten = dests[: len(dests) // 2 or 1], dests[len(dests) // 2 or 1:]
        writer = cocotb.start_soon(tb.write_tables(rng, rewritten))
        await tb.run_requests(rng, N_REQ, frames, dests=busy)
        await writer
        await tb.run_requests(rng, N_REQ // 2, frames)
    assert len(frames) > N_REQ, "too few in-range requests checked"
    os.makedirs(os.path.dirname(PCAP), exist_ok=True)
    # AFH Gen 2 compressed frames are not Ethernet frames: DLT_USER0 (147) so readers don't misparse.
    with PcapWriter(PCAP, linktype=147 if ENCAP == AFH2_COMPRESSED else 1) as w:
        for f in frames:
            w.write(f)
    dut._log.info("checked %d headers, wrote %s", len(frames), PCAP)
