# SPDX-License-Identifier: Apache-2.0
"""Plain Python model of the RX delivery rules (sue-rtl/DESIGN-RX.md, "RX buffer, unpacker and
XPU RX interface"; ARCHITECTURE.md §5 op format), written from the documents, not from the RTL.

* ``walk(region, table)``: the ops of a stored PDU's op region, or None when the PDU is
  malformed (then none of its ops is delivered).
* ``expected_beats(op, bpb)``: the rx_* beats an op must produce (control zero-padded to 18
  bytes, data split in beats of bpb bytes, zero past the length).
"""

from __future__ import annotations

PAD = 0x00
CONTROL_BYTES = 18


def walk(region: bytes, table: dict[int, tuple[int, int]]) -> list[tuple[bytes, bytes]] | None:
    """Ops back to back from byte 0, each 2-byte aligned (odd total -> one pad byte), stopping at a
    PAD type byte or at the end. Unknown/invalid type or an op running past the end: None."""
    ops, i = [], 0
    while i < len(region):
        t = region[i]
        if t == PAD:
            break
        if t not in table:
            return None
        data_present, units = table[t]
        ctrl = 2 * units
        length_m1 = region[i + 1] if i + 1 < len(region) else 0
        data = length_m1 + 1 if data_present else 0
        total = ctrl + data + (data & 1)
        if i + total > len(region):
            return None
        ops.append((region[i:i + ctrl], region[i + ctrl:i + ctrl + data]))
        i += total
    return ops


def rx_valid_of(op: tuple[bytes, bytes]) -> int:
    """Table 2 rx_valid: 1 command only, 2 command with data."""
    return 2 if op[1] else 1


def expected_beats(op: tuple[bytes, bytes], bpb: int) -> list[tuple[int, int, bytes, bytes]]:
    """(rx_valid, rx_cycle, control (18 bytes), data (bpb bytes)) per beat of the op."""
    control, data = op
    ctl = control.ljust(CONTROL_BYTES, b"\0")
    if not data:
        return [(1, 0, ctl, bytes(bpb))]
    beats = []
    for i in range(0, len(data), bpb):
        beats.append((2, i // bpb, ctl, data[i:i + bpb].ljust(bpb, b"\0")))
    return beats


def pdu_words(length: int, bpb: int) -> int:
    """Buffer words a PDU occupies: its beats (an empty op region is one beat)."""
    return max(1, -(-length // bpb))
