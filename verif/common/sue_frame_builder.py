# SPDX-License-Identifier: Apache-2.0
"""Builds complete SUE frames from ARCHITECTURE.md §5 with scapy and the RH/AFH layers of
``sue_layers`` (independently of the RTL): network header for one of the six encapsulations
(+ optional 802.1Q), RH, ops, zero padding to the minimum frame, R-CRC (``zlib.crc32`` over
RH..padding, least significant byte first) and an optional FCS (``zlib.crc32`` of the frame).

    from common.sue_frame_builder import build, Peer
    frame = build(encap=0, vlan=False, dst=Peer(mac=..., ip=..., xpuid=3), src=Peer(...),
                  rh=dict(op=2, xpuid=5, psn=7, vc=1, partition=9, rpsn=0), ops=b"...", fcs=True)

Encapsulation codes (as ``SueHeaderBuilder``): 0 STD_IPV4, 1 STD_IPV6, 2 AFH1, 3 AFH1_SHIM,
4 AFH2_NORMAL, 5 AFH2_COMPRESSED. ``header_bytes(encap, vlan)`` gives the network header length.
"""

from __future__ import annotations

import ipaddress
import zlib
from dataclasses import dataclass

from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Raw

from common.sue_layers import RH, AFHGen1Shim, AFHGen2, AFHGen2Compressed

HEADER_BYTES = {0: 42, 1: 62, 2: 14, 3: 22, 4: 14, 5: 8}
DEFAULT_PREFIX = 0x02000000


def header_bytes(encap: int, vlan: bool) -> int:
    return HEADER_BYTES[encap] + (4 if vlan else 0)


def mac_str(v: int) -> str:
    return ":".join(f"{b:02x}" for b in v.to_bytes(6, "big"))


@dataclass
class Peer:
    """One end's addresses: MAC (standard), IP (int; IPv4 uses the low 32 bits), fabric xpuid,
    AFH Gen 1 prefix (the DA prefix of frames *to* this peer / SA prefix of frames *from* it)."""
    mac: int = 0
    ip: int = 0
    xpuid: int = 0
    prefix: int = DEFAULT_PREFIX


def rcrc_bytes(pdu: bytes) -> bytes:
    return zlib.crc32(pdu).to_bytes(4, "little")


def build(encap: int, vlan: bool, *, dst: Peer, src: Peer, rh: dict, ops: bytes = b"", fcs: bool = False,
          min_frame: int = 64, udp_dport: int = 50000, entropy: int = 0, vid: int = 0, pcp: int = 0,
          dscp: int = 0, tc: int = 0, hop: int = 64, vc_key: int | None = None, shim_ver: int = 0) -> bytes:
    """A frame from ``src`` to ``dst``; ``rh`` holds the RH fields (ver, op, xpuid, psn, vc,
    partition, rpsn). The PDU is padded with zeros so that the frame plus a 4-byte FCS is at
    least ``min_frame`` bytes. Returns the frame bytes (with the FCS when ``fcs``)."""
    hb = header_bytes(encap, vlan)
    pad = max(0, min_frame - (hb + 8 + len(ops) + 4 + 4))
    rh_bytes = bytes(RH(**rh))
    body = ops + bytes(pad)
    payload = Raw(body + rcrc_bytes(rh_bytes + body))
    vc = rh.get("vc", 0) if vc_key is None else vc_key
    if encap in (0, 1):
        l2 = Ether(dst=mac_str(dst.mac), src=mac_str(src.mac))
        if vlan:
            l2 = l2 / Dot1Q(prio=pcp, vlan=vid)
        if encap == 0:
            l3 = IP(version=4, ihl=5, tos=dscp << 2, id=0, flags="DF", ttl=hop, proto=17,
                    src=str(ipaddress.IPv4Address(src.ip & 0xFFFFFFFF)),
                    dst=str(ipaddress.IPv4Address(dst.ip & 0xFFFFFFFF)))
        else:
            l3 = IPv6(tc=tc, fl=entropy, hlim=hop, nh=17, src=str(ipaddress.IPv6Address(src.ip)),
                      dst=str(ipaddress.IPv6Address(dst.ip)))
        pkt = l2 / l3 / UDP(sport=entropy, dport=udp_dport, chksum=0) / RH(**rh) / payload
    elif encap in (2, 3):
        da = (dst.prefix << 16) | (dst.xpuid & 0xFFFF)
        sa = (src.prefix << 16) | (src.xpuid & 0xFFFF)
        l2 = Ether(dst=mac_str(da), src=mac_str(sa))
        if vlan:
            l2 = l2 / Dot1Q(prio=pcp, vlan=vid)
        if encap == 2:
            l2.lastlayer().type = 0x88B5
            pkt = l2 / RH(**rh) / payload
        else:
            l2.lastlayer().type = 0x88B6
            pkt = l2 / AFHGen1Shim(ver=shim_ver, dscp=dscp, ttl=hop, entropy=entropy, type=0x88B5) / RH(**rh) / payload
    elif encap == 4:
        pkt = AFHGen2(w=0, vc=vc, hop_count=hop, dst_xpuid=dst.xpuid, entropy=entropy, src_xpuid=src.xpuid,
                      type=0x88B5) / RH(**rh) / payload
    elif encap == 5:
        pkt = AFHGen2Compressed(w=1, vc=vc, dst_xpuid=dst.xpuid & 0xFFFF, src_xpuid=src.xpuid & 0xFFFF,
                                type=0x88B5) / RH(**rh) / payload
    else:
        raise ValueError(f"encap must be 0..5, got {encap}")
    frame = bytes(pkt)
    assert len(frame) == hb + 8 + len(body) + 4, (encap, vlan, len(frame))
    if fcs:
        frame += zlib.crc32(frame).to_bytes(4, "little")
    return frame
