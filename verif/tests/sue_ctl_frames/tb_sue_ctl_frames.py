# SPDX-License-Identifier: Apache-2.0
"""cocotb bench of sue_ctl_frames (see test_sue_ctl_frames.py). Register addresses come from the
generated ``sue_ctl_frames_regs.py``; frames from scapy; expectations from the documented rules:

* TX: a frame written word by word (byte 4i in bits 7:0 of word i) and sent with its length
  leaves whole, in order, padded with zeros to 60 bytes, its beats back to back; a send with
  every slot holding a frame is not sent and counts in TX_DROPS; lengths outside 14..max are
  refused (SLVERR).
* RX: rx_tready is 1 in every cycle; a frame is kept when a slot is free and it is 14..max
  bytes without a MAC error, else dropped and counted (RX_DROPS_FULL / RX_DROPS_BAD); kept
  frames read back byte-exact, oldest first, and leave with RX_POP.
"""

from __future__ import annotations

import os
import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer
from cocotbext.axi import AxiLiteBus, AxiLiteMaster, AxiStreamSink
from cocotbext.axi.constants import AxiResp

from common.mac_axis import axis_bus, mac_frame, mac_source, quiet, random_pause
from common.sue_endpoint_bench import ControlSoftware, control_frame, load_regs

WIDTH = int(os.environ["TB_WIDTH"])
BYTES = WIDTH // 8
MAX_FRAME = int(os.environ["TB_MAX_FRAME"])
TX_SLOTS = int(os.environ["TB_TX_SLOTS"])
RX_SLOTS = int(os.environ["TB_RX_SLOTS"])
MIN_FRAME = 14  # an Ethernet header: documented minimum of a control frame
MIN_WIRE = 60  # Ethernet minimum without FCS: shorter TX frames are padded with zeros


class Bench:
    def __init__(self, dut, rng):
        self.dut = dut
        self.rng = rng
        self.regs = load_regs(os.environ["TB_REGS_DIR"], "sue_ctl_frames").ctl
        self.axil = AxiLiteMaster(AxiLiteBus.from_prefix(dut, "s_axil"), dut.clk, dut.rst)
        self.sw = ControlSoftware(self.axil, self.regs)
        quiet(self.axil.write_if)
        quiet(self.axil.read_if)
        self.sink = quiet(AxiStreamSink(axis_bus(dut, "tx"), dut.clk, dut.rst))
        self.source = mac_source(dut, "rx")
        self.errors = []
        cocotb.start_soon(self.watch())

    async def watch(self):
        """rx_tready always 1; tx beats of a frame back to back (no tvalid low inside a frame)."""
        in_frame = False
        while True:
            await RisingEdge(self.dut.clk)
            if int(self.dut.rst.value):
                continue
            if int(self.dut.rx_tready.value) != 1:
                self.errors.append("rx_tready low")
            valid = int(self.dut.tx_tvalid.value)
            if in_frame and not valid:
                self.errors.append("tx_tvalid dropped inside a frame")
            if valid and int(self.dut.tx_tready.value):
                in_frame = not int(self.dut.tx_tlast.value)

    async def reset(self):
        self.dut.rst.value = 1
        await ClockCycles(self.dut.clk, 4)
        self.dut.rst.value = 0
        await ClockCycles(self.dut.clk, 2)

    async def write(self, addr, value, expect=AxiResp.OKAY):
        await self.sw.write(addr, value, expect)

    async def read(self, addr):
        return await self.sw.read(addr)

    async def send(self, frame: bytes):
        await self.sw.send(frame)

    async def receive_tx(self) -> bytes:
        f = await self.sink.recv(compact=False)
        data = bytes(f.tdata)
        keep = list(f.tkeep)
        n = keep.count(1)
        assert keep == [1] * n + [0] * (len(keep) - n), "tx tkeep not contiguous"
        assert not any(f.tuser), "tx tuser set"
        return data[:n]

    async def read_rx(self) -> bytes | None:
        return await self.sw.receive()


@cocotb.test()
async def control_frames(dut):
    rng = random.Random(int(os.environ["TB_SEED"]))
    cocotb.start_soon(Clock(dut.clk, 4, unit="ns").start())
    tb = Bench(dut, rng)
    regs = tb.regs
    await tb.reset()

    limits = regs.LIMITS.unpack(await tb.read(regs.LIMITS.address))
    assert limits == {"max_frame_bytes": MAX_FRAME, "tx_slots": TX_SLOTS, "rx_slots": RX_SLOTS}, limits

    # TX: lengths at the edges and random, the sink stalling at random.
    tb.sink.set_pause_generator(random_pause(0.3, rng))
    lengths = [MIN_FRAME, MIN_WIRE - 1, MIN_WIRE, MAX_FRAME] + [min(MAX_FRAME, max(MIN_FRAME, n)) for n in (BYTES, BYTES + 1)] + \
              [rng.randint(MIN_FRAME, MAX_FRAME) for _ in range(4)]
    frames = [control_frame(rng, n) for n in lengths]
    got = []

    async def collect(n):
        for _ in range(n):
            got.append(await tb.receive_tx())

    collector = cocotb.start_soon(collect(len(frames)))
    for f in frames:
        await tb.send(f)
    await collector
    for f, g in zip(frames, got):
        assert g == f.ljust(MIN_WIRE, b"\0"), f"TX frame of {len(f)} bytes differs"
    assert await tb.read(regs.TX_FRAMES.address) == len(frames)
    for bad in (MIN_FRAME - 1, MAX_FRAME + 1):
        await tb.write(regs.TX_SEND.address, regs.TX_SEND.pack(length=bad), expect=AxiResp.SLVERR)

    # TX with the sink stopped: frames fill the output FIFO, then every slot; one more send is
    # dropped and counted.
    tb.sink.set_pause_generator(None)
    tb.sink.pause = True
    held = []
    for _ in range(TX_SLOTS + 16):
        if await tb.read(regs.TX_STATUS.address) == TX_SLOTS:
            break
        held.append(control_frame(rng, rng.randint(MIN_FRAME, MAX_FRAME)))
        await tb.send(held[-1])
        await ClockCycles(dut.clk, 10)
    assert await tb.read(regs.TX_STATUS.address) == TX_SLOTS, "the slots never filled with the sink stopped"
    await tb.write(regs.TX_SEND.address, regs.TX_SEND.pack(length=MIN_FRAME))
    assert await tb.read(regs.TX_DROPS.address) == 1
    tb.sink.pause = False
    tb.sink.set_pause_generator(random_pause(0.3, rng))
    for f in held:
        assert await tb.receive_tx() == f.ljust(MIN_WIRE, b"\0")
    assert await tb.read(regs.TX_FRAMES.address) == len(frames) + len(held)

    # RX, nothing popped: bad frames first, then more good ones than slots.
    model_kept, drops_full, drops_bad, held_rx = [], 0, 0, 0
    sent = []
    bad_cases = [(control_frame(rng, MIN_FRAME - 1), 0), (control_frame(rng, MAX_FRAME + 1), 0),
                 (control_frame(rng, MIN_FRAME + 5), 1)]
    good = [(control_frame(rng, n), 0) for n in [MIN_FRAME, MAX_FRAME] +
            [rng.randint(MIN_FRAME, MAX_FRAME) for _ in range(RX_SLOTS + 1)]]
    for frame, err in bad_cases + good:
        bad = err or not MIN_FRAME <= len(frame) <= MAX_FRAME
        if held_rx == RX_SLOTS:
            drops_full += 1
        elif bad:
            drops_bad += 1
        else:
            model_kept.append(frame)
            held_rx += 1
        sent.append(frame)
        await tb.source.send(mac_frame(frame, err, BYTES, rng))
    await tb.source.wait()
    await ClockCycles(dut.clk, 4)
    assert await tb.read(regs.RX_FRAMES.address) == len(model_kept)
    assert await tb.read(regs.RX_DROPS_FULL.address) == drops_full
    assert await tb.read(regs.RX_DROPS_BAD.address) == drops_bad
    for expected in model_kept:
        assert await tb.read_rx() == expected
    assert await tb.read_rx() is None

    # RX while software reads: what it pops is the good frames in order, minus those dropped full.
    tb.source.set_pause_generator(random_pause(0.5, rng))
    stream = [control_frame(rng, rng.randint(MIN_FRAME, MAX_FRAME)) for _ in range(3 * RX_SLOTS)]
    for f in stream:
        await tb.source.send(mac_frame(f, 0, BYTES, rng))
    popped = []
    while True:
        f = await tb.read_rx()
        if f is not None:
            popped.append(f)
            continue
        if tb.source.empty() and not tb.source.active:
            await ClockCycles(dut.clk, 4)
            f = await tb.read_rx()
            if f is None:
                break
            popped.append(f)
    it = iter(stream)
    assert all(any(p == s for s in it) for p in popped), "popped frames are not the sent ones in order"
    full_now = await tb.read(regs.RX_DROPS_FULL.address)
    assert len(popped) + (full_now - drops_full) == len(stream)
    assert await tb.read(regs.RX_FRAMES.address) == len(model_kept) + len(popped)
    assert int(dut.frame_waiting.value) == 0
    await Timer(1, "ns")
    assert not tb.errors, tb.errors[:5]
