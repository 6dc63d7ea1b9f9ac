# SPDX-License-Identifier: Apache-2.0
"""CRC engine (dev.sue.hdl.lib.crc.CrcEngine, top ``crc_engine``) against
independent oracles: zlib.crc32 for CRC-32, a textbook bitwise CRC-32C, and a
generic bitwise model for other CRCs (see tb_crc.py).

Each case generates one configuration, builds it with Verilator (cached) and
sends random frames of 1..9000 bytes with random idle cycles between and
within frames, every tail length, the "123456789" check string, and garbage in
invalid bytes. The number of long frames is limited at narrow widths (an 8-bit
bus needs 9000 cycles for a 9000-byte frame).
"""

from __future__ import annotations

import json
import os

import pytest

from common import generate, run_cocotb

CRC32 = dict(name="CRC-32", width=32, poly=0x04C11DB7, refin=True, refout=True, init=0xFFFFFFFF, xorout=0xFFFFFFFF)
CRC32C = dict(name="CRC-32C", width=32, poly=0x1EDC6F41, refin=True, refout=True, init=0xFFFFFFFF, xorout=0xFFFFFFFF)
# Non-Ethernet CRCs prove the engine is generic: MSB-first input, narrow widths, refin != refout.
CRC16_IBM3740 = dict(name="CRC-16/IBM-3740", width=16, poly=0x1021, refin=False, refout=False, init=0xFFFF, xorout=0)
CRC5_USB = dict(name="CRC-5/USB", width=5, poly=0x05, refin=True, refout=True, init=0x1F, xorout=0x1F)
CRC12_UMTS = dict(name="CRC-12/UMTS", width=12, poly=0x80F, refin=False, refout=True, init=0, xorout=0)


def frames(seed, count, max_len, long_frames=0, min_len=1, idle_between=0.3, idle_within=0.2):
    return dict(seed=seed, count=count, min_len=min_len, max_len=max_len, long_frames=long_frames,
                long_len=9000, idle_between=idle_between, idle_within=idle_within)


# id: (spec, data width, extra generator params, frame mix)
CASES = {
    # CRC-32 across the widths; a few 9000-byte frames at narrow widths only
    "crc32_w8": (CRC32, 8, {}, frames(1, 25, 300, long_frames=1)),
    "crc32_w64": (CRC32, 64, {}, frames(2, 80, 2000, long_frames=2)),
    "crc32_w256": (CRC32, 256, {}, frames(3, 120, 9000, long_frames=2)),
    "crc32_w512": (CRC32, 512, {}, frames(4, 200, 9000, long_frames=2)),
    "crc32_w1024": (CRC32, 1024, {}, frames(5, 250, 9000, long_frames=2)),
    # back to back, no idle cycles at all: a frame may end on every beat
    "crc32_w64_no_idle": (CRC32, 64, {}, frames(6, 300, 200, idle_between=0, idle_within=0)),
    # pipelined data term; the 256-bit one also with the tail correction in steps, one per stage
    "crc32_w512_pipe": (CRC32, 512, {"dataPipeline": 1}, frames(7, 200, 9000, long_frames=2)),
    "crc32_w1024_pipe": (CRC32, 1024, {"dataPipeline": 1}, frames(8, 250, 9000, long_frames=2)),
    "crc32_w256_pipe_step1": (CRC32, 256, {"dataPipeline": 1, "tailMatrix": False, "tailStepsPerCycle": 1},
                              frames(9, 150, 3000, idle_between=0.1, idle_within=0.1)),
    "crc32_w2048_pipe": (CRC32, 2048, {"dataPipeline": 1}, frames(10, 200, 9000, long_frames=2)),
    "crc32_w512_step1": (CRC32, 512, {"tailMatrix": False, "tailStepsPerCycle": 1}, frames(25, 150, 3000)),
    # whole words only (no tail logic)
    "crc32_w512_words": (CRC32, 512, {"byteTails": False}, frames(11, 100, 9000, long_frames=1)),
    # FCS check (RX): crc_ok only, both outputs, pipelined, whole words, 8-bit bus
    "crc32_w512_check": (CRC32, 512, {"value": False, "check": True}, frames(19, 200, 9000, long_frames=2)),
    "crc32_w64_both": (CRC32, 64, {"check": True}, frames(20, 150, 2000, long_frames=1)),
    "crc32_w1024_both_pipe": (CRC32, 1024, {"check": True, "dataPipeline": 1}, frames(21, 200, 9000)),
    "crc32_w256_words_check": (CRC32, 256, {"byteTails": False, "check": True}, frames(22, 100, 3000)),
    "crc32_w8_check": (CRC32, 8, {"value": False, "check": True}, frames(23, 40, 300)),
    "crc32c_w512_check": (CRC32C, 512, {"value": False, "check": True}, frames(24, 150, 9000)),
    # CRC-32C
    "crc32c_w8": (CRC32C, 8, {}, frames(12, 25, 300, long_frames=1)),
    "crc32c_w64": (CRC32C, 64, {}, frames(13, 80, 2000, long_frames=1)),
    "crc32c_w512": (CRC32C, 512, {}, frames(14, 200, 9000, long_frames=2)),
    "crc32c_w1024_pipe": (CRC32C, 1024, {"dataPipeline": 1}, frames(15, 200, 9000, long_frames=2)),
    # other CRCs
    "crc16_w32": (CRC16_IBM3740, 32, {}, frames(16, 80, 1000)),
    "crc5_w16": (CRC5_USB, 16, {}, frames(17, 80, 500)),
    "crc12_w24": (CRC12_UMTS, 24, {}, frames(18, 80, 500)),
}


def generator_params(spec: dict, data_width: int, extra: dict) -> dict:
    return {
        "dataWidth": data_width,
        "crcWidth": spec["width"],
        "polynomial": hex(spec["poly"]),
        "reflectIn": spec["refin"],
        "reflectOut": spec["refout"],
        "init": hex(spec["init"]),
        "xorOut": hex(spec["xorout"]),
        **extra,
    }


# The default run keeps one case per feature (widths 8..1024, pipeline, tail steps, whole words,
# check, both outputs, CRC-32C, non-32-bit CRCs); CRC_FULL_MATRIX=1 adds the wide and repeated
# variants (2048 bits, pipelined 1024-bit, CRC-32C at 512/1024, ...).
EXTENDED = {"crc32_w1024_pipe", "crc32_w2048_pipe", "crc32_w512_step1", "crc32_w1024_both_pipe",
            "crc32_w256_words_check", "crc32c_w8", "crc32c_w512", "crc32c_w1024_pipe"}
SELECTED = [c for c in CASES if os.environ.get("CRC_FULL_MATRIX") == "1" or c not in EXTENDED]


@pytest.mark.parametrize("case", SELECTED)
def test_crc(case):
    spec, data_width, extra, frame_mix = CASES[case]
    design = generate("crc_engine", generator_params(spec, data_width, extra))
    module = next(m for m in design.report["modules"] if m["name"] == design.top_module)
    latency = module["latency_cycles"]
    assert module["parameters"]["dataWidth"] == data_width
    value, check = extra.get("value", True), extra.get("check", False)
    run_cocotb(
        design,
        "tb_crc",
        extra_env={
            "CRC_SPEC": json.dumps(spec),
            "LATENCY": str(latency),
            "BYTE_TAILS": "1" if extra.get("byteTails", True) else "0",
            "OUTPUTS": "both" if value and check else "check" if check else "value",
            "FRAMES": json.dumps(frame_mix),
        },
    )


def test_latency_is_declared():
    """The declared latency follows the documented formula (CrcEngine's Javadoc)."""
    cases = {
        # (width, dataPipeline, byteTails, value, check, tailMatrix): cycles
        (8, 0, True, True, False, True): 1,  # one lane: nothing to undo
        (512, 0, False, True, False, True): 1,  # whole words
        (512, 1, False, True, False, True): 2,
        (512, 0, False, True, True, True): 1,  # check: next ^ good zero-detected into the result register
        (64, 0, True, True, False, True): 1 + 1,  # input reg, the tail matrix's partials (XORed after them)
        (512, 0, True, True, False, True): 1 + 1,
        (1024, 1, True, True, True, True): 1 + 1 + 1,
        (64, 0, True, True, False, False): 1 + 1 + 2,  # in steps: 3 steps at 2 per stage
        (512, 0, True, True, False, False): 1 + 1 + 3,  # 6 steps
        (512, 0, True, False, True, False): 1 + 1,  # check only: no correction
        (1024, 1, True, True, True, False): 1 + 1 + 1 + 4,  # 7 steps
    }
    for (width, pipe, tails, value, check, matrix), want in cases.items():
        design = generate("crc_engine", {"dataWidth": width, "dataPipeline": pipe, "byteTails": tails,
                                         "value": value, "check": check, "tailMatrix": matrix})
        module = next(m for m in design.report["modules"] if m["name"] == design.top_module)
        assert module["latency_cycles"] == want, (width, pipe, tails, value, check, matrix)
