# SPDX-License-Identifier: Apache-2.0
"""scapy layers for the SUE wire profile, written from ARCHITECTURE.md §5 (the normative
wire profile), independently of the RTL:

* ``RH``: the 8-byte reliability header.
* ``AFHGen1Shim``: the 8-byte AFH Gen 1 shim after EtherType 0x88B6.
* ``AFHGen2`` (normal form, W=0, 12 bytes + EtherType) and ``AFHGen2Compressed`` (W=1,
  6 bytes + EtherType). They take the place of the Ethernet DA/SA, so they are outermost
  layers: use ``dissect_afh2(data)`` (dispatches on the key octet's W bit).

Bindings: Ethernet / 802.1Q EtherType 0x88B5 -> RH, 0x88B6 -> AFHGen1Shim; shim next
EtherType 0x88B5 -> RH; UDP destination port 50000 (the default) -> RH; AFH Gen 2 EtherType
0x88B5 -> RH. Everything after the RH stays ``Raw`` (ops, padding, R-CRC).
"""

from __future__ import annotations

from scapy.fields import BitField, ByteField, IntField, ShortField, XShortField
from scapy.layers.inet import UDP
from scapy.layers.l2 import Dot1Q, Ether
from scapy.packet import Packet, bind_layers

ETHERTYPE_SUE = 0x88B5
ETHERTYPE_AFH1_SHIM = 0x88B6
UDP_PORT_SUE = 50000

RH_OPS = {0: "ACK", 1: "NACK", 2: "NOACK", 3: "RSVD"}


class RH(Packet):
    """Reliability header: ver[1:0] op[1:0] conn_move[1:0] xpuid[9:0] | psn[15:0] |
    vc[1:0] plane[1:0] move[1:0] partition[9:0] | rpsn[15:0], MSB first. ``plane``: the port
    (plane) the PDU's sequence belongs to in an endpoint of 2 or 4 ports (0 with one port);
    ``move``: the sender's count of its own moves of that plane to another port, modulo 4
    (sue-rtl/DESIGN-PORTS.md, "Follow"; 0 with one port); ``conn_move``: the sender's count of its
    own moves of the PDU's connection, modulo 4 ("Failover per connection"; 0 with one port)."""

    name = "SUE RH"
    fields_desc = [
        BitField("ver", 0, 2),
        BitField("op", 2, 2),
        BitField("conn_move", 0, 2),
        BitField("xpuid", 0, 10),
        ShortField("psn", 0),
        BitField("vc", 0, 2),
        BitField("plane", 0, 2),
        BitField("move", 0, 2),
        BitField("partition", 0, 10),
        ShortField("rpsn", 0),
    ]


class AFHGen1Shim(Packet):
    """AFH Gen 1 shim: ver 4 (=0), rsv 4; DSCP 6, ECN 2; TTL 8; rsv 8; entropy 16; next EtherType 16."""

    name = "AFH Gen1 shim"
    fields_desc = [
        BitField("ver", 0, 4),
        BitField("rsv", 0, 4),
        BitField("dscp", 0, 6),
        BitField("ecn", 0, 2),
        ByteField("ttl", 64),
        ByteField("rsv2", 0),
        ShortField("entropy", 0),
        XShortField("type", ETHERTYPE_SUE),
    ]


# Key octet, bit 7 first (scapy BitFields are MSB first): bit7 W, bit6 V, bits5:4 VC,
# bit3 Z, bit2 Y, bit1 X, bit0 M.
_KEY = [
    BitField("w", 0, 1),
    BitField("v", 0, 1),
    BitField("vc", 0, 2),
    BitField("z", 0, 1),
    BitField("y", 0, 1),
    BitField("x", 1, 1),
    BitField("m", 0, 1),
]


class AFHGen2(Packet):
    """AFH Gen 2 normal form (W=0): key, hop count 8, dst xpuid 32, entropy 16, src xpuid 32, EtherType."""

    name = "AFH Gen2 normal"
    fields_desc = [
        *(f.copy() for f in _KEY),
        ByteField("hop_count", 64),
        IntField("dst_xpuid", 0),
        ShortField("entropy", 0),
        IntField("src_xpuid", 0),
        XShortField("type", ETHERTYPE_SUE),
    ]


class AFHGen2Compressed(Packet):
    """AFH Gen 2 compressed form (W=1): key, reserved 8, dst xpuid 16, src xpuid 16, EtherType."""

    name = "AFH Gen2 compressed"
    fields_desc = [
        *(f.copy() for f in _KEY),
        ByteField("reserved", 0),
        ShortField("dst_xpuid", 0),
        ShortField("src_xpuid", 0),
        XShortField("type", ETHERTYPE_SUE),
    ]


def dissect_afh2(data: bytes) -> Packet:
    """Parse an AFH Gen 2 frame: the key octet's W bit (bit 7 of byte 0) selects the form."""
    return AFHGen2Compressed(data) if data[0] & 0x80 else AFHGen2(data)


bind_layers(Ether, RH, type=ETHERTYPE_SUE)
bind_layers(Dot1Q, RH, type=ETHERTYPE_SUE)
bind_layers(Ether, AFHGen1Shim, type=ETHERTYPE_AFH1_SHIM)
bind_layers(Dot1Q, AFHGen1Shim, type=ETHERTYPE_AFH1_SHIM)
bind_layers(AFHGen1Shim, RH, type=ETHERTYPE_SUE)
bind_layers(AFHGen2, RH, type=ETHERTYPE_SUE)
bind_layers(AFHGen2Compressed, RH, type=ETHERTYPE_SUE)
bind_layers(UDP, RH, dport=UDP_PORT_SUE)
