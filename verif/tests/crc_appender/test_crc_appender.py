# SPDX-License-Identifier: Apache-2.0
"""CrcAppender (top ``crc_appender``): CRC-32 appended after each packet, computed from a fixed
byte offset, against zlib.crc32 (tb_crc_appender.py); throughput 1.0 on back-to-back packets,
first-beat latency; lint; parameter errors."""

from __future__ import annotations

import re

import pytest

from common import GeneratorError, generate, run_cocotb
from common.lint import assert_lints_clean

# (dataWidth, offset, fallThrough)
CASES = [
    (256, 0, True),
    (256, 50, False),
    (512, 0, False),
    (512, 14, True),
    (1024, 200, False),  # offset beyond the first beat
    (64, 9, True),
    (32, 0, False),  # exactly the CRC's bytes: every packet spills
]


@pytest.mark.parametrize("width,offset,ft", CASES, ids=[f"w{w}-off{o}-{'ft' if f else 'reg'}" for w, o, f in CASES])
def test_crc_appender(width, offset, ft):
    design = generate("crc_appender", {"dataWidth": width, "offset": offset, "fallThrough": ft})
    max_len = 1600 if width >= 256 else 300
    run_cocotb(design, "tb_crc_appender", extra_env={"OFFSET": str(offset), "FALL_THROUGH": "1" if ft else "0",
                                                     "N_PKT": "150", "MAX_LEN": str(max_len)},
               seed=width + offset)


# The default (512 bits, offset 0, registered) is linted by `make lint` (every top at its defaults).
@pytest.mark.parametrize("params", [{"dataWidth": 1024, "offset": 66, "fallThrough": True},
                                    {"dataWidth": 64, "offset": 3, "fallThrough": True, "polynomial": 0x1EDC6F41}])
def test_lints_clean(params):
    assert_lints_clean("crc_appender", params)


@pytest.mark.parametrize("params,message", [
    ({"dataWidth": 24}, "dataWidth must be a multiple of 8 in 32..2048 (at least the CRC's 4 bytes), got 24"),
    ({"crcWidth": 12, "polynomial": 0x80F, "init": 0, "xorOut": 0}, "the CRC must be whole bytes to be appended"),
    ({"offset": 70000}, "'offset' = 70000 is out of range; valid range: 0..65535"),
])
def test_rejects_invalid_parameters(params, message):
    with pytest.raises(GeneratorError, match=re.escape(message)):
        generate("crc_appender", params)
