# SPDX-License-Identifier: Apache-2.0
"""cocotb side of the crc_window test (dev.sue.hdl.lib.crc.CrcWindow): random messages of every
length the window allows (trail 0..MAX_TRAIL), random idle cycles between windows and random
garbage on the inputs while valid is low; crc_value in the cycle after each window is checked
against an independent reference: zlib.crc32 for CRC-32, binascii.crc_hqx for CRC-16/CCITT-FALSE
(poly 0x1021, init 0xFFFF, no reflection), or a bit-serial model written from the Rocksoft
parameters (ref_crc) for any other CRC.

Environment: WINDOW, MAX_TRAIL, CRC (crc32 | ccitt | custom), CRC_W, POLY, REFIN, REFOUT, INIT,
XOROUT (custom only), N_WIN.
"""

from __future__ import annotations

import binascii
import os
import random
import zlib

import cocotb
from cocotb.triggers import FallingEdge, ReadOnly, RisingEdge

from common.stream_bfm import start_clock_and_reset

WINDOW = int(os.environ["WINDOW"])
MAX_TRAIL = int(os.environ["MAX_TRAIL"])
CRC = os.environ.get("CRC", "crc32")
N_WIN = int(os.environ.get("N_WIN", "400"))


def ref_crc(data: bytes) -> int:
    """Bit-serial CRC from the Rocksoft model (width, poly, refin, refout, init, xorout)."""
    w = int(os.environ["CRC_W"])
    poly, init, xorout = (int(os.environ[k], 0) for k in ("POLY", "INIT", "XOROUT"))
    refin, refout = os.environ["REFIN"] == "1", os.environ["REFOUT"] == "1"
    mask, top = (1 << w) - 1, 1 << (w - 1)
    reg = init
    for byte in data:
        for k in range(8):
            bit = (byte >> k) & 1 if refin else (byte >> (7 - k)) & 1
            fb = bool(reg & top) ^ bool(bit)
            reg = (reg << 1) & mask
            if fb:
                reg ^= poly
    if refout:
        reg = int(f"{reg:0{w}b}"[::-1], 2)
    return reg ^ xorout


def reference(msg: bytes) -> int:
    if CRC == "crc32":
        return zlib.crc32(msg)
    if CRC == "ccitt":
        return binascii.crc_hqx(msg, 0xFFFF)
    return ref_crc(msg)


@cocotb.test()
async def random_windows(dut):
    """Windows back to back or with idle cycles (garbage inputs, valid low) between them."""
    rng = random.Random(int(os.environ.get("SEED", "1")))
    dut.valid.value = 0
    dut.window.value = 0
    dut.trail.value = 0
    await start_clock_and_reset(dut)
    # every trail value at least twice, then random ones
    trails = [t for t in range(MAX_TRAIL + 1) for _ in range(2)]
    trails += [rng.randint(0, MAX_TRAIL) for _ in range(max(0, N_WIN - len(trails)))]
    rng.shuffle(trails)
    plan = []  # per cycle: None (idle) or the trail of a window
    for t in trails:
        while rng.random() < 0.3:
            plan.append(None)
        plan.append(t)
    plan.append(None)
    checked = 0
    for step in plan:
        await FallingEdge(dut.clk)
        if step is None:
            dut.valid.value = 0
            dut.window.value = rng.getrandbits(8 * WINDOW)
            dut.trail.value = rng.randint(0, (1 << len(dut.trail)) - 1)
            driven = None
        else:
            msg = bytes(rng.getrandbits(8) for _ in range(WINDOW - step))
            if rng.random() < 0.1:
                msg = bytes(len(msg))  # all-zero messages
            dut.valid.value = 1
            dut.window.value = int.from_bytes(msg + bytes(step), "little")
            dut.trail.value = step
            driven = (msg, step, reference(msg))
        # the window is taken at this rising edge; right after it the outputs show its result
        # (latency 1: registered at the edge, crc_value combinational from those registers)
        await RisingEdge(dut.clk)
        await ReadOnly()
        if driven is None:
            assert int(dut.crc_valid.value) == 0, "crc_valid without a window"
        else:
            msg, t, want = driven
            assert int(dut.crc_valid.value) == 1, "crc_valid must follow valid by one cycle"
            got = int(dut.crc_value.value)
            assert got == want, f"message {msg.hex()} (len {len(msg)}, trail {t}): crc {got:#x} != {want:#x}"
            checked += 1
    assert checked == len(trails)
    dut._log.info("%d windows checked (trail 0..%d)", checked, MAX_TRAIL)
