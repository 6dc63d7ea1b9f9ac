# SPDX-License-Identifier: Apache-2.0
"""cocotb side of the CRC engine tests (launched by test_crc.py).

The DUT is ``crc_engine`` (dev.sue.hdl.lib.crc.CrcEngine): a flow of packet
beats in (``s_valid``, ``s_data``, ``s_keep``, ``s_last``), one CRC per frame
out (``crc_valid`` with ``crc_value`` and/or ``crc_ok``) exactly ``LATENCY``
cycles after the frame's last beat.

Configuration comes from the environment (test_crc.py sets it):

* ``CRC_SPEC``   JSON {name, width, poly, refin, refout, init, xorout}
* ``LATENCY``    the latency the generator declared (from the JSON report)
* ``BYTE_TAILS`` "1" when frames may end mid-word; "0" for whole words only
* ``OUTPUTS``    "value", "check" or "both": which of crc_value / crc_ok exist.
                 With check, every frame ends with its FCS (appended like an
                 Ethernet FCS) and about a third of them are then corrupted;
                 crc_ok must say which.
* ``FRAMES``     JSON {seed, count, min_len, max_len, long_frames, long_len,
                  idle_between, idle_within}

Oracles are independent of the generator: ``zlib.crc32`` for CRC-32, the
textbook bitwise CRC-32C below, and a generic bitwise model (the catalogue's
parameter model) for any other CRC.  Invalid bytes of a last beat, and every
input while ``s_valid`` is low, carry random garbage so that masking and
gating are exercised.
"""

from __future__ import annotations

import json
import os
import random
import zlib

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import FallingEdge, RisingEdge

# ---------------------------------------------------------------- references


def crc32c_bitwise(data: bytes) -> int:
    """Textbook CRC-32C (Castagnoli), reflected, bit at a time."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def _reflect(v: int, width: int) -> int:
    return int(f"{v:0{width}b}"[::-1], 2)


def crc_generic(spec: dict, data: bytes) -> int:
    """Any CRC in the catalogue parameter model, MSB-first register, bit at a time."""
    w = spec["width"]
    mask = (1 << w) - 1
    reg = spec["init"]
    for b in data:
        bits = [(b >> k) & 1 for k in range(8)] if spec["refin"] else [(b >> (7 - k)) & 1 for k in range(8)]
        for bit in bits:
            fb = ((reg >> (w - 1)) & 1) ^ bit
            reg = (reg << 1) & mask
            if fb:
                reg ^= spec["poly"]
    if spec["refout"]:
        reg = _reflect(reg, w)
    return reg ^ spec["xorout"]


def reference(spec: dict):
    """The oracle for *spec*: zlib for CRC-32, the textbook loop for CRC-32C."""
    key = (spec["width"], spec["poly"], spec["refin"], spec["refout"], spec["init"], spec["xorout"])
    if key == (32, 0x04C11DB7, True, True, 0xFFFFFFFF, 0xFFFFFFFF):
        return zlib.crc32
    if key == (32, 0x1EDC6F41, True, True, 0xFFFFFFFF, 0xFFFFFFFF):
        return crc32c_bitwise
    return lambda data: crc_generic(spec, data)


CHECK_VALUES = {"CRC-32": 0xCBF43926, "CRC-32C": 0xE3069283}


def append_fcs(spec: dict, ref, payload: bytes) -> bytes:
    """*payload* followed by its CRC in wire order (LSB first when reflected, as Ethernet)."""
    n = spec["width"] // 8
    return payload + ref(payload).to_bytes(n, "little" if spec["refout"] else "big")


def with_fcs(spec: dict, ref, frames: list[bytes], rng: random.Random) -> tuple[list[bytes], list[bool]]:
    """Each frame gets its FCS; about a third are then corrupted (one bit flipped anywhere)."""
    out, good = [], []
    for f in frames:
        g = append_fcs(spec, ref, f)
        if rng.random() < 0.35:
            i = rng.randrange(len(g))
            g = g[:i] + bytes([g[i] ^ (1 << rng.randrange(8))]) + g[i + 1:]
            good.append(False)
        else:
            good.append(True)
        out.append(g)
    return out, good

# ---------------------------------------------------------------- stimulus


def make_frames(cfg: dict, lanes: int, byte_tails: bool, rng: random.Random) -> list[bytes]:
    frames = [b"123456789"] if byte_tails else []
    if byte_tails:
        # every tail length once, including a full last word, and 1-byte frames back to back
        frames += [rng.randbytes(k) for k in range(1, lanes + 1)]
        frames += [rng.randbytes(1) for _ in range(3)]
        frames += [rng.randbytes(lanes * rng.randint(1, 3) + k) for k in (1, lanes - 1)]
    for _ in range(cfg.get("long_frames", 0)):
        frames.append(rng.randbytes(cfg.get("long_len", 9000)))
    for _ in range(cfg["count"]):
        n = rng.randint(cfg["min_len"], cfg["max_len"])
        frames.append(rng.randbytes(n))
    if not byte_tails:
        frames = [f + rng.randbytes((-len(f)) % lanes) for f in frames]
        frames = [f if f else rng.randbytes(lanes) for f in frames]
    rng.shuffle(frames)
    return frames


def beats(frame: bytes, lanes: int, rng: random.Random):
    """(data, keep, last) per beat; invalid bytes of the last beat are random garbage."""
    full = (1 << lanes) - 1
    for off in range(0, len(frame), lanes):
        chunk = frame[off:off + lanes]
        last = off + lanes >= len(frame)
        k = len(chunk)
        padded = chunk + rng.randbytes(lanes - k)
        keep = full if k == lanes else (1 << k) - 1
        yield int.from_bytes(padded, "little"), keep, int(last)


# ---------------------------------------------------------------- test


async def reset(dut):
    dut.rst.value = 1
    dut.s_valid.value = 0
    dut.s_data.value = 0
    dut.s_keep.value = 0
    dut.s_last.value = 0
    for _ in range(3):
        await RisingEdge(dut.clk)
    await FallingEdge(dut.clk)
    dut.rst.value = 0


@cocotb.test()
async def crc_matches_reference(dut):
    """Random frames with idle cycles between and within them; every CRC, in order, on time."""
    spec = json.loads(os.environ["CRC_SPEC"])
    latency = int(os.environ["LATENCY"])
    byte_tails = os.environ.get("BYTE_TAILS", "1") == "1"
    cfg = json.loads(os.environ["FRAMES"])
    rng = random.Random(cfg["seed"])
    data_width = len(dut.s_data)
    lanes = data_width // 8
    ref = reference(spec)
    if spec["name"] in CHECK_VALUES:
        assert ref(b"123456789") == CHECK_VALUES[spec["name"]], "oracle check value"

    outputs = os.environ.get("OUTPUTS", "value")
    has_value = outputs in ("value", "both")
    has_check = outputs in ("check", "both")
    assert hasattr(dut, "crc_value") == has_value and hasattr(dut, "crc_ok") == has_check, "ports vs OUTPUTS"

    if has_value:
        assert len(dut.crc_value) == spec["width"]
    if has_check:
        n = spec["width"] // 8
        payloads = make_frames(cfg, lanes, True, rng)
        if not byte_tails:  # whole words: size each payload so that payload + FCS fills words
            payloads = [p + rng.randbytes(max(lanes, -(-(len(p) + n) // lanes) * lanes) - n - len(p))
                        for p in payloads]
        frames, good = with_fcs(spec, ref, payloads, rng)
        residue = ref(append_fcs(spec, ref, b"any frame"))
    else:
        frames = make_frames(cfg, lanes, byte_tails, rng)
    expected = [ref(f) for f in frames]
    if has_check:
        good = [e == residue for e in expected]
        assert any(good) and not all(good), "the mix needs good and bad frames"
    if spec["name"] in CHECK_VALUES and byte_tails and not has_check:
        i = frames.index(b"123456789")
        assert expected[i] == CHECK_VALUES[spec["name"]]

    Clock(dut.clk, 10, unit="ns").start()
    await reset(dut)

    mask_all = (1 << data_width) - 1
    full_keep = (1 << lanes) - 1
    p_between = cfg["idle_between"]
    p_within = cfg["idle_within"]

    # Per cycle, at the falling edge: sample the outputs (this cycle's values, all
    # registered), then drive this cycle's inputs; the rising edge samples them.
    cycle = 0
    last_cycles: list[int] = []
    results: list[tuple[int, int]] = []

    def sample():
        if int(dut.crc_valid.value):
            value = int(dut.crc_value.value) if has_value else None
            ok = bool(int(dut.crc_ok.value)) if has_check else None
            results.append((cycle, value, ok))

    def idle():
        dut.s_valid.value = 0
        dut.s_data.value = rng.getrandbits(data_width) & mask_all
        dut.s_keep.value = rng.getrandbits(lanes)
        dut.s_last.value = rng.getrandbits(1)

    for frame in frames:
        while rng.random() < p_between:
            sample()
            idle()
            await FallingEdge(dut.clk)
            cycle += 1
        first = True
        for data, keep, last in beats(frame, lanes, rng):
            while not first and rng.random() < p_within:
                sample()
                idle()
                await FallingEdge(dut.clk)
                cycle += 1
            first = False
            sample()
            dut.s_valid.value = 1
            dut.s_data.value = data
            dut.s_keep.value = keep if byte_tails else full_keep
            dut.s_last.value = last
            if last:
                last_cycles.append(cycle)
            await FallingEdge(dut.clk)
            cycle += 1
    for _ in range(latency + 4):
        sample()
        idle()
        await FallingEdge(dut.clk)
        cycle += 1

    assert len(results) == len(frames), f"{len(frames)} frames but {len(results)} CRC results"
    for i, (frame, exp, end, (got_cycle, got, ok)) in enumerate(zip(frames, expected, last_cycles, results)):
        if has_value:
            assert got == exp, (
                f"frame {i} ({len(frame)} bytes, {data_width}-bit bus): crc 0x{got:0{(spec['width'] + 3) // 4}x}, "
                f"expected 0x{exp:x}"
            )
        if has_check:
            assert ok == good[i], f"frame {i} ({len(frame)} bytes): crc_ok {ok}, expected {good[i]}"
        assert got_cycle - end == latency, (
            f"frame {i}: result {got_cycle - end} cycles after the last beat, declared latency {latency}"
        )
    total = sum(len(f) for f in frames)
    dut._log.info(
        f"{len(frames)} frames, {total} bytes, {cycle} cycles, "
        f"lengths {min(map(len, frames))}..{max(map(len, frames))}, latency {latency}, outputs {outputs}"
        + (f" ({sum(good)} good, {len(good) - sum(good)} bad)" if has_check else "")
        + ": all results match"
    )
