# SPDX-License-Identifier: Apache-2.0
"""Plain-Python reference of the receive classification rules of sue-rtl/DESIGN-RX.md
(written from the document, not from the RTL): for one frame (bytes as received, FCS included
when the endpoint checks it) and the MAC error flag, what the parser must do.

Result: ``Verdict(kind, reason, desc, out)``
* kind "ctl": the frame goes whole to the control output (``ctl_err`` = err or bad FCS).
* kind "pass"/"drop" with ``reason`` (a counter name) for SUE frames.
* ``out``: None (nothing delivered) or (bytes delivered on m, commit, desc, length or None).
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from common.sue_frame_builder import header_bytes

REASONS = ("mac_err", "fcs", "trunc", "over", "hdr", "len", "csum", "rcrc", "ver", "op", "src", "part")


@dataclass
class RxConfig:
    encap: int
    vlan: bool
    num_xpus: int
    own_mac: int = 0
    own_ip: int = 0
    own_xpuid: int = 0
    udp_port: int = 50000
    da_prefix: int = 0x02000000
    partition: list = field(default_factory=list)
    fcs: bool = False
    max_pdu: int = 4096
    beat_bytes: int = 64


@dataclass
class Verdict:
    kind: str
    reason: str | None
    desc: dict | None = None
    out: tuple | None = None
    ctl_err: int = 0


def be(b: bytes) -> int:
    return int.from_bytes(b, "big")


def fcs_ok(frame: bytes) -> bool:
    return len(frame) >= 4 and zlib.crc32(frame[:-4]) == int.from_bytes(frame[-4:], "little")


def classify(cfg: RxConfig, frame: bytes, err: int) -> Verdict:
    enc, vlan = cfg.encap, cfg.vlan
    f = 4 if cfg.fcs else 0
    n = len(frame)
    hb = header_bytes(enc, vlan)
    ob = hb + 8
    bad_fcs = cfg.fcs and not fcs_ok(frame)
    ctl = Verdict("ctl", None, ctl_err=int(bool(err) or bad_fcs))
    if n - f < hb:
        return ctl
    h = frame
    e = 18 if vlan else 14
    tag_ok = (not vlan) or be(h[12:14]) == 0x8100
    hdr_bad = len_hdr_bad = csum_bad = False
    exp_e = None
    if enc == 0:
        ident = (be(h[0:6]) == cfg.own_mac and tag_ok and be(h[e - 2:e]) == 0x0800 and h[e + 9] == 17
                 and be(h[e + 16:e + 20]) == cfg.own_ip & 0xFFFFFFFF and be(h[e + 22:e + 24]) == cfg.udp_port)
        hdr_bad = h[e] != 0x45 or (be(h[e + 6:e + 8]) & 0x3FFF) != 0
        total = be(h[e + 2:e + 4])
        len_hdr_bad = be(h[e + 24:e + 26]) + 20 != total
        exp_e = total + e - 4
        s = sum(be(h[e + 2 * i:e + 2 * i + 2]) for i in range(10))
        s1 = (s & 0xFFFF) + (s >> 16)
        s2 = ((s1 & 0xFFFF) + (s1 >> 16)) & 0xFFFF
        csum_bad = s2 != 0xFFFF
    elif enc == 1:
        ident = (be(h[0:6]) == cfg.own_mac and tag_ok and be(h[e - 2:e]) == 0x86DD and h[e + 6] == 17
                 and be(h[e + 24:e + 40]) == cfg.own_ip and be(h[e + 42:e + 44]) == cfg.udp_port)
        hdr_bad = (h[e] >> 4) != 6
        plen = be(h[e + 4:e + 6])
        len_hdr_bad = be(h[e + 44:e + 46]) != plen
        exp_e = plen + e + 36
    elif enc in (2, 3):
        ident = (be(h[0:4]) == cfg.da_prefix and be(h[4:6]) == cfg.own_xpuid & 0xFFFF and tag_ok
                 and be(h[e - 2:e]) == (0x88B5 if enc == 2 else 0x88B6))
        if enc == 3:
            ident = ident and be(h[e + 6:e + 8]) == 0x88B5
            hdr_bad = (h[e] >> 4) != 0
    elif enc == 4:
        ident = (h[0] & 0x8F) == 0x02 and be(h[2:6]) == cfg.own_xpuid and be(h[12:14]) == 0x88B5
        hdr_bad = bool(h[0] & 0x40)
    else:
        ident = (h[0] & 0x8F) == 0x82 and be(h[2:4]) == cfg.own_xpuid & 0xFFFF and be(h[6:8]) == 0x88B5
        hdr_bad = bool(h[0] & 0x40)
    if not ident:
        return ctl

    end = n - f - 4  # op region end (E)
    trunc = end < ob
    rh = (frame[hb:ob] + bytes(8))[:8] if not trunc else bytes(8)
    desc = dict(src=((rh[0] & 3) << 8) | rh[1], vc=rh[4] >> 6, psn=be(rh[2:4]), op=(rh[0] >> 4) & 3,
                rpsn=be(rh[6:8]), partition=((rh[4] & 3) << 8) | rh[5])
    ver_bad = (rh[0] >> 6) != 0
    op_bad = desc["op"] == 3
    src_bad = desc["src"] >= cfg.num_xpus
    part_bad = (not src_bad) and desc["partition"] != cfg.partition[desc["src"]]
    oplen = end - ob
    over = (not trunc) and oplen > cfg.max_pdu
    len_bad = len_hdr_bad or (exp_e is not None and end != exp_e)
    rcrc_bad = trunc or zlib.crc32(frame[hb:end]) != int.from_bytes(frame[end:end + 4], "little")
    checks = dict(mac_err=bool(err), fcs=bad_fcs, trunc=trunc, over=over, hdr=hdr_bad, len=len_bad,
                  csum=csum_bad, rcrc=rcrc_bad, ver=ver_bad, op=op_bad, src=src_bad, part=part_bad)
    reason = next((r for r in REASONS if checks[r]), None)
    kind = "pass" if reason is None else "drop"
    hdr_drop = hdr_bad or len_hdr_bad or csum_bad or ver_bad or op_bad or src_bad or part_bad
    if hdr_drop or trunc:
        return Verdict(kind, reason, desc, None)
    ops = frame[ob:end]
    bb = cfg.beat_bytes
    nbeats = max(1, -(-len(ops) // bb))
    for j in range(nbeats - 1):
        if (j + 1) * bb > cfg.max_pdu:
            return Verdict(kind, reason, desc, (ops[:(j + 1) * bb], 0, None))
    return Verdict(kind, reason, desc, (ops, int(reason is None), oplen))
