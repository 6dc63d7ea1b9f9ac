# SPDX-License-Identifier: Apache-2.0
"""The scapy layers in common/sue_layers.py against byte strings built by hand from
ARCHITECTURE.md §5 (no RTL involved): if these fail, the oracle itself is wrong."""

from __future__ import annotations

from scapy.layers.l2 import Dot1Q, Ether

from common.sue_layers import RH, AFHGen1Shim, AFHGen2, AFHGen2Compressed, dissect_afh2


def test_rh_layout():
    # byte 0: ver[1:0] op[1:0] conn_move[1:0] xpuid[9:8]; byte 1 xpuid[7:0]; psn; byte 4: vc[1:0]
    # plane[1:0] move[1:0] partition[9:8]; byte 5 partition[7:0]; rpsn.
    ver, op, conn_move, xpuid, psn, vc, plane, move, partition, rpsn = 0, 1, 3, 0x2AB, 0x1234, 3, 2, 1, 0x155, 0xBEEF
    raw = bytes([ver << 6 | op << 4 | conn_move << 2 | xpuid >> 8, xpuid & 0xFF, psn >> 8, psn & 0xFF,
                 vc << 6 | plane << 4 | move << 2 | partition >> 8, partition & 0xFF, rpsn >> 8, rpsn & 0xFF])
    assert bytes(RH(ver=ver, op=op, conn_move=conn_move, xpuid=xpuid, psn=psn, vc=vc, plane=plane, move=move,
                    partition=partition, rpsn=rpsn)) == raw
    r = RH(raw)
    assert (r.ver, r.op, r.conn_move, r.xpuid, r.psn, r.vc, r.plane, r.move, r.partition, r.rpsn) == (
        ver, op, conn_move, xpuid, psn, vc, plane, move, partition, rpsn)


def test_afh1_shim_layout():
    raw = bytes([0x00, 46 << 2 | 1, 64, 0, 0xAB, 0xCD, 0x88, 0xB5])
    s = AFHGen1Shim(raw + bytes(8))
    assert (s.ver, s.rsv, s.dscp, s.ecn, s.ttl, s.rsv2, s.entropy, s.type) == (0, 0, 46, 1, 64, 0, 0xABCD, 0x88B5)
    assert isinstance(s.payload, RH)
    frame = Ether(dst="02:00:00:00:00:07", src="02:00:00:00:00:09", type=0x88B6) / s
    assert AFHGen1Shim in Ether(bytes(frame)) and RH in Ether(bytes(frame))
    tagged = Ether(bytes(Ether(type=0x8100) / Dot1Q(prio=5, type=0x88B5) / RH(psn=7)))
    assert tagged[RH].psn == 7


def test_afh2_forms():
    # key octet: bit0 M, bit1 X=1, bit2 Y, bit3 Z, bits 5:4 VC, bit6 V, bit7 W.
    key_normal = 1 << 1 | 2 << 4
    raw = bytes([key_normal, 9]) + (0x01020304).to_bytes(4, "big") + b"\xbe\xef" + (0x0A0B0C0D).to_bytes(4, "big")
    raw += b"\x88\xb5" + bytes(RH(psn=5))
    a = dissect_afh2(raw)
    assert isinstance(a, AFHGen2)
    assert (a.w, a.v, a.vc, a.z, a.y, a.x, a.m, a.hop_count, a.dst_xpuid, a.entropy, a.src_xpuid, a.type) == (
        0, 0, 2, 0, 0, 1, 0, 9, 0x01020304, 0xBEEF, 0x0A0B0C0D, 0x88B5)
    assert a[RH].psn == 5
    key_comp = 1 << 7 | 1 << 1 | 3 << 4 | 1
    raw = bytes([key_comp, 0, 0x12, 0x34, 0x56, 0x78, 0x88, 0xB5]) + bytes(RH(psn=6))
    c = dissect_afh2(raw)
    assert isinstance(c, AFHGen2Compressed)
    assert (c.w, c.vc, c.x, c.m, c.reserved, c.dst_xpuid, c.src_xpuid, c.type) == (1, 3, 1, 1, 0, 0x1234, 0x5678,
                                                                                    0x88B5)
    assert c[RH].psn == 6
    assert len(bytes(AFHGen2())) == 14 and len(bytes(AFHGen2Compressed(w=1))) == 8
