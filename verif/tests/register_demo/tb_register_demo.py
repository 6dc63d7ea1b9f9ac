# SPDX-License-Identifier: Apache-2.0
"""cocotb bench of register_demo: every register kind through AXI4-Lite (cocotbext-axi
AxiLiteMaster), against a plain Python model of the documented semantics. Addresses, resets and
legal ranges come from the generated ``register_demo_regs.py``; the model's expected values do
not (they follow from what the test wrote).

Checked: reset values; read-after-write of every writable field with random legal values;
illegal values and reserved bits answered SLVERR with nothing changed; writes to read-only
registers SLVERR; unmapped addresses (in the decoder's holes, in a block's holes, past a
table's last entry) DECERR; partial strobes SLVERR; the write-only strobe; write-1-to-clear;
the event counter; the RAM table; the target's error counters equal the errors the test saw;
reads and writes issued concurrently.
"""

from __future__ import annotations

import importlib.util
import os
import random
from pathlib import Path

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge
from cocotbext.axi import AxiLiteBus, AxiLiteMaster
from cocotbext.axi.constants import AxiResp

MAGIC = 0x5EE00001  # RegisterDemo.MAGIC: the documented ID value


def load_regs():
    d = Path(os.environ["TB_REGS_DIR"])
    path = d / "register_demo_regs.py"
    spec = importlib.util.spec_from_file_location("register_demo_regs", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


class Bench:
    def __init__(self, dut):
        self.dut = dut
        self.regs = load_regs()
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
        self.slverr = 0
        self.decerr = 0

    async def reset(self):
        self.dut.events.value = 0
        self.dut.rst.value = 1
        await ClockCycles(self.dut.clk, 4)
        self.dut.rst.value = 0
        await ClockCycles(self.dut.clk, 2)

    async def write(self, addr, value, expect=AxiResp.OKAY, strb=None):
        data = value.to_bytes(4, "little")
        if strb is None:
            rsp = await self.axil.write(addr, data)
        else:
            # cocotbext-axi derives wstrb from the byte offset and length: a 2-byte write at
            # addr+1 leaves strobes 0110.
            rsp = await self.axil.write(addr + strb[0], data[: strb[1]])
        assert rsp.resp == expect, f"write 0x{value:x} to 0x{addr:x}: {rsp.resp!r}, expected {expect!r}"
        self.count(rsp.resp)

    async def read(self, addr, expect=AxiResp.OKAY):
        rsp = await self.axil.read(addr, 4)
        assert rsp.resp == expect, f"read 0x{addr:x}: {rsp.resp!r}, expected {expect!r}"
        self.count(rsp.resp)
        return int.from_bytes(rsp.data, "little")

    def count(self, resp):
        if resp == AxiResp.SLVERR:
            self.slverr += 1
        elif resp == AxiResp.DECERR:
            self.decerr += 1


@cocotb.test()
async def register_semantics(dut):
    rng = random.Random(int(os.environ.get("TB_SEED", "1")))
    cocotb.start_soon(Clock(dut.clk, 4, unit="ns").start())
    tb = Bench(dut)
    regs = tb.regs
    ctrl, stats = regs.ctrl, regs.stats
    await tb.reset()

    # Resets, as the map documents them (and the ID value the design documents).
    assert await tb.read(ctrl.ID.address) == MAGIC
    for reg in (ctrl.SCRATCH, ctrl.LIMIT, ctrl.MODE, ctrl.CAUSE, ctrl.EVENTS, ctrl.LAST_KICK):
        assert await tb.read(reg.address) == reg.reset, reg.name
    assert int(dut.limit.value) == ctrl.LIMIT.field("value").reset
    assert int(dut.level.value) == ctrl.MODE.field("level").reset

    # Read after write with legal values; illegal ones refused, value kept.
    model = {ctrl.SCRATCH.address: 0, ctrl.LIMIT.address: ctrl.LIMIT.reset}
    for _ in range(20):
        v = rng.getrandbits(32)
        await tb.write(ctrl.SCRATCH.address, v)
        model[ctrl.SCRATCH.address] = v
        assert await tb.read(ctrl.SCRATCH.address) == v
    lim = ctrl.LIMIT.field("value")
    for v in [lim.min, lim.max, rng.randint(lim.min, lim.max)]:
        await tb.write(ctrl.LIMIT.address, v)
        model[ctrl.LIMIT.address] = v
        assert await tb.read(ctrl.LIMIT.address) == v
        assert int(dut.limit.value) == v
    for bad in [lim.min - 1, lim.max + 1, (1 << lim.width) - 1, 1 << lim.width, 0xFFFF_FFFF]:
        await tb.write(ctrl.LIMIT.address, bad, expect=AxiResp.SLVERR)
        assert await tb.read(ctrl.LIMIT.address) == model[ctrl.LIMIT.address]

    # A register of several fields: reserved bits and the read-only field.
    mode = ctrl.MODE
    lvl = mode.field("level")
    await tb.write(mode.address, mode.pack(enable=1, level=lvl.max))
    got = mode.unpack(await tb.read(mode.address))
    assert got == {"enable": 1, "level": lvl.max, "busy": 1}, got
    await tb.write(mode.address, mode.pack(enable=0, level=lvl.max + 1), expect=AxiResp.SLVERR)
    await tb.write(mode.address, mode.pack(enable=0, level=2) | 0b10, expect=AxiResp.SLVERR)  # reserved bit 1
    await tb.write(mode.address, mode.pack(enable=0, level=2, busy=1), expect=AxiResp.SLVERR)  # read-only bit
    assert mode.unpack(await tb.read(mode.address)) == {"enable": 1, "level": lvl.max, "busy": 1}
    await tb.write(mode.address, mode.pack(enable=0, level=2))
    assert mode.unpack(await tb.read(mode.address)) == {"enable": 0, "level": 2, "busy": 0}
    assert int(dut.level.value) == 2 and int(dut.enable.value) == 0

    # Read-only registers refuse writes.
    await tb.write(ctrl.ID.address, 0, expect=AxiResp.SLVERR)
    assert await tb.read(ctrl.ID.address) == MAGIC

    # Write-only strobe: each legal write is one kick, reads return 0.
    for n in range(1, 6):
        code = rng.getrandbits(16)
        await tb.write(ctrl.KICK.address, code)
        assert int(dut.kicks.value) == n
        assert await tb.read(ctrl.LAST_KICK.address) == code
    await tb.write(ctrl.KICK.address, 1 << 16, expect=AxiResp.SLVERR)
    assert int(dut.kicks.value) == 5
    assert await tb.read(ctrl.KICK.address) == 0

    # Partial strobes never half-write a register.
    await tb.write(ctrl.SCRATCH.address, 0x1234, expect=AxiResp.SLVERR, strb=(1, 2))
    assert await tb.read(ctrl.SCRATCH.address) == model[ctrl.SCRATCH.address]

    # Write-1-to-clear and the event counter.
    events = 0
    pulses0 = 0
    for _ in range(30):
        e = rng.getrandbits(4)
        dut.events.value = e
        await RisingEdge(dut.clk)
        events |= e
        pulses0 += e & 1
    dut.events.value = 0
    await ClockCycles(dut.clk, 2)
    assert await tb.read(ctrl.CAUSE.address) == events
    assert await tb.read(ctrl.EVENTS.address) == pulses0
    clear = rng.getrandbits(4)
    await tb.write(ctrl.CAUSE.address, clear)
    assert await tb.read(ctrl.CAUSE.address) == events & ~clear

    # The table in RAM.
    table = stats.TABLE
    val = table.field("value")
    contents = {}
    for i in rng.sample(range(table.count), min(table.count, 24)):
        v = rng.randint(val.min, val.max)
        await tb.write(table.at(i), table.pack(value=v))
        contents[i] = v
    for i, v in contents.items():
        assert table.unpack(await tb.read(table.at(i))) == {"value": v, "parity": bin(v).count("1") & 1}
    i = next(iter(contents))
    await tb.write(table.at(i), table.pack(value=val.max + 1), expect=AxiResp.SLVERR)
    await tb.write(table.at(i), table.pack(parity=1), expect=AxiResp.SLVERR)
    assert table.unpack(await tb.read(table.at(i)))["value"] == contents[i]

    # Unmapped: the decoder's hole, a block's hole, past the table's last entry (when not a power of two).
    holes = [ctrl.BASE + ctrl.BYTES, stats.BASE - 4, ctrl.EVENTS.address + 4, stats.BASE + stats.BYTES,
             (1 << regs.BYTE_ADDRESS_BITS) - 4]
    if table.count & (table.count - 1):
        holes.append(table.address + 4 * table.count)
    for a in holes:
        assert await tb.read(a, expect=AxiResp.DECERR) == 0
        await tb.write(a, 1, expect=AxiResp.DECERR)

    # Reads and writes issued at once: every one answered, in its own channel.
    async def writer():
        for k in range(16):
            await tb.write(ctrl.SCRATCH.address, k)

    async def reader():
        for _ in range(16):
            assert await tb.read(ctrl.ID.address) == MAGIC

    w = cocotb.start_soon(writer())
    r = cocotb.start_soon(reader())
    await w
    await r
    assert await tb.read(ctrl.SCRATCH.address) == 15

    # The error counters count what the test saw (their own reads are OKAY).
    slverr, decerr = tb.slverr, tb.decerr
    assert await tb.read(stats.SLVERRS.address) == slverr
    assert await tb.read(stats.DECERRS.address) == decerr
