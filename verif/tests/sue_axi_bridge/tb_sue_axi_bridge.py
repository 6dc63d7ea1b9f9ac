# SPDX-License-Identifier: Apache-2.0
"""cocotb bench for the AXI4 XPU bridge alone (top ``sue_axi_bridge``, AxiXpuBridge.java).

The bridge's FIFO side is closed on itself by a Python model of SUE's XPU interfaces: every op
the bridge sends on ``tx_*`` comes back on ``rx_*`` (from source ``OWN``), after a random delay,
per VC in order, the VCs interleaved at random. The model keeps SUE's side of both credit loops
as the interface documentation says (``tx_*``: the XPU starts with the initial credits and may
send an op only with a command credit and a data credit per beat, returned on ``tx_credit``;
``rx_*``: SUE sends only with the credits the XPU returned on ``rx_credit``) and fails on any
breach, on an idle cycle inside an op and on a request whose destination is not its address's.

cocotbext-axi's ``AxiMaster`` drives ``s_axi`` and ``AxiRam`` answers on ``m_axi``: random
writes and reads of 1..256 bytes at random addresses and IDs from many concurrent workers (each
owns an address range, so a Python byte array is the exact oracle of what reads return); then
the bad inputs: an unmapped destination (DECERR), a burst over 256 bytes (SLVERR), a narrow
burst whose strobes are no byte range (SLVERR; a one-beat narrow write goes through), and the
counters checked against what the test did.

``w_and_aw_apart`` drives the two write channels apart by pausing AxiMaster's AW or W source:
W bursts long before their AWs (filling the W buffer, then one more, which must be held back
with WREADY low and counted once in ``cnt_w_stall``) and an AW long before its W, each write
checked in AxiRam and read back, while reads on AR keep completing.
"""

from __future__ import annotations

import os
import random
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ReadOnly, RisingEdge, Timer
from cocotbext.axi import AxiBus, AxiMaster, AxiRam, AxiResp

SEED = int(os.environ.get("TB_SEED", "1"))
N_OPS = int(os.environ.get("TB_OPS", "300"))
WORKERS = int(os.environ.get("TB_WORKERS", "8"))
CMD_CREDITS = int(os.environ["TB_CMD_CREDITS"])
DATA_CREDITS = int(os.environ["TB_DATA_CREDITS"])
XPUS = int(os.environ["TB_XPUS"])
DEST_LSB = int(os.environ["TB_DEST_LSB"])
DEST_BITS = int(os.environ["TB_DEST_BITS"])
OWN = 2  # the source the loopback gives every op

TYPE_WRITE, TYPE_READ, TYPE_B, TYPE_R = 0xA0, 0xA1, 0xA2, 0xA3
UNITS = {TYPE_WRITE: 9, TYPE_READ: 8, TYPE_B: 3, TYPE_R: 3}


class LoopbackSue:
    """SUE's XPU interfaces, closed on themselves: ops from tx_* return on rx_*."""

    def __init__(self, dut, rng):
        self.dut = dut
        self.rng = rng
        self.nbytes = len(dut.tx_data) // 8
        self.tx_cmd = [0] * 4  # what the bridge may spend, per VC: given on tx_credit, as SUE does
        self.tx_data = [0] * 4
        # SUE advertises its initial credits on tx_credit after reset
        self.tx_owed = deque((0, kind, vc, 1) for vc in (0, 1) for kind, n in ((0, CMD_CREDITS), (1, DATA_CREDITS))
                             for _ in range(n))  # (ready cycle, kind, vc, count)
        self.rx_cmd = [0] * 4  # credits the bridge gave SUE, per VC
        self.rx_data = [0] * 4
        self.queues = [deque(), deque()]  # per VC: (ready cycle, xpuid, control, [data beats])
        self.cur = None  # op being assembled from tx_*
        self.sending = None  # (vc, beats list, index) on rx_*
        self.cycle = 0
        self.ops = {TYPE_WRITE: 0, TYPE_READ: 0, TYPE_B: 0, TYPE_R: 0}
        self.vc_dest_checks = 0

    def dest_of(self, control):
        addr = (control >> 16) & ((1 << 64) - 1)
        return (addr >> DEST_LSB) & ((1 << DEST_BITS) - 1)

    def take_tx(self):
        d = self.dut
        valid = int(d.tx_valid.value)
        if self.cur is not None and valid == 0:
            raise AssertionError(f"cycle {self.cycle}: idle cycle inside an op on tx_*")
        if valid == 0:
            return
        assert valid in (1, 2), f"tx_valid {valid}"
        cyc = int(d.tx_cycle.value)
        vc = int(d.tx_vc.value)
        if cyc == 0:
            assert self.cur is None, f"cycle {self.cycle}: new op while one is in flight"
            assert self.tx_cmd[vc] >= 1, f"cycle {self.cycle}: op without a command credit on VC {vc}"
            self.tx_cmd[vc] -= 1
            control = int(d.tx_control.value)
            typ = control & 0xFF
            assert typ in UNITS, f"unknown type {typ:#x}"
            assert (valid == 2) == (typ in (TYPE_WRITE, TYPE_R)), f"type {typ:#x} with tx_valid {valid}"
            assert vc == (0 if typ in (TYPE_WRITE, TYPE_READ) else 1), f"type {typ:#x} on VC {vc}"
            xpuid = int(d.tx_xpuid.value)
            if typ in (TYPE_WRITE, TYPE_READ):
                assert xpuid == self.dest_of(control), f"request to {xpuid}, address says {self.dest_of(control)}"
                self.vc_dest_checks += 1
            else:
                assert xpuid == OWN, f"response to {xpuid}, the request came from {OWN}"
            control &= (1 << (16 * UNITS[typ])) - 1  # SUE carries only the table's control bytes
            beats = ((control >> 8 & 0xFF) // self.nbytes + 1) if valid == 2 else 0
            self.cur = {"vc": vc, "xpuid": xpuid, "control": control, "beats": beats, "data": [], "type": typ}
            self.ops[typ] += 1
        else:
            assert self.cur is not None and cyc == len(self.cur["data"]), f"cycle {self.cycle}: tx_cycle {cyc}"
        if valid == 2:
            assert self.tx_data[vc] >= 1, f"cycle {self.cycle}: data beat without a data credit on VC {vc}"
            self.tx_data[vc] -= 1
            self.cur["data"].append(int(d.tx_data.value))
        op = self.cur
        if len(op["data"]) == op["beats"]:
            self.cur = None
            ready = self.cycle + self.rng.randint(3, 40)
            self.queues[op["vc"]].append((ready, op))
            self.tx_owed.append((ready, 0, op["vc"], 1))
            for _ in range(op["beats"]):
                self.tx_owed.append((ready, 1, op["vc"], 1))

    def take_rx_credit(self):
        c = int(self.dut.rx_credit.value)
        if c & 0x20:
            kind, vc, count = c >> 4 & 1, c >> 2 & 3, (c & 3) + 1
            (self.rx_data if kind else self.rx_cmd)[vc] += count

    def drive(self):
        d = self.dut
        # tx_credit: one message a cycle, credits of one {kind, vc}, up to 4
        msg = 0
        if self.tx_owed and self.tx_owed[0][0] <= self.cycle and self.rng.random() < 0.7:
            _, kind, vc, _ = self.tx_owed[0]
            n = 0
            while n < 4 and self.tx_owed and self.tx_owed[0][0] <= self.cycle and self.tx_owed[0][1:3] == (kind, vc):
                self.tx_owed.popleft()
                n += 1
            (self.tx_data if kind else self.tx_cmd)[vc] += n
            msg = 0x20 | kind << 4 | vc << 2 | (n - 1)
        d.tx_credit.value = msg
        # rx_*: continue an op, or start one from a VC whose head is due and covered by credits
        if self.sending is None:
            vcs = [v for v in (0, 1) if self.queues[v] and self.queues[v][0][0] <= self.cycle]
            self.rng.shuffle(vcs)
            for v in vcs:
                op = self.queues[v][0][1]
                if self.rx_cmd[v] >= 1 and self.rx_data[v] >= op["beats"] and self.rng.random() < 0.8:
                    self.queues[v].popleft()
                    self.rx_cmd[v] -= 1
                    self.rx_data[v] -= op["beats"]
                    self.sending = [op, 0]
                    break
        if self.sending is None:
            d.rx_valid.value = 0
            d.rx_cycle.value = 0
            d.rx_vc.value = 0
            d.rx_xpuid.value = 0
            d.rx_control.value = 0
            d.rx_data.value = 0
            return
        op, i = self.sending
        d.rx_valid.value = 2 if op["beats"] else 1
        d.rx_cycle.value = i
        d.rx_vc.value = op["vc"]
        d.rx_xpuid.value = OWN
        d.rx_control.value = op["control"]
        d.rx_data.value = op["data"][i] if op["beats"] else 0
        self.sending = [op, i + 1] if i + 1 < max(op["beats"], 1) else None

    async def run(self):
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            self.cycle += 1
            if int(d.rst.value):
                continue
            self.drive()
            await ReadOnly()
            self.take_tx()
            self.take_rx_credit()


async def setup(dut):
    Clock(dut.clk, 10, unit="ns").start()
    dut.rst.value = 1
    for name in ("tx_credit", "tx_reset_out", "rx_valid", "rx_cycle", "rx_vc", "rx_xpuid", "rx_control", "rx_data",
                 "rx_reset_out", "cfg_valid", "cfg_addr", "cfg_data"):  # the map stays the generator's
        getattr(dut, name).value = 0
    rng = random.Random(SEED)
    axi = AxiMaster(AxiBus.from_prefix(dut, "s_axi"), dut.clk, dut.rst)
    ram = AxiRam(AxiBus.from_prefix(dut, "m_axi"), dut.clk, dut.rst, size=1 << len(dut.m_axi_awaddr))
    sue = LoopbackSue(dut, rng)
    cocotb.start_soon(sue.run())
    for _ in range(5):
        await RisingEdge(dut.clk)
    dut.rst.value = 0
    for _ in range(5):
        await RisingEdge(dut.clk)
    return axi, ram, sue, rng


@cocotb.test()
async def random_traffic_and_bad_input(dut):
    axi, ram, sue, rng = await setup(dut)
    nbytes = len(dut.s_axi_wdata) // 8
    max_beats = max(1, 256 // nbytes)
    axi.write_if.max_burst_len = max_beats
    axi.read_if.max_burst_len = max_beats
    id_count = 1 << len(dut.s_axi_awid)
    span = 1 << DEST_LSB
    region = span // WORKERS
    ref = {}

    async def worker(w):
        rng_w = random.Random(SEED * 100 + w)
        dest = rng_w.randrange(XPUS)
        base = dest * span + w * region
        mem = bytearray(region)
        ram.write(base, bytes(mem))
        for _ in range(N_OPS // WORKERS):
            length = rng_w.randint(1, 256)
            off = rng_w.randrange(region - length)
            if rng_w.random() < 0.5:
                data = bytes(rng_w.randrange(256) for _ in range(length))
                rsp = await axi.write(base + off, data, awid=rng_w.randrange(id_count))
                assert rsp.resp == AxiResp.OKAY, f"write {base + off:#x}+{length}: {rsp.resp}"
                mem[off:off + length] = data
            else:
                rsp = await axi.read(base + off, length, arid=rng_w.randrange(id_count))
                assert rsp.resp == AxiResp.OKAY, f"read {base + off:#x}+{length}: {rsp.resp}"
                assert bytes(rsp.data) == bytes(mem[off:off + length]), f"read {base + off:#x}+{length} differs"
        ref[w] = (base, mem)

    tasks = [cocotb.start_soon(worker(w)) for w in range(WORKERS)]
    for t in tasks:
        await t
    for base, mem in ref.values():
        assert ram.read(base, len(mem)) == bytes(mem), "the RAM differs from the writes' oracle"
    good_writes = sue.ops[TYPE_WRITE]
    good_reads = sue.ops[TYPE_READ]
    assert sue.ops[TYPE_B] == good_writes and sue.ops[TYPE_R] == good_reads
    dut._log.info("%d write and %d read bursts, %d ops checked for their destination", good_writes, good_reads,
                  sue.vc_dest_checks)

    # ---- bad input: unmapped destination, burst over 256 bytes ----------------------------------------
    unmapped = XPUS << DEST_LSB if XPUS < (1 << DEST_BITS) else None
    n_unmapped = 0
    if unmapped is not None:
        rsp = await axi.write(unmapped, b"\x55" * 10)
        assert rsp.resp == AxiResp.DECERR, rsp.resp
        rsp = await axi.read(unmapped, 100)
        assert rsp.resp == AxiResp.DECERR, rsp.resp
        n_unmapped = 2
    axi.write_if.max_burst_len = 2 * max_beats
    axi.read_if.max_burst_len = 2 * max_beats
    rsp = await axi.write(0, b"\xAA" * (2 * max_beats * nbytes))
    assert rsp.resp == AxiResp.SLVERR, rsp.resp
    assert ram.read(0, 16) != b"\xAA" * 16 or True  # nothing sent: checked by the op count below
    rsp = await axi.read(0, 2 * max_beats * nbytes)
    assert rsp.resp == AxiResp.SLVERR, rsp.resp
    assert len(rsp.data) == 2 * max_beats * nbytes
    axi.write_if.max_burst_len = max_beats
    axi.read_if.max_burst_len = max_beats
    # narrow bursts (AWSIZE below the bus): one beat is one byte range and travels; two beats
    # with strobes in the low lanes of each are no range (DESIGN-AXI.md) and answered SLVERR
    rsp = await axi.write(0x80, b"narr", size=2)
    assert rsp.resp == AxiResp.OKAY, rsp.resp
    assert ram.read(0x80, 4) == b"narr"
    rsp = await axi.write(0x100, b"12345678", size=2)
    assert rsp.resp == AxiResp.SLVERR, rsp.resp
    assert ram.read(0x100, 8) != b"12345678", "a rejected write reached the RAM"
    # the bridge still works after them
    rsp = await axi.write(0x10, b"after")
    assert rsp.resp == AxiResp.OKAY
    rsp = await axi.read(0x10, 5)
    assert bytes(rsp.data) == b"after"
    for _ in range(50):
        await RisingEdge(dut.clk)

    assert sue.ops[TYPE_WRITE] == good_writes + 2, "a rejected write was sent"
    assert sue.ops[TYPE_READ] == good_reads + 1, "a rejected read was sent"
    counters = {n: int(getattr(dut, "cnt" + n).value) for n in (
        "_writes", "_reads", "_b", "_r", "_unmapped", "_too_long", "_bad_burst", "_bad_op", "_overlong")}
    dut._log.info("counters %s", counters)
    assert counters["_writes"] == good_writes + 2
    assert counters["_reads"] == good_reads + 1
    assert counters["_unmapped"] == n_unmapped
    assert counters["_too_long"] == 2
    assert counters["_bad_burst"] == 1
    assert counters["_bad_op"] == 0
    assert counters["_overlong"] == 0
    assert counters["_b"] == good_writes + 2 + 2 + n_unmapped // 2
    assert counters["_r"] == good_reads + 1 + 1 + n_unmapped // 2
    # every credit back where it started
    assert sue.tx_cmd[:2] == [CMD_CREDITS] * 2 and sue.tx_data[:2] == [DATA_CREDITS] * 2, (sue.tx_cmd, sue.tx_data)


class HandshakeCounter:
    """Counts the AW and W handshakes on ``s_axi`` (the bench's own view, not the bridge's)."""

    def __init__(self, dut):
        self.dut = dut
        self.aw = 0
        self.w = 0
        cocotb.start_soon(self._run())

    async def _run(self):
        d = self.dut
        while True:
            await RisingEdge(d.clk)
            await ReadOnly()
            self.aw += int(d.s_axi_awvalid.value) & int(d.s_axi_awready.value)
            self.w += int(d.s_axi_wvalid.value) & int(d.s_axi_wready.value)


@cocotb.test()
async def w_and_aw_apart(dut):
    """W bursts long before their AWs, beyond the W buffer, and an AW long before its W: each write
    pairs with its own data (AxiRam is the oracle) while reads on AR keep flowing."""
    axi, ram, sue, rng = await setup(dut)
    hs = HandshakeCounter(dut)
    nbytes = len(dut.s_axi_wdata) // 8
    max_beats = max(1, 256 // nbytes)
    axi.write_if.max_burst_len = max_beats
    axi.read_if.max_burst_len = max_beats
    burst = max_beats * nbytes
    span = 1 << DEST_LSB
    aw_src, w_src = axi.write_if.aw_channel, axi.write_if.w_channel
    read_base = (XPUS - 1) * span
    ram.write(read_base, bytes(rng.randrange(256) for _ in range(span // 2)))

    async def cycles(n):
        for _ in range(n):
            await RisingEdge(dut.clk)

    async def read_flows(count):
        """Reads through the bridge of bytes the RAM holds, compared with the RAM."""
        for _ in range(count):
            off = rng.randrange(span // 2 - 256)
            length = rng.randint(1, 256)
            rsp = await axi.read(read_base + off, length)
            assert rsp.resp == AxiResp.OKAY, rsp.resp
            assert bytes(rsp.data) == ram.read(read_base + off, length), f"read {off:#x}+{length} differs"

    async def wait_for(cond, limit, what):
        for _ in range(limit):
            if cond():
                return
            await RisingEdge(dut.clk)
        raise AssertionError(f"timeout waiting for {what}")

    def payloads(k, dest):
        """k writes of exactly max_beats beats each (first and last beat partial), 1 KiB apart."""
        writes = []
        for i in range(k):
            off = rng.randrange(nbytes // 2)
            length = rng.randint(burst - nbytes + 1 - off, burst - off)
            writes.append((dest * span + 0x400 * i + off, bytes(rng.randrange(256) for _ in range(length))))
        return writes

    async def check_written(writes, tasks):
        for (addr, data), t in zip(writes, tasks):
            rsp = await t
            assert rsp.resp == AxiResp.OKAY, f"write {addr:#x}: {rsp.resp}"
            assert ram.read(addr, len(data)) == data, f"write {addr:#x} paired with the wrong data"
            rsp = await axi.read(addr, len(data))
            assert bytes(rsp.data) == data, f"read back of {addr:#x} differs"

    # ---- 1: two W bursts (the W buffer's depth) 300 cycles before their AWs --------------------
    aw_src.pause = True
    writes = payloads(2, 0)
    tasks = [cocotb.start_soon(axi.write(a, d)) for a, d in writes]
    await wait_for(lambda: hs.w >= 2 * max_beats, 200, "the W beats to be taken without their AW")
    stalls_before = int(dut.cnt_w_stall.value)
    await read_flows(6)  # AR traffic passes the unpaired W data
    await cycles(300)
    assert hs.aw == 0 and not any(t.done() for t in tasks), "a write finished without its AW"
    assert sue.ops[TYPE_WRITE] == 0, "a write op left without its AW"
    aw_src.pause = False
    await check_written(writes, tasks)
    assert int(dut.cnt_w_stall.value) == stalls_before, "W within the buffer counted as a stall"

    # ---- 2: three W bursts without AWs: the third waits (WREADY low, one stall counted) --------
    aw_src.queue_occupancy_limit = 8  # let AxiMaster queue the AWs and so send all W bursts
    aw_src.pause = True
    w0 = hs.w
    writes = payloads(3, 1 % XPUS)
    tasks = [cocotb.start_soon(axi.write(a, d)) for a, d in writes]
    await wait_for(lambda: hs.w - w0 >= 2 * max_beats, 200, "the W buffer to fill")
    await read_flows(4)
    await cycles(200)
    taken = hs.w - w0
    assert taken < 3 * max_beats, f"{taken} W beats taken beyond the buffer without their AWs"
    assert int(dut.s_axi_wvalid.value) == 1 and int(dut.s_axi_wready.value) == 0, "W not held back"
    assert int(dut.cnt_w_stall.value) == stalls_before + 1, "the stall not counted once"
    aw_src.pause = False
    await check_written(writes, tasks)
    aw_src.queue_occupancy_limit = 2

    # ---- 3: an AW 300 cycles before its W -------------------------------------------------------
    w_src.pause = True
    aw0, w0 = hs.aw, hs.w
    writes = payloads(1, 2 % XPUS)
    tasks = [cocotb.start_soon(axi.write(a, d)) for a, d in writes]
    await wait_for(lambda: hs.aw > aw0, 200, "the AW to be taken")
    await read_flows(6)
    await cycles(300)
    assert hs.w == w0 and not tasks[0].done(), "the write finished without its W"
    w_src.pause = False
    await check_written(writes, tasks)

    await cycles(50)
    assert int(dut.cnt_bad_burst.value) == 0 and int(dut.cnt_bad_op.value) == 0
    assert sue.ops[TYPE_B] == sue.ops[TYPE_WRITE] == 6
    assert sue.tx_cmd[:2] == [CMD_CREDITS] * 2 and sue.tx_data[:2] == [DATA_CREDITS] * 2, (sue.tx_cmd, sue.tx_data)
