# SPDX-License-Identifier: Apache-2.0
"""Decoder for complete SUE frames (ARCHITECTURE.md §5), built on scapy's standard layers and
common.sue_layers: network header of any of the six encapsulations (+ 802.1Q), RH, the PDU
region (ops and padding), R-CRC and optional FCS.

    f = decode(frame, encap=0, vlan=True, fcs=False)
    f.net["dst"], f.rh.psn, f.payload, f.rcrc_ok, f.fcs_ok

``decode`` raises ``SueFrameError`` on anything structurally malformed (wrong EtherType, bad IP
version/IHL/protocol, IPv4 header checksum, IP/UDP length fields that disagree with the frame,
AFH key bits, RH version, too short); the CRCs are reported as ``rcrc_ok`` / ``fcs_ok`` so a
test can assert on them (or call ``f.check()``, which raises when either is bad).

Encapsulation codes (the generator's ``encap``): 0 STD_IPV4, 1 STD_IPV6, 2 AFH1, 3 AFH1_SHIM,
4 AFH2_NORMAL, 5 AFH2_COMPRESSED. Header lengths are derived from the field sizes of §5, not
from the RTL.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field

from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Dot1Q, Ether
from scapy.utils import checksum

from .sue_layers import RH, AFHGen1Shim, AFHGen2, AFHGen2Compressed

STD_IPV4, STD_IPV6, AFH1, AFH1_SHIM, AFH2_NORMAL, AFH2_COMPRESSED = range(6)
NAMES = ["std_ipv4", "std_ipv6", "afh1", "afh1_shim", "afh2_normal", "afh2_compressed"]
ETHERTYPE_SUE = 0x88B5
ETHERTYPE_SHIM = 0x88B6
_BASE = {STD_IPV4: 14 + 20 + 8, STD_IPV6: 14 + 40 + 8, AFH1: 14, AFH1_SHIM: 14 + 8, AFH2_NORMAL: 12 + 2,
         AFH2_COMPRESSED: 6 + 2}
RH_BYTES = 8
CRC_BYTES = 4


class SueFrameError(ValueError):
    """The frame is not a well-formed SUE frame of the expected encapsulation."""


def header_bytes(encap: int, vlan: bool) -> int:
    """Network header length (everything before the RH)."""
    if encap not in _BASE:
        raise ValueError(f"encap must be 0..5, got {encap}")
    if vlan and encap not in (STD_IPV4, STD_IPV6, AFH1, AFH1_SHIM):
        raise ValueError(f"802.1Q is not allowed with {NAMES[encap]}")
    return _BASE[encap] + (4 if vlan else 0)


@dataclass
class SueFrame:
    encap: int
    vlan: bool
    header_len: int
    net: dict = field(default_factory=dict)  # network header fields (names below)
    rh: RH | None = None
    payload: bytes = b""  # bytes between the RH and the R-CRC: ops and zero padding
    rcrc: int = 0
    rcrc_ok: bool = False
    fcs: int | None = None
    fcs_ok: bool | None = None
    length: int = 0  # frame bytes as given (with the FCS when fcs=True)

    def check(self) -> "SueFrame":
        if not self.rcrc_ok:
            raise SueFrameError(f"R-CRC mismatch: frame has {self.rcrc:#010x}")
        if self.fcs_ok is False:
            raise SueFrameError(f"FCS mismatch: frame has {self.fcs:#010x}")
        return self


# The EtherType that marks a frame of each encapsulation with an Ethernet header (after the 802.1Q
# tag when there is one); AFH Gen 2 headers replace the Ethernet header and have none there.
_ETHERTYPE = {STD_IPV4: 0x0800, STD_IPV6: 0x86DD, AFH1: ETHERTYPE_SUE, AFH1_SHIM: ETHERTYPE_SHIM}
OPS, ACK_ONLY, OTHER = "ops", "ack_only", "other"


def classify(frame: bytes, encap: int, vlan: bool, fcs: bool) -> str:
    """``OPS`` for a SUE frame whose PDU region starts with an op (its first byte is not padding),
    ``ACK_ONLY`` for a SUE frame without ops, ``OTHER`` for a frame of another EtherType (control
    frames) or too short for an RH. Reads the EtherType and the one byte at the offset the
    encapsulation fixes, without decoding or checking the frame: benches ask it of every frame, and
    ``decode`` costs a hundred times more."""
    header = header_bytes(encap, vlan)
    if encap in _ETHERTYPE:
        at = 16 if vlan else 12
        if int.from_bytes(frame[at:at + 2], "big") != _ETHERTYPE[encap]:
            return OTHER
    start = header + RH_BYTES
    end = len(frame) - CRC_BYTES - (CRC_BYTES if fcs else 0)
    if start > end:
        return OTHER
    return OPS if start < end and frame[start] != 0 else ACK_ONLY


def _fail(msg: str):
    raise SueFrameError(msg)


def decode(frame: bytes, encap: int, vlan: bool, fcs: bool) -> SueFrame:
    """Decodes one frame; see the module docstring."""
    frame = bytes(frame)
    h = header_bytes(encap, vlan)
    tail = CRC_BYTES + (CRC_BYTES if fcs else 0)
    if len(frame) < h + RH_BYTES + tail:
        _fail(f"frame of {len(frame)} bytes is shorter than header {h} + RH 8 + CRC(s) {tail}")
    body = frame[:-4] if fcs else frame  # without FCS
    f = SueFrame(encap=encap, vlan=vlan, header_len=h, length=len(frame))
    net = f.net
    if encap in (STD_IPV4, STD_IPV6, AFH1, AFH1_SHIM):
        eth = Ether(body[:h])
        net["dst"], net["src"] = eth.dst, eth.src
        layer = eth
        if vlan:
            if eth.type != 0x8100 or not eth.haslayer(Dot1Q):
                _fail(f"expected an 802.1Q tag, EtherType {eth.type:#06x}")
            tag = eth[Dot1Q]
            net["pcp"], net["dei"], net["vid"] = tag.prio, tag.dei, tag.vlan
            layer = tag
        etype = layer.type
        if encap == STD_IPV4:
            if etype != 0x0800:
                _fail(f"expected IPv4 EtherType 0x0800, got {etype:#06x}")
            ip_off = h - 28
            ip_raw = body[ip_off:ip_off + 20]
            ip = IP(body[ip_off:])
            if ip.version != 4 or ip.ihl != 5 or ip.proto != 17:
                _fail(f"IPv4 version/IHL/protocol {ip.version}/{ip.ihl}/{ip.proto}, expected 4/5/17")
            zeroed = ip_raw[:10] + b"\0\0" + ip_raw[12:]
            if checksum(zeroed) != ip.chksum:
                _fail(f"IPv4 header checksum {ip.chksum:#06x}, computed {checksum(zeroed):#06x}")
            if ip.len != len(body) - ip_off:
                _fail(f"IPv4 total length {ip.len}, frame carries {len(body) - ip_off}")
            if ip.flags != "DF" or ip.frag != 0:
                _fail(f"IPv4 flags {ip.flags} frag {ip.frag}, expected DF, 0")
            net.update(ip_src=ip.src, ip_dst=ip.dst, dscp=ip.tos >> 2, ecn=ip.tos & 3, ttl=ip.ttl, ip_id=ip.id)
            udp_raw = body[ip_off + 20:]
        elif encap == STD_IPV6:
            if etype != 0x86DD:
                _fail(f"expected IPv6 EtherType 0x86DD, got {etype:#06x}")
            ip_off = h - 48
            ip = IPv6(body[ip_off:])
            if ip.version != 6 or ip.nh != 17:
                _fail(f"IPv6 version/next header {ip.version}/{ip.nh}, expected 6/17")
            if ip.plen != len(body) - ip_off - 40:
                _fail(f"IPv6 payload length {ip.plen}, frame carries {len(body) - ip_off - 40}")
            net.update(ip_src=ip.src, ip_dst=ip.dst, tc=ip.tc, fl=ip.fl, hlim=ip.hlim)
            udp_raw = body[ip_off + 40:]
        elif encap == AFH1:
            if etype != ETHERTYPE_SUE:
                _fail(f"expected EtherType 0x88B5, got {etype:#06x}")
            udp_raw = None
        else:
            if etype != ETHERTYPE_SHIM:
                _fail(f"expected EtherType 0x88B6 (shim), got {etype:#06x}")
            shim = AFHGen1Shim(body[h - 8:h])
            if shim.ver != 0 or shim.type != ETHERTYPE_SUE:
                _fail(f"shim version {shim.ver} / next EtherType {shim.type:#06x}, expected 0 / 0x88B5")
            net.update(dscp=shim.dscp, ecn=shim.ecn, ttl=shim.ttl, entropy=shim.entropy)
            udp_raw = None
        if udp_raw is not None:
            udp = UDP(udp_raw)
            if udp.len != len(udp_raw):
                _fail(f"UDP length {udp.len}, frame carries {len(udp_raw)}")
            net.update(sport=udp.sport, dport=udp.dport, udp_chksum=udp.chksum)
    else:
        hdr = (AFHGen2Compressed if encap == AFH2_COMPRESSED else AFHGen2)(body[:h])
        want_w = 1 if encap == AFH2_COMPRESSED else 0
        if hdr.w != want_w or hdr.x != 1 or hdr.y != 0 or hdr.z != 0 or hdr.v != 0 or hdr.m != 0:
            _fail(f"AFH Gen 2 key octet {body[0]:#04x}: W={hdr.w} (expected {want_w}), X={hdr.x} Y={hdr.y} "
                  f"Z={hdr.z} V={hdr.v} M={hdr.m}")
        if hdr.type != ETHERTYPE_SUE:
            _fail(f"AFH Gen 2 EtherType {hdr.type:#06x}, expected 0x88B5")
        net.update(vc=hdr.vc, dst_xpuid=hdr.dst_xpuid, src_xpuid=hdr.src_xpuid)
        if encap == AFH2_NORMAL:
            net.update(hop_count=hdr.hop_count, entropy=hdr.entropy)
    f.rh = RH(body[h:h + RH_BYTES])
    if f.rh.ver != 0:
        _fail(f"RH version {f.rh.ver}, expected 0")
    f.payload = body[h + RH_BYTES:-CRC_BYTES]
    f.rcrc = int.from_bytes(body[-CRC_BYTES:], "little")
    f.rcrc_ok = zlib.crc32(body[h:-CRC_BYTES]) == f.rcrc
    if fcs:
        f.fcs = int.from_bytes(frame[-4:], "little")
        f.fcs_ok = zlib.crc32(body) == f.fcs
    return f
