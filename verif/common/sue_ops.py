# SPDX-License-Identifier: Apache-2.0
"""Op-level model of SUE traffic, written from ARCHITECTURE.md §5/§6 and the signal table in
sue-rtl/README.md, independently of the RTL.

* ``CommandTable``: the XPU's 256-entry command-type table (type -> data present, control
  length in 2-byte units), with a random generator and the configuration writes for it.
* ``Op`` and ``Op.wire_bytes()``: an op as it must appear in a PDU (control bytes, data bytes,
  one zero byte when the total is odd).
* ``walk_ops(payload, table)``: splits a PDU's op region into ops the way a receiver does
  (stopping at PAD, type 0x00, after which only zero bytes may follow).
* ``XpuTx``: a Python XPU on the ``tx_*`` credit FIFO interface: one queue per VC, starts an
  op only with a command credit and a data credit per beat, counts returned credits, random
  idle cycles; remembers the cycle each op was accepted (for latency).
* Wire-efficiency arithmetic: frame bytes on the wire, the ideal packing bound, and RoCEv2's
  per-operation overhead for the same op.
"""

from __future__ import annotations

import random
from collections import deque
from dataclasses import dataclass, field

PAD_TYPE = 0x00
PREAMBLE_IFG = 8 + 12  # preamble + SFD, minimum inter-frame gap
FCS_BYTES = 4
RH_BYTES = 8
RCRC_BYTES = 4

# Network header bytes before the RH, per encapsulation code (ARCHITECTURE.md §5), without/with VLAN.
HEADER_BYTES = {0: (42, 46), 1: (62, 66), 2: (14, 18), 3: (22, 26), 4: (14, None), 5: (8, None)}

# RoCEv2 RDMA WRITE, one op per packet: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + RETH 16 + ICRC 4,
# plus FCS 4 and preamble/IFG 20 on the wire.
ROCEV2_OVERHEAD = 14 + 20 + 8 + 12 + 16 + 4 + FCS_BYTES + PREAMBLE_IFG


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


class CommandTable:
    """type -> (data_present, units) for the valid types; PAD (0) is never valid."""

    def __init__(self, entries: dict[int, tuple[int, int]]):
        for t, (dp, units) in entries.items():
            if t == PAD_TYPE or not 1 <= units <= 9 or dp not in (0, 1):
                raise ValueError(f"bad command table entry {t:#x}: {(dp, units)}")
        self.entries = dict(entries)

    @classmethod
    def random(cls, rng: random.Random, n_data: int = 6, n_cmd: int = 4) -> "CommandTable":
        types = rng.sample(range(1, 256), n_data + n_cmd)
        entries = {t: (1, rng.randint(1, 9)) for t in types[:n_data]}
        entries.update({t: (0, rng.randint(1, 9)) for t in types[n_data:]})
        return cls(entries)

    def types(self, data_present: int) -> list[int]:
        return sorted(t for t, (dp, _) in self.entries.items() if dp == data_present)

    def cfg_word(self, t: int) -> int:
        """The CMD_TYPE register value: {data_present[4], units[3:0]}."""
        dp, units = self.entries[t]
        return dp << 4 | units

    def op_length(self, control: bytes) -> int:
        """Bytes the op occupies in a PDU (2-byte aligned), from its first two control bytes."""
        dp, units = self.entries[control[0]]
        data = control[1] + 1 if dp else 0
        return 2 * units + data + ((2 * units + data) & 1)


@dataclass
class Op:
    dest: int
    vc: int
    control: bytes  # 18 bytes as driven on tx_control (byte k = tx_control[8k+7:8k])
    data: bytes  # the data bytes (0..256)
    ctrl_len: int
    seq: int = 0  # order of submission within its {dest, vc}
    accepted_cycle: int | None = None  # cycle of the first beat on tx_*
    last_beat_cycle: int | None = None  # cycle of the last beat (beats are consecutive)

    def wire_bytes(self) -> bytes:
        b = self.control[: self.ctrl_len] + self.data
        return b + bytes(len(b) & 1)


def random_op(rng: random.Random, table: CommandTable, dest: int, vc: int,
              data_len: int | None = None, data_present: int | None = None, cmd_type: int | None = None) -> Op:
    if cmd_type is not None:
        data_present = table.entries[cmd_type][0]
    if data_present is None:
        data_present = 1 if data_len else (rng.random() < 0.75)
    t = cmd_type if cmd_type is not None else rng.choice(table.types(int(data_present)))
    _, units = table.entries[t]
    control = bytearray(rng.getrandbits(8) for _ in range(18))
    control[0] = t
    data = b""
    if data_present:
        n = data_len if data_len is not None else rng.choice([1, 2, 7, 8, 31, 32, 64, 100, 255, 256,
                                                              rng.randint(1, 256)])
        control[1] = n - 1
        data = bytes(rng.getrandbits(8) for _ in range(n))
    return Op(dest, vc, bytes(control), data, 2 * units)


def walk_ops(payload: bytes, table: CommandTable) -> list[bytes]:
    """Splits a PDU's op region (RH and R-CRC removed) into op byte strings.

    Stops at the end or at a PAD type; everything after PAD must be zero. Raises ValueError for
    an unknown type or an op running past the end.
    """
    ops, i = [], 0
    while i < len(payload):
        t = payload[i]
        if t == PAD_TYPE:
            if any(payload[i:]):
                raise ValueError(f"non-zero bytes after PAD at offset {i}")
            break
        if t not in table.entries:
            raise ValueError(f"unknown command type {t:#04x} at offset {i}")
        if i + 2 > len(payload):
            raise ValueError(f"op header at {i} runs past the end ({len(payload)})")
        n = table.op_length(payload[i: i + 2])
        if i + n > len(payload):
            raise ValueError(f"op at {i} of {n} bytes runs past the end ({len(payload)})")
        ops.append(payload[i: i + n])
        i += n
    return ops


# ---- wire efficiency -----------------------------------------------------------------------

def frame_wire_bytes(header: int, pdu_ops: int, min_frame: int = 64) -> int:
    """Bytes one SUE frame takes on the wire: header + RH + ops + pad + R-CRC + FCS + preamble/IFG."""
    frame = max(header + RH_BYTES + pdu_ops + RCRC_BYTES + FCS_BYTES, min_frame)
    return frame + PREAMBLE_IFG


def ideal_efficiency(header: int, op_bytes: int, data_bytes: int, pack_limit: int) -> float:
    """Data bytes per wire byte when every PDU holds as many ops as the pack limit allows."""
    per_pdu = max(1, pack_limit // op_bytes)
    return per_pdu * data_bytes / frame_wire_bytes(header, per_pdu * op_bytes)


def mac_bus_op_bound(header: int, op_bytes: int, pack_limit: int, width_bytes: int, min_frame: int = 64,
                     fcs_by_sue: bool = False) -> float:
    """The wire bound of the op rate: ops per cycle a MAC bus of ``width_bytes`` bytes per beat,
    always ready, can carry when every PDU holds as many ops as the pack limit allows.

    A frame on the MAC bus is header + RH + ops + R-CRC (+ FCS when the endpoint appends it), padded
    to ``min_frame`` including the FCS, and starts on a beat of its own, so it takes
    ceil(bytes / width_bytes) beats; preamble and IFG are the MAC's and take no bus beat. This is
    the one definition of the bound behind ``tx.op_rate_fraction``.
    """
    per_pdu = max(1, pack_limit // op_bytes)
    fcs = FCS_BYTES if fcs_by_sue else 0
    frame = max(header + RH_BYTES + per_pdu * op_bytes + RCRC_BYTES + fcs, min_frame - (FCS_BYTES - fcs))
    return per_pdu / ceil_div(frame, width_bytes)


def rocev2_efficiency(data_bytes: int) -> float:
    return data_bytes / (data_bytes + ROCEV2_OVERHEAD)


# ---- a Python XPU on the tx_* interface ------------------------------------------------------

@dataclass
class _Plan:
    op: Op
    beats: list[bytes] = field(default_factory=list)


class XpuTx:
    """Drives ``tx_*`` (spec Table 1, encodings of sue-rtl/README.md) with good ops, within credits.

    ``submit(op)`` queues an op on its VC; ``drive()`` before and ``sample(cycle)`` after each
    clock edge (as a ClockedBench agent). Credits: ``tx_credit`` = {valid, kind (0 command,
    1 data beat), vc[1:0], count-1[1:0]}.
    """

    def __init__(self, dut, rng: random.Random, width_bytes: int, idle: float = 0.0, xpuid_bits: int = 10):
        self.dut, self.rng, self.bpb, self.idle = dut, rng, width_bytes, idle
        self.queues: list[deque[Op]] = [deque() for _ in range(4)]
        self.credits = {(vc, k): 0 for vc in range(4) for k in range(2)}
        self.beats: deque[tuple[int, int, bytes, Op]] = deque()
        self.accepted: list[Op] = []
        self.cycle = 0
        self.paused = False
        self._idle_driven = False
        self._drive_idle()
        dut.tx_reset_in.value = 0

    def submit(self, op: Op) -> None:
        self.queues[op.vc].append(op)

    @property
    def idle_now(self) -> bool:
        return not self.beats and not any(self.queues)

    def _drive_idle(self) -> None:
        """Valid low with junk on the other signals (the DUT must ignore them), new junk at the start
        of each idle stretch: writing 1,200 bits of junk in every idle cycle was the largest Python
        cost of the long pair runs (the soak, 2026-11)."""
        if self._idle_driven:
            return
        self._idle_driven = True
        d = self.dut
        d.tx_valid.value = 0
        d.tx_cycle.value = self.rng.getrandbits(4)
        d.tx_vc.value = self.rng.getrandbits(2)
        d.tx_xpuid.value = self.rng.getrandbits(10)
        d.tx_control.value = self.rng.getrandbits(144)
        d.tx_data.value = self.rng.getrandbits(len(d.tx_data))
        d.tx_err.value = 0

    def _startable(self, op: Op) -> bool:
        beats = ceil_div(len(op.data), self.bpb) if op.data else 0
        return self.credits[(op.vc, 0)] >= 1 and self.credits[(op.vc, 1)] >= beats

    def drive(self) -> None:
        if not self.beats and not self.paused and self.rng.random() >= self.idle:
            ready = [q for q in self.queues if q and self._startable(q[0])]
            if ready:
                op = self.rng.choice(ready).popleft()
                n = ceil_div(len(op.data), self.bpb) if op.data else 0
                self.credits[(op.vc, 0)] -= 1
                self.credits[(op.vc, 1)] -= n
                op.accepted_cycle = self.cycle
                op.last_beat_cycle = self.cycle + max(n, 1) - 1
                self.accepted.append(op)
                for i in range(max(n, 1)):
                    self.beats.append((i, 2 if op.data else 1, op.data[i * self.bpb:(i + 1) * self.bpb], op))
        if not self.beats:
            self._drive_idle()
            return
        i, valid, chunk, op = self.beats.popleft()
        self._idle_driven = False
        d = self.dut
        d.tx_valid.value = valid
        d.tx_cycle.value = i
        d.tx_vc.value = op.vc
        d.tx_xpuid.value = op.dest
        d.tx_control.value = int.from_bytes(op.control, "little") if i == 0 else self.rng.getrandbits(144)
        d.tx_data.value = int.from_bytes(chunk.ljust(self.bpb, b"\0"), "little")
        d.tx_err.value = 0

    def sample(self) -> None:
        c = int(self.dut.tx_credit.value)
        if c >> 5:
            self.credits[((c >> 2) & 3, (c >> 4) & 1)] += (c & 3) + 1
        self.cycle += 1
