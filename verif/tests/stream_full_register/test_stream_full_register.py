# SPDX-License-Identifier: Apache-2.0
"""stream_full_register: payload widths 1..512 as one leaf, and a 64-bit packet beat {data, keep, last}."""

import pytest

from common import generate, run_cocotb

CONFIGS = [(1, False), (37, False), (512, False), (64, True)]


@pytest.mark.parametrize("width,packet", CONFIGS, ids=[f"w{w}{'-packet' if p else ''}" for w, p in CONFIGS])
def test_stream_full_register(width, packet):
    design = generate("stream_full_register", {"width": width, "packet": packet})
    run_cocotb(design, "tb_stream_full_register", extra_env={"PACKET": "1" if packet else "0"}, seed=1)
