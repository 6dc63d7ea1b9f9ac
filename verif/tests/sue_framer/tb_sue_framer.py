# SPDX-License-Identifier: Apache-2.0
"""cocotb side of the framing-path test (top ``tx_frame_path`` = SueFramer + PortSelect):
random configuration, random PDUs (length 0 or 2..4096 even, random bytes) to random
destinations and VCs, random idle on the desc and data streams, random MAC back-pressure.
The descriptors carry the RH fields as transmit reliability assigns them, from a Python model
of ARCHITECTURE.md §5 (PSN per destination, +1 per PDU with ops, 16-bit wrap, most
destinations starting near the wrap; ACK/NACK information on some PDUs, op 2 on the others).
Every emitted frame is decoded with common.sue_frames (scapy + sue_layers: IPv4 checksum
recomputed, IP/UDP lengths, AFH key bits) and compared with what was sent and configured:
RH (psn, op, rpsn, partition, xpuid, vc), network header fields, payload + zero padding to
MIN_FRAME (FCS included), R-CRC and FCS with zlib.crc32. Frames go to a pcap for tshark.
Throughput (MAC bus occupancy with a backlog) and latency (desc valid -> first MAC beat) are
measured and asserted.

Environment: ENCAP, VLAN, NUM_XPUS, PHASES ("min_frame:fcs,..."), N_PDU (per phase), PCAP, METRICS.
"""

from __future__ import annotations

import json
import os
import random
import zlib

import cocotb
from scapy.layers.l2 import Ether
from scapy.utils import PcapWriter

from common.mac_axis import FrameSink
from common.stream_bfm import (PACKET_FIELDS, ClockedBench, StreamSource, data_width_bytes, packet_beats,
                               start_clock_and_reset)
from common.sue_frames import decode, header_bytes

ENCAP = int(os.environ["ENCAP"])
VLAN = os.environ["VLAN"] == "1"
NUM_XPUS = int(os.environ["NUM_XPUS"])
PHASES = [tuple(int(x) for x in p.split(":")) for p in os.environ.get("PHASES", "64:0").split(",")]
N_PDU = int(os.environ.get("N_PDU", "80"))
PCAP = os.environ["PCAP"]
METRICS = os.environ.get("METRICS")
H = header_bytes(ENCAP, VLAN)
STD = ENCAP in (0, 1)

# config addresses (SueEncapConfig, DESIGN-TX.md contract)
OWN_MAC_LO, OWN_MAC_HI, OWN_XPUID, UDP_DST_PORT, AFH_DA_PREFIX, AFH_SA_PREFIX, VLAN_VID, HOP_LIMIT = range(8)
OWN_IP, VC_MAP, TABLE = 0x8, 0x10, 0x4000
T_MAC_LO, T_MAC_HI, T_PARTITION, T_IP = 0, 1, 2, 4
MIN_FRAME, FCS_BY_SUE = 0x0210, 0x0211
LATENCY_TARGET = 5  # DESIGN-TX.md budget: desc valid at t -> first MAC beat at t + 5
# FCS_BY_SUE = 1: every frame passes the FCS stage's output register
FCS_EXTRA = 1
# and a one-beat frame's (only) beat waits for the FCS engine (CrcEngine latency, 2 at every width
# with its tail matrix's partials registered with the last state update; 3 before, 6 at 1024 bits
# before the tail matrix), plus that register
ONE_BEAT_FCS_EXTRA = 2 + FCS_EXTRA


def mac_str(v):
    return ":".join(f"{b:02x}" for b in v.to_bytes(6, "big"))


class CfgDriver:
    """Config writes through cfg_valid/cfg_ready, one per cycle when ready."""

    def __init__(self, dut):
        self.dut = dut
        self.queue = []
        self.cur = None
        dut.cfg_valid.value = 0

    def write(self, addr, data):
        self.queue.append((addr, data & 0xFFFFFFFF))

    @property
    def idle(self):
        return self.cur is None and not self.queue

    def drive(self):
        if self.cur is None and self.queue:
            self.cur = self.queue.pop(0)
        self.dut.cfg_valid.value = int(self.cur is not None)
        if self.cur is not None:
            self.dut.cfg_addr.value, self.dut.cfg_data.value = self.cur

    def sample(self):
        if self.cur is not None and int(self.dut.cfg_ready.value):
            self.cur = None


class DescProbe:
    """Records (first offered cycle, transfer cycle) of every descriptor on the top's desc port."""

    def __init__(self, dut):
        self.dut = dut
        self.cycle = 0
        self.since = None
        self.log = []

    def drive(self):
        pass

    def sample(self):
        if int(self.dut.desc_valid.value):
            if self.since is None:
                self.since = self.cycle
            if int(self.dut.desc_ready.value):
                self.log.append((self.since, self.cycle))
                self.since = None
        self.cycle += 1


class Tb:
    def __init__(self, dut, seed):
        self.dut = dut
        self.rng = random.Random(seed)
        self.n = data_width_bytes(dut, "data")
        self.desc = StreamSource(dut, "desc", ("dest", "vc", "length", "psn", "op", "rpsn"), self.rng)
        self.data = StreamSource(dut, "data", PACKET_FIELDS, self.rng)
        self.cfg = CfgDriver(dut)
        valid = list(range(min(NUM_XPUS, 1024)))
        self.dests = self.rng.sample(valid, min(4, len(valid)))
        if NUM_XPUS < 1024:
            self.bad_dests = [NUM_XPUS, 1023]
        else:
            self.bad_dests = []
        self.ack_prob = 0.0  # share of PDUs that carry ACK/NACK information
        self.bench = ClockedBench(dut.clk)
        self.sink = FrameSink(self.bench, dut, "mac_tx_0", self.n, rng=self.rng)
        self.probe = DescProbe(dut)
        for a in (self.cfg, self.desc, self.data, self.sink, self.probe):
            self.bench.add(a)
        # model state
        self.next_psn = {}
        self.expected = []  # per descriptor sent: the frame's fields, None for a dropped PDU
        self.frames = []  # emitted frames (bytes), all phases
        self.pcap = PcapWriter(PCAP, linktype=1, sync=True)
        self.n_frames = 0
        self.n_drops = 0

    async def configure(self):
        r, c = self.rng, self.cfg
        self.own_mac = r.getrandbits(48) & ~(1 << 40)
        self.own_xpuid = r.getrandbits(32)
        self.own_ip = r.getrandbits(128)
        self.udp_port = r.choice([50000, r.getrandbits(16)])
        self.da_prefix = r.getrandbits(32) | 0x02000000
        self.sa_prefix = r.getrandbits(32) | 0x02000000
        self.vid = r.getrandbits(12)
        self.hop = r.randrange(1, 256)
        self.vc_map = [(r.getrandbits(3), r.getrandbits(6), r.getrandbits(8)) for _ in range(4)]
        c.write(OWN_MAC_LO, self.own_mac)
        c.write(OWN_MAC_HI, self.own_mac >> 32)
        c.write(OWN_XPUID, self.own_xpuid)
        for w in range(4):
            c.write(OWN_IP + w, self.own_ip >> (32 * w))
        c.write(UDP_DST_PORT, self.udp_port)
        c.write(AFH_DA_PREFIX, self.da_prefix)
        c.write(AFH_SA_PREFIX, self.sa_prefix)
        c.write(VLAN_VID, self.vid)
        c.write(HOP_LIMIT, self.hop)
        for vc, (pcp, dscp, tc) in enumerate(self.vc_map):
            c.write(VC_MAP + vc, pcp | dscp << 8 | tc << 16)
        self.mac, self.part, self.ip = {}, {}, {}
        for d in self.dests:
            base = TABLE | d << 4
            self.mac[d] = r.getrandbits(48) & ~(1 << 40)
            self.part[d] = r.getrandbits(10)
            self.ip[d] = r.getrandbits(128)
            c.write(base | T_MAC_LO, self.mac[d])
            c.write(base | T_MAC_HI, self.mac[d] >> 32)
            c.write(base | T_PARTITION, self.part[d])
            for w in range(4):
                c.write(base | (T_IP + w), self.ip[d] >> (32 * w))
            # PSNs near the 16-bit wrap for most destinations
            self.next_psn[d] = r.choice([0xFFF0 + r.randrange(16), r.getrandbits(16), 0xFFFF])
        await self.bench.run_until(lambda: c.idle, what="config writes")

    async def set_phase(self, min_frame, fcs):
        self.min_frame, self.fcs = min_frame, fcs
        self.cfg.write(MIN_FRAME, min_frame)
        self.cfg.write(FCS_BY_SUE, fcs)
        await self.bench.run_until(lambda: self.cfg.idle, what="config writes")
        await self.bench.run(2)

    def random_length(self):
        x = self.rng.random()
        if x < 0.05:
            return 0
        if x < 0.6:
            return 2 * self.rng.randint(1, 128)
        if x < 0.9:
            return 2 * self.rng.randint(129, 750)
        return 2 * self.rng.randint(751, 2048)

    def send_pdu(self, dest, vc, length):
        """Queues one PDU with the RH fields transmit reliability would give it: the
        destination's next PSN (consumed only by a PDU with ops) and, on some PDUs, ACK or NACK
        information (op 2, rpsn 0 on the others)."""
        payload = bytes(self.rng.getrandbits(8) for _ in range(length))
        psn = self.next_psn.get(dest, self.rng.getrandbits(16))
        if length and dest in self.next_psn:
            self.next_psn[dest] = (psn + 1) & 0xFFFF
        if self.rng.random() < self.ack_prob:
            op, rpsn = self.rng.getrandbits(1), self.rng.getrandbits(16)
        else:
            op, rpsn = 2, 0
        self.desc.send({"dest": dest, "vc": vc, "length": length, "psn": psn, "op": op, "rpsn": rpsn})
        if length:
            self.data.send_all(packet_beats(payload, self.n))
        self.expected.append(None if dest >= NUM_XPUS else
                             dict(dest=dest, vc=vc, length=length, payload=payload, op=op, rpsn=rpsn, psn=psn))

    def check_frame(self, i, frame, e):
        f = decode(frame, ENCAP, VLAN, bool(self.fcs))
        assert f.rcrc_ok, f"frame {i}: R-CRC {f.rcrc:#x} != zlib {zlib.crc32(frame[H:len(frame) - 4 - 4 * self.fcs]):#x}"
        if self.fcs:
            assert f.fcs_ok, f"frame {i}: FCS {f.fcs:#x} wrong"
        pad = max(0, self.min_frame - (H + 8 + e["length"] + 8))
        assert f.payload == e["payload"] + bytes(pad), (
            f"frame {i} (dest {e['dest']}, len {e['length']}, pad {pad}): payload differs\n"
            f"got      {f.payload.hex()}\nexpected {(e['payload'] + bytes(pad)).hex()}")
        assert len(frame) == H + 8 + e["length"] + pad + 4 + 4 * self.fcs
        if self.min_frame:
            assert len(frame) + 4 * (1 - self.fcs) >= self.min_frame
        rh = f.rh
        got = dict(op=rh.op, psn=rh.psn, rpsn=rh.rpsn, vc=rh.vc, xpuid=rh.xpuid, partition=rh.partition,
                   conn_move=rh.conn_move, plane=rh.plane, move=rh.move)
        want = dict(op=e["op"], psn=e["psn"], rpsn=e["rpsn"], vc=e["vc"], xpuid=self.own_xpuid & 0x3FF,
                    partition=self.part[e["dest"]], conn_move=0, plane=0, move=0)
        assert got == want, f"frame {i}: RH {got} != model {want}"
        net, d, vc = f.net, e["dest"], e["vc"]
        entropy = 0xC000 | vc << 12 | d << 2
        pcp, dscp, tc = self.vc_map[vc]
        if STD:
            assert net["dst"] == mac_str(self.mac[d]) and net["src"] == mac_str(self.own_mac), f"frame {i}: {net}"
            assert net["sport"] == entropy and net["dport"] == self.udp_port and net["udp_chksum"] == 0, net
            if ENCAP == 0:
                import ipaddress
                assert net["ip_src"] == str(ipaddress.IPv4Address(self.own_ip & 0xFFFFFFFF)), net
                assert net["ip_dst"] == str(ipaddress.IPv4Address(self.ip[d] & 0xFFFFFFFF)), net
                assert net["dscp"] == dscp and net["ttl"] == self.hop, net
            else:
                import ipaddress
                assert net["ip_dst"] == str(ipaddress.IPv6Address(self.ip[d])), net
                assert net["tc"] == tc and net["fl"] == entropy and net["hlim"] == self.hop, net
        elif ENCAP in (2, 3):
            assert net["dst"] == mac_str(self.da_prefix << 16 | d), f"frame {i}: {net}"
            assert net["src"] == mac_str(self.sa_prefix << 16 | (self.own_xpuid & 0xFFFF)), net
            if ENCAP == 3:
                assert net["entropy"] == entropy and net["dscp"] == dscp and net["ttl"] == self.hop, net
        else:
            assert net["dst_xpuid"] == d and net["vc"] == vc, f"frame {i}: {net}"
            if ENCAP == 4:
                assert net["src_xpuid"] == self.own_xpuid and net["entropy"] == entropy, net
            else:
                assert net["src_xpuid"] == self.own_xpuid & 0xFFFF, net
        if VLAN:
            assert net["pcp"] == pcp and net["vid"] == self.vid and net["dei"] == 0, net

    async def run_batch(self, pdus, idle, bp, ack_prob, timeout=400_000):
        start_desc, start = len(self.desc.sent), len(self.sink.frames)
        self.desc.idle, self.data.idle, self.sink.backpressure, self.ack_prob = idle, idle, bp, ack_prob
        for p in pdus:
            self.send_pdu(*p)
        n_valid = sum(1 for p in pdus if p[0] < NUM_XPUS)
        await self.bench.run_until(
            lambda: self.desc.idle_now and self.data.idle_now
            and len(self.sink.frames) - start == n_valid, timeout=timeout, what="frames")
        await self.bench.run(30)
        taken = self.sink.frames[start:]
        assert not any(f.user for f in taken), "mac_tx_0_tuser (abort) set on a frame"
        frames = [f.data for f in taken]
        assert len(frames) == n_valid, f"{len(frames)} frames, expected {n_valid}"
        exp = self.expected[start_desc:]
        kept = [e for e in exp if e is not None]
        self.n_drops += len(exp) - len(kept)
        self.n_frames += len(kept)
        for i, (fr, e) in enumerate(zip(frames, kept)):
            self.check_frame(i, fr, e)
            self.pcap.write(Ether(fr[:-4] if self.fcs else fr))
        assert int(self.dut.frames.value) == self.n_frames, f"frames counter {int(self.dut.frames.value)}"
        assert int(self.dut.drops.value) == self.n_drops, f"drops counter {int(self.dut.drops.value)}"
        return taken


def occupancy(frames) -> float:
    """MAC beats per cycle in steady state: from the third frame's first beat to the last beat."""
    steady = frames[2:]
    return sum(f.beats for f in steady) / (steady[-1].last_cycle - steady[0].first_cycle + 1)


@cocotb.test()
async def framing(dut):
    tb = Tb(dut, int(os.environ.get("SEED", "1")))
    await start_clock_and_reset(dut)
    await tb.configure()
    metrics = {}
    for pi, (min_frame, fcs) in enumerate(PHASES):
        await tb.set_phase(min_frame, fcs)
        # 1. random traffic with random idle, back-pressure and ACK information on some PDUs
        pdus = []
        for _ in range(N_PDU):
            dest = tb.rng.choice(tb.bad_dests) if tb.bad_dests and tb.rng.random() < 0.05 else tb.rng.choice(tb.dests)
            pdus.append((dest, tb.rng.getrandbits(2), tb.random_length()))
        await tb.run_batch(pdus, idle=tb.rng.choice([0.1, 0.3]), bp=tb.rng.choice([0.2, 0.5]), ack_prob=0.3)

        # 2. latency on an idle system: desc and first data beat in the same cycle
        lat = []
        for length in (4 * tb.n, 3 * tb.n + 2, 1000):
            taken = await tb.run_batch([(tb.dests[0], 1, length)], idle=0.0, bp=0.0, ack_prob=0.0)
            t_desc = tb.probe.log[-1][0]  # first cycle the desc was valid
            lat.append(taken[0].first_cycle - t_desc)
        dut._log.info("phase min_frame=%d fcs=%d: latency desc -> first MAC beat %s cycles", min_frame, fcs, lat)
        phase_bound = LATENCY_TARGET + (FCS_EXTRA if fcs else 0)
        assert all(x <= phase_bound for x in lat), f"latency {lat} > {phase_bound}"

        # 2b. one-beat frames (H + 8 + L + padding <= bus bytes; their R-CRC comes from the fast
        # path): every length 0..max on an idle system leaves at t + 5 (FCS by the MAC); with
        # FCS_BY_SUE they wait for the FCS engine. Each frame is checked like the others
        # (scapy decode, R-CRC against zlib).
        one_beat_max = tb.n - (H + 8)
        if one_beat_max >= 0:
            lat1 = {}
            for length in range(0, one_beat_max + 1):
                taken = await tb.run_batch([(tb.rng.choice(tb.dests), tb.rng.getrandbits(2), length)], idle=0.0,
                                           bp=0.0, ack_prob=0.0)
                lat1[length] = taken[0].first_cycle - tb.probe.log[-1][0]
            worst = max(lat1.values())
            dut._log.info("phase min_frame=%d fcs=%d: one-beat frames (L = 0..%d): latency desc -> first MAC beat "
                          "worst %d, per length %s", min_frame, fcs, one_beat_max, worst, lat1)
            bound = LATENCY_TARGET if not fcs else LATENCY_TARGET + ONE_BEAT_FCS_EXTRA
            assert worst <= bound, f"one-beat latency {lat1} > {bound}"
            lat.append(worst if not fcs else phase_bound)
            # a backlog of one-beat frames (and some that spill their R-CRC into a second beat),
            # random back-pressure and idle first, then none: the MAC bus stays full
            small = [(tb.rng.choice(tb.dests), tb.rng.getrandbits(2), tb.rng.randint(0, one_beat_max))
                     for _ in range(40)]
            await tb.run_batch(small, idle=0.2, bp=0.3, ack_prob=0.05)
            small = [(tb.rng.choice(tb.dests), tb.rng.getrandbits(2), tb.rng.randint(0, one_beat_max))
                     for _ in range(60)]
            util1 = occupancy(await tb.run_batch(small, idle=0.0, bp=0.0, ack_prob=0.02))
            dut._log.info("phase min_frame=%d fcs=%d: one-beat backlog MAC bus occupancy %.4f", min_frame, fcs, util1)
            assert util1 == 1.0, f"MAC bus occupancy {util1:.4f} < 1.0 with a backlog of one-beat frames"

        # 3. throughput: a backlog of PDUs of several sizes, no idle, no back-pressure
        sizes = [2, 40, 64, 130, 256, 500, 1000, 1500, 4096, tb.n, 2 * tb.n]
        pdus = [(tb.rng.choice(tb.dests), tb.rng.getrandbits(2), tb.rng.choice(sizes)) for _ in range(60)]
        taken = await tb.run_batch(pdus, idle=0.0, bp=0.0, ack_prob=0.02)
        util = occupancy(taken)
        dut._log.info("phase min_frame=%d fcs=%d: MAC bus occupancy with a backlog %.4f (%d frames)",
                      min_frame, fcs, util, len(taken))
        assert util == 1.0, f"MAC bus occupancy {util:.4f} < 1.0 with a backlog"
        metrics[f"{min_frame}:{fcs}"] = {"latency": max(lat), "utilization": util}
    tb.pcap.close()
    if METRICS:
        with open(METRICS, "w") as fh:
            json.dump(metrics, fh)
