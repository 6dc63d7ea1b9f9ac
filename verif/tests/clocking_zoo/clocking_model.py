# SPDX-License-Identifier: Apache-2.0
"""Cycle models of ClockingZoo's two clock domains (see ClockingZoo's Javadoc).

Each model has one method per event: ``edge()`` for a rising clock edge, taking
the inputs that were stable before it and the other domain's register a
synchroniser samples; ``AuxModel.async_reset()`` for the moment aux_rst_n goes
low. Values nobody has defined yet (registers without reset before their first
load, memory bytes never written) are None, and the testbench skips them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


def repeat_byte(byte: int, width: int) -> int:
    return int.from_bytes(bytes([byte]) * (width // 8), "big")


@dataclass
class Sync2:
    """TwoFlopSync: meta <- d, stable <- meta; q = stable. Resets to 0."""

    meta: int | None = None
    stable: int | None = None

    def reset(self) -> None:
        self.meta, self.stable = 0, 0

    def edge(self, d: int | None) -> None:
        self.meta, self.stable = d, self.meta


@dataclass
class DefaultModel:
    """clk domain: synchronous active-high reset, no clock enable."""

    width: int
    depth: int
    count: int | None = None
    acc: int | None = None
    toggle: int | None = None
    en_d1: int | None = None
    in_d1: int | None = None
    in_held: int | None = None
    rdata: list[int | None] | None = None  # per byte, LSB lane first
    mem: list[list[int | None]] = field(default_factory=list)
    sync: Sync2 = field(default_factory=Sync2)
    lit_mem: list[list[int | None]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lanes = self.width // 8
        self.mem = [[None] * self.lanes for _ in range(self.depth)]
        self.lit_mem = [[None] * self.lanes for _ in range(4)]
        self.rdata = [None] * self.lanes
        self.acc_init = repeat_byte(0xA5, self.width)

    def edge(self, i: dict[str, int], aux_toggle: int | None) -> None:
        mask = (1 << self.width) - 1
        # Next state from the pre-edge state (nonblocking semantics).
        if i["rst"]:
            self.count, self.acc, self.toggle, self.en_d1 = 0, self.acc_init, 0, 0
            self.sync.reset()
        else:
            if i["a_en"]:
                self.count = None if self.count is None else (self.count + 1) & 0xFF
                self.acc = None if self.acc is None else self.acc ^ i["a_in"]
                self.toggle = None if self.toggle is None else self.toggle ^ 1
            self.en_d1 = i["a_en"]
            self.sync.edge(aux_toggle)
        # Registers without reset load in reset cycles too.
        self.in_d1 = i["a_in"] & mask
        if i["a_en"]:
            self.in_held = i["a_in"] & mask
        if i["m_ren"]:
            self.rdata = list(self.mem[i["m_raddr"]])  # read-first: the word before this edge's write
        if i["m_we"]:
            word = self.mem[i["m_waddr"]]
            for lane in range(self.lanes):
                if i["m_wbe"] >> lane & 1:
                    word[lane] = i["m_wdata"] >> (8 * lane) & 0xFF
        word = self.lit_mem[i["l_addr"]]
        for lane in range(self.lanes):
            if i["l_we"] and i["m_wbe"] >> lane & 1:
                word[lane] = i["a_in"] >> (8 * lane) & 0xFF
            elif i["l_lit"] and not i["l_we"] and lane % 2 == 0:
                word[lane] = 0xC0 + lane  # the literal, even lanes only

    def adata(self, araddr: int) -> list[int | None]:
        return list(self.mem[araddr])


@dataclass
class AuxModel:
    """aux domain: asynchronous active-low reset, clock enable."""

    width: int
    count: int | None = None
    acc: int | None = None
    toggle: int | None = None
    in_d1: int | None = None
    rdata: int | None = None
    mem: list[int | None] = field(default_factory=lambda: [None] * 4)
    sync: Sync2 = field(default_factory=Sync2)

    def __post_init__(self) -> None:
        self.acc_init = repeat_byte(0x3C, self.width)

    def async_reset(self) -> None:
        """aux_rst_n low: registers with a reset value take it at once, without an edge."""
        self.count, self.acc, self.toggle = 0, self.acc_init, 0
        self.sync.reset()

    def edge(self, i: dict[str, int], a_toggle: int | None) -> None:
        if not i["aux_ce"]:
            return  # clock enable low: nothing in this domain changes
        mask = (1 << self.width) - 1
        if i["aux_rst_n"]:
            if i["aux_en"]:
                self.count = None if self.count is None else (self.count + 1) & 0xFF
                self.acc = None if self.acc is None else (self.acc + i["aux_in"]) & mask
                self.toggle = None if self.toggle is None else self.toggle ^ 1
            self.sync.edge(a_toggle)
        # (in reset, the registers with reset values hold them)
        self.in_d1 = i["aux_in"]
        self.rdata = self.mem[i["aux_raddr"]]  # read-first, enable always on
        if i["aux_we"]:
            self.mem[i["aux_waddr"]] = i["aux_in"]
