# SPDX-License-Identifier: Apache-2.0
"""common.sue_frames on frames built with scapy (independent of the RTL): every encapsulation
decodes, CRCs are checked, and malformed frames raise SueFrameError with a clear message."""

from __future__ import annotations

import zlib

import pytest
from scapy.layers.inet import IP, UDP
from scapy.layers.inet6 import IPv6
from scapy.layers.l2 import Dot1Q, Ether

from common.sue_frames import SueFrameError, decode, header_bytes
from common.sue_layers import RH, AFHGen1Shim, AFHGen2, AFHGen2Compressed

PAYLOAD = bytes(range(40))


def build(encap, vlan, fcs, rh=None, payload=PAYLOAD):
    rh = rh or RH(op=1, xpuid=0x2AB, psn=0xFFFE, vc=3, partition=0x155, rpsn=77)
    pdu = bytes(rh) + payload
    pdu += zlib.crc32(pdu).to_bytes(4, "little")
    eth = Ether(dst="02:00:00:00:00:05", src="02:00:00:00:00:01")
    l2 = eth / Dot1Q(prio=5, vlan=100) if vlan else eth
    if encap == 0:
        f = l2 / IP(src="10.0.0.1", dst="10.0.0.2", flags="DF", ttl=64) / UDP(sport=0xC004, dport=50000, chksum=0)
    elif encap == 1:
        f = l2 / IPv6(src="fd00::1", dst="fd00::2", fl=0xC004) / UDP(sport=0xC004, dport=50000, chksum=0)
    elif encap == 2:
        f = l2
        f.lastlayer().type = 0x88B5
    elif encap == 3:
        f = l2 / AFHGen1Shim(entropy=7)
    elif encap == 4:
        f = AFHGen2(vc=2, dst_xpuid=5, src_xpuid=9)
    else:
        f = AFHGen2Compressed(w=1, vc=2, dst_xpuid=5, src_xpuid=9)
    raw = bytes(f) + pdu if encap in (2, 4, 5) else bytes(f / pdu)
    if fcs:
        raw += zlib.crc32(raw).to_bytes(4, "little")
    return raw


@pytest.mark.parametrize("encap,vlan", [(0, False), (0, True), (1, False), (1, True), (2, False), (2, True),
                                        (3, False), (3, True), (4, False), (5, False)])
@pytest.mark.parametrize("fcs", [False, True])
def test_decodes(encap, vlan, fcs):
    raw = build(encap, vlan, fcs)
    f = decode(raw, encap, vlan, fcs).check()
    assert f.header_len == header_bytes(encap, vlan)
    assert (f.rh.op, f.rh.xpuid, f.rh.psn, f.rh.vc, f.rh.partition, f.rh.rpsn) == (1, 0x2AB, 0xFFFE, 3, 0x155, 77)
    assert f.payload == PAYLOAD and f.rcrc_ok and f.fcs_ok in ((True,) if fcs else (None,))
    # a flipped payload bit breaks the R-CRC (and the FCS)
    bad = bytearray(raw)
    bad[f.header_len + 10] ^= 1
    g = decode(bytes(bad), encap, vlan, fcs)
    assert not g.rcrc_ok and g.fcs_ok in ((False,) if fcs else (None,))
    with pytest.raises(SueFrameError, match="R-CRC mismatch"):
        g.check()


def test_malformed():
    raw = bytearray(build(0, False, False))
    raw[24] ^= 0xFF  # IPv4 header checksum byte
    with pytest.raises(SueFrameError, match="IPv4 header checksum"):
        decode(bytes(raw), 0, False, False)
    with pytest.raises(SueFrameError, match="expected IPv6 EtherType"):
        decode(build(0, False, False), 1, False, False)
    with pytest.raises(SueFrameError, match="shorter than header"):
        decode(bytes(20), 2, False, False)
    with pytest.raises(SueFrameError, match="IPv4 total length"):
        decode(build(0, False, False) + b"\0\0", 0, False, False)
    with pytest.raises(SueFrameError, match="RH version"):
        decode(build(2, False, False, rh=RH(ver=1)), 2, False, False)
    with pytest.raises(SueFrameError, match="key octet"):
        decode(build(4, False, False), 5, False, False)
    with pytest.raises(ValueError, match="802.1Q is not allowed"):
        decode(build(4, False, False), 4, True, False)
