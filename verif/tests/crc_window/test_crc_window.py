# SPDX-License-Identifier: Apache-2.0
"""CrcWindow (top ``crc_window``): the one-cycle CRC of a message given whole in a fixed window,
checked against zlib.crc32, binascii.crc_hqx and a bit-serial reference model
(tb_crc_window.py) for every trail length; lint; parameter errors."""

from __future__ import annotations

import re

import pytest

from common import GeneratorError, generate, run_cocotb
from common.lint import assert_lints_clean

CCITT = {"crcWidth": 16, "polynomial": 0x1021, "reflectIn": False, "reflectOut": False, "init": 0xFFFF,
         "xorOut": 0}
CRC32C = {"polynomial": 0x1EDC6F41}
# (label, windowBytes, maxTrail, crc params, reference)
CASES = [
    ("crc32-w22", 22, 14, {}, "crc32"),      # the 512-bit framer's window (STD IPv4)
    ("crc32-w86", 86, 78, {}, "crc32"),      # the 1024-bit framer's window (STD IPv4)
    ("crc32-w9-full", 9, 9, {}, "crc32"),    # trail up to the whole window (empty message)
    ("ccitt-w16", 16, 15, CCITT, "ccitt"),   # not reflected, init but no xorOut
    ("crc32c-w12", 12, 11, CRC32C, "custom"),
]


def _env(params: dict) -> dict:
    p = {"crcWidth": 32, "polynomial": 0x04C11DB7, "reflectIn": True, "reflectOut": True, "init": 0xFFFFFFFF,
         "xorOut": 0xFFFFFFFF, **params}
    return {"CRC_W": str(p["crcWidth"]), "POLY": hex(p["polynomial"]), "REFIN": "1" if p["reflectIn"] else "0",
            "REFOUT": "1" if p["reflectOut"] else "0", "INIT": hex(p["init"]), "XOROUT": hex(p["xorOut"])}


@pytest.mark.parametrize("label,window,max_trail,crc,ref", CASES, ids=[c[0] for c in CASES])
def test_crc_window(label, window, max_trail, crc, ref):
    design = generate("crc_window", {"windowBytes": window, "maxTrail": max_trail, **crc})
    run_cocotb(design, "tb_crc_window", extra_env={"WINDOW": str(window), "MAX_TRAIL": str(max_trail), "CRC": ref,
                                                   "N_WIN": "300", **_env(crc)}, seed=window + max_trail)


# The default (86 bytes, 78 trailing, CRC-32) is linted by `make lint` (every top at its defaults).
@pytest.mark.parametrize("params", [{"windowBytes": 16, "maxTrail": 15, **CCITT}, {"windowBytes": 1, "maxTrail": 0}])
def test_lints_clean(params):
    assert_lints_clean("crc_window", params)


@pytest.mark.parametrize("params,message", [
    ({"windowBytes": 10, "maxTrail": 11}, "maxTrail must be 0..windowBytes (10), got 11"),
    ({"windowBytes": 600}, "'windowBytes' = 600 is out of range; valid range: 1..512"),
])
def test_rejects_invalid_parameters(params, message):
    with pytest.raises(GeneratorError, match=re.escape(message)):
        generate("crc_window", params)
