# SPDX-License-Identifier: Apache-2.0
"""Agents for benches of whole SUE endpoints (``sue_endpoint``, ``sue_pair``), on ClockedBench.

Every agent takes a ``View``: the DUT seen through a port-name prefix, so one class serves the
single endpoint (prefix ``""``) and each side of the back-to-back pair (``"a_"``, ``"b_"``).

* ``CfgPort``: configuration writes on a block's own bus (``cfg_valid/addr/data/ready``), for the
  benches of ``sue_tx`` and ``sue_tx_reliability``.
* ``RegPort``: the endpoint's AXI4-Lite target (``s_axil_*``) through cocotbext-axi's
  ``AxiLiteMaster``: configuration writes and register reads, addresses from the generated
  ``sue_endpoint_regs.py`` (``load_regs``).
* ``ControlSoftware``: software's side of a control-frame block (``ctl``: send a frame, receive
  one) through an ``AxiLiteMaster``; ``control_frame`` builds non-SUE frames with scapy.
* ``MacSource`` (``common.mac_axis``): frames into the AXI4-Stream ``mac_rx_0_t*``.
* ``MacTxSink``: frames out of ``mac_tx_0_t*`` (cocotbext-axi sink), with random back-pressure.
* ``XpuRxSink``: the XPU on the Table 2 receive interface: advertises credits (greedily, at a
  random rate), assembles ops, checks the beat rules, frees the entries when an op is complete.

The XPU transmit side is ``common.sue_ops.XpuTx`` (give it a ``View``).
"""

from __future__ import annotations

import importlib.util
import random
from collections import deque
from pathlib import Path
from typing import Callable

import cocotb
from cocotb.triggers import RisingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster
from cocotbext.axi.constants import AxiResp
from scapy.layers.l2 import ARP, Ether

from common.mac_axis import FrameSink, MacFrame, MacSource, quiet
from common.sue_ops import CommandTable, ceil_div
from common.xpu_rx import CMD, DATA, RxCredits


class View:
    """``dut`` with ``prefix`` in front of every attribute name: ``View(dut, "a_").tx_valid``.

    ``aliases`` renames before the prefix is added, for a top whose names differ from the
    endpoint's (``{"rx_xpuid": "xpuid"}`` for ``sue_rx_deliver``).
    """

    def __init__(self, dut, prefix: str = "", aliases: dict[str, str] | None = None):
        object.__setattr__(self, "_dut", dut)
        object.__setattr__(self, "_prefix", prefix)
        object.__setattr__(self, "_aliases", dict(aliases or {}))

    def __getattr__(self, name: str):
        # Called only for names not yet cached: the handle is kept as an attribute, so agents
        # that touch a dozen signals every cycle do not pay for the lookup again.
        handle = getattr(self._dut, self._prefix + self._aliases.get(name, name))
        object.__setattr__(self, name, handle)
        return handle

    @property
    def prefix(self) -> str:
        return self._prefix

    @property
    def dut(self):
        return self._dut


class CfgPort:
    """Writes (address, data) pairs on the configuration bus, one per accepted cycle."""

    def __init__(self, view: View):
        self.v = view
        self.queue: deque[tuple[int, int]] = deque()
        self.v.cfg_valid.value = 0

    @property
    def busy(self) -> bool:
        return bool(self.queue)

    def drive(self) -> None:
        if self.queue:
            a, d = self.queue[0]
            self.v.cfg_valid.value = 1
            self.v.cfg_addr.value = a
            self.v.cfg_data.value = d
        else:
            self.v.cfg_valid.value = 0

    def sample(self) -> None:
        if self.queue and int(self.v.cfg_valid.value) and int(self.v.cfg_ready.value):
            self.queue.popleft()


def load_regs(directory, top: str = "sue_endpoint"):
    """The generated register module ``<top>_regs.py`` in ``directory`` (the design's output)."""
    path = Path(directory) / f"{top}_regs.py"
    spec = importlib.util.spec_from_file_location(f"{top}_regs", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def block_registers(block) -> list:
    """The registers of a block class of a generated register module, in address order."""
    regs = [v for v in vars(block).values() if type(v).__name__ == "Register"]
    return sorted(regs, key=lambda r: r.address)


class StatusWords(dict):
    """Status words read from the ``status`` block, by the blocks' dotted names (``tx_rel.retx``):
    register ``TX_REL_RETX`` is word ``tx_rel_retx``, and a name is looked up with ``_`` for ``.``."""

    def __getitem__(self, name: str) -> int:
        return super().__getitem__(name.replace(".", "_"))


class RegPort:
    """The endpoint's AXI4-Lite target driven by cocotbext-axi's ``AxiLiteMaster`` (one per bus).

    * ``queue``: configuration writes ``(byte address, data)``, sent in order (addresses from the
      generated module: ``regs.cfg.WINDOW.address``, ``regs.cfg.PARTITION.at(d)``); each must
      answer OKAY.
    * ``read(byte_addresses)``: reads in order; ``results[address]`` = the word, ``None`` for an
      error response.
    * ``read_status()``: every register of the ``status`` block; ``status()`` then gives them as
      ``StatusWords``.
    ``busy`` while anything is queued or on the bus. Tests may also await ``master`` directly
    (cocotbext-axi serialises the accesses). ``drive``/``sample`` do nothing: the master runs as
    its own coroutine, so the agent sits in a ``ClockedBench`` like the others.
    """

    def __init__(self, view: View, regs):
        self.v, self.regs = view, regs
        dut = view.dut
        self.master = AxiLiteMaster(AxiLiteBus.from_prefix(dut, view.prefix + "s_axil"), dut.clk, dut.rst)
        quiet(self.master.write_if)
        quiet(self.master.read_if)
        self.queue: deque[tuple[int, int]] = deque()
        self.reads: deque[int] = deque()
        self.results: dict[int, int | None] = {}
        self.active = False
        cocotb.start_soon(self._run())

    @property
    def busy(self) -> bool:
        return bool(self.queue or self.reads or self.active)

    def read(self, addrs) -> None:
        self.reads.extend(addrs)

    def read_status(self) -> None:
        self.read(r.address for r in block_registers(self.regs.status))

    def status(self) -> StatusWords:
        words = StatusWords()
        for r in block_registers(self.regs.status):
            value = self.results[r.address]
            assert value is not None, f"{self.v.prefix}status register {r.name} answered an error"
            words[r.name.split("_", 1)[1].lower()] = value
        return words

    async def _run(self) -> None:
        while True:
            if self.queue:
                self.active = True
                addr, data = self.queue[0]
                rsp = await self.master.write(addr, data.to_bytes(4, "little"))
                assert rsp.resp == AxiResp.OKAY, f"{self.v.prefix}configuration write {addr:#07x}: {rsp.resp!r}"
                self.queue.popleft()
            elif self.reads:
                self.active = True
                addr = self.reads[0]
                rsp = await self.master.read(addr, 4)
                self.results[addr] = int.from_bytes(rsp.data, "little") if rsp.resp == AxiResp.OKAY else None
                self.reads.popleft()
            else:
                self.active = False
                await RisingEdge(self.v.dut.clk)

    def drive(self) -> None:
        pass

    def sample(self) -> None:
        pass


def control_frame(rng: random.Random, length: int) -> bytes:
    """A non-SUE frame of exactly ``length`` (>= 14) bytes: ARP or LLDP (scapy), filled with payload."""
    if rng.random() < 0.5 and length >= 42:
        pkt = Ether(dst="ff:ff:ff:ff:ff:ff", src="02:00:00:00:00:01") / ARP(pdst="10.0.0.2")
    else:
        pkt = Ether(dst="01:80:c2:00:00:0e", src="02:00:00:00:00:02", type=0x88CC)
    raw = bytes(pkt)[:length]
    return raw + rng.randbytes(length - len(raw))


class ControlSoftware:
    """Software on a control-frame block (``ctl``, a block class of a generated register module)
    through ``master`` (cocotbext-axi ``AxiLiteMaster``): word i of a frame is bytes 4i..4i+3,
    byte 4i in bits 7:0 (DESIGN-MGMT.md)."""

    def __init__(self, master: AxiLiteMaster, ctl):
        self.master, self.ctl = master, ctl

    async def write(self, addr: int, value: int, expect=AxiResp.OKAY) -> None:
        rsp = await self.master.write(addr, value.to_bytes(4, "little"))
        assert rsp.resp == expect, f"write 0x{value:x} to 0x{addr:x}: {rsp.resp!r}, expected {expect!r}"

    async def read(self, addr: int) -> int:
        rsp = await self.master.read(addr, 4)
        assert rsp.resp == AxiResp.OKAY, f"read 0x{addr:x}: {rsp.resp!r}"
        return int.from_bytes(rsp.data, "little")

    async def load(self, frame: bytes) -> None:
        for i in range(0, len(frame), 4):
            await self.write(self.ctl.TX_FRAME.at(i // 4), int.from_bytes(frame[i:i + 4].ljust(4, b"\0"), "little"))

    async def send(self, frame: bytes) -> None:
        await self.load(frame)
        await self.write(self.ctl.TX_SEND.address, self.ctl.TX_SEND.pack(length=len(frame)))

    async def receive(self) -> bytes | None:
        """The oldest received frame, popped; None when none waits."""
        status = self.ctl.RX_STATUS.unpack(await self.read(self.ctl.RX_STATUS.address))
        if status["queued"] == 0:
            assert status["length"] == 0, f"RX_STATUS {status}: a length with no frame"
            return None
        n = status["length"]
        words = [await self.read(self.ctl.RX_FRAME.at(i)) for i in range(-(-n // 4))]
        await self.write(self.ctl.RX_POP.address, self.ctl.RX_POP.pack(pop=1))
        return b"".join(w.to_bytes(4, "little") for w in words)[:n]


class MacTxSink(FrameSink):
    """Takes frames from ``mac_tx_<port>`` (cocotbext ``AxiStreamSink``, random back-pressure);
    ``on_frame(frame, cycle)`` at each end. ``tuser`` ("abort") must be 0: SUE never aborts."""

    def __init__(self, bench, view: View, rng: random.Random, width_bytes: int, backpressure: float,
                 on_frame: Callable[[bytes, int], None], port: int = 0):
        def take(f: MacFrame) -> None:
            assert f.user == 0, f"{view.prefix}mac_tx_{port}: tuser (abort) set on a frame"
            on_frame(f.data, f.last_cycle)

        super().__init__(bench, view.dut, f"{view.prefix}mac_tx_{port}", width_bytes, backpressure, rng, take)


class XpuRxSink:
    """The XPU on the receive interface (Table 2 with our encodings, sue-rtl/DESIGN-RX.md), as a
    collector for scoreboards: it assembles whatever ops arrive and hands them to ``on_op``
    (``common.xpu_rx.XpuRx`` instead checks every beat against a model's exact expectation).

    Credits (``credits``, a ``common.xpu_rx.RxCredits``): the XPU owns ``cmd_credits`` command and
    ``data_credits`` data entries per VC and advertises them on ``rx_credit`` greedily (the VC and
    kind with the most free entries, up to 4 per message; with probability ``rate`` per cycle);
    an op's entries come back when it is complete. ``on_op(src, vc, control, data, first_cycle)``
    gets every op: ``control`` the op's control bytes (its length from the command table),
    ``data`` its data bytes, ``first_cycle`` the bench cycle of its first beat. Beat rules are
    asserted: consecutive ``rx_cycle`` from 0, constant VC and source inside an op, never beyond
    the credits SUE was given, bytes beyond the control length and the data length zero.
    """

    def __init__(self, view: View, rng: random.Random, width_bytes: int, table: CommandTable, vcs: int,
                 on_op: Callable[[int, int, bytes, bytes, int], None], cmd_credits: int = 16,
                 data_credits: int = 64, rate: float = 1.0):
        self.v, self.wb, self.table, self.vcs, self.on_op = view, width_bytes, table, vcs, on_op
        self.credits = RxCredits(rng, vcs, cmd_credits, data_credits, rate, chunks="greedy")
        self.cur: dict | None = None
        self.ops = 0
        self.cycle = 0
        self.v.rx_credit.value = self._credit_message = 0
        self.v.rx_reset_in.value = 0

    def drive(self) -> None:
        message = self.credits.message()
        if message != self._credit_message:  # a write costs more than the compare (long pair runs)
            self.v.rx_credit.value = self._credit_message = message

    def sample(self) -> None:
        v = self.v
        valid = int(v.rx_valid.value)
        now = self.cycle
        self.cycle += 1
        if valid == 0:
            assert self.cur is None, f"{v.prefix}rx: idle cycle inside an op {self.cur}"
            return
        assert valid in (1, 2), f"{v.prefix}rx_valid = {valid}"
        vc, cyc, src = int(v.rx_vc.value), int(v.rx_cycle.value), int(v.rx_xpuid.value)
        data = int(v.rx_data.value).to_bytes(self.wb, "little")
        if self.cur is None:
            assert cyc == 0, f"{v.prefix}rx: op starts with rx_cycle {cyc}"
            assert vc < self.vcs, f"{v.prefix}rx: op on VC {vc} >= {self.vcs}"
            control = int(v.rx_control.value).to_bytes(18, "little")
            assert control[0] in self.table.entries, f"{v.prefix}rx: op of unknown type {control[0]:#x}"
            dp, units = self.table.entries[control[0]]
            assert not any(control[2 * units:]), f"{v.prefix}rx: control bytes beyond {2 * units}: {control.hex()}"
            assert (valid == 2) == bool(dp), f"{v.prefix}rx: rx_valid {valid} for a type with data_present {dp}"
            dlen = control[1] + 1 if dp else 0
            self.credits.take(vc, CMD, f"{v.prefix}rx: ")
            self.cur = {"vc": vc, "src": src, "control": control[:2 * units], "dlen": dlen,
                        "beats": max(1, ceil_div(dlen, self.wb)), "i": 0, "data": b"", "first": now}
        c = self.cur
        assert (vc, src, cyc) == (c["vc"], c["src"], c["i"] & 0xF), \
            f"{v.prefix}rx: beat {c['i']} of an op: vc {vc} src {src} rx_cycle {cyc}, expected {c['vc']} {c['src']}"
        if valid == 2:
            self.credits.take(vc, DATA, f"{v.prefix}rx: ")
            take = min(self.wb, c["dlen"] - len(c["data"]))
            assert not any(data[take:]), f"{v.prefix}rx: data bytes beyond the op's length are not zero"
            c["data"] += data[:take]
        c["i"] += 1
        if c["i"] == c["beats"]:
            self.credits.release(vc, 1, c["beats"] if c["dlen"] else 0)
            self.cur = None
            self.ops += 1
            self.on_op(c["src"], vc, c["control"], c["data"], c["first"])
