# SPDX-License-Identifier: Apache-2.0
"""ClockingZoo: resets (synchronous, asynchronous active-low), clock enable,
registers without reset, regNext/regNextWhen, a byte-enable RAM with
synchronous and asynchronous reads, and two-flop synchronisers between two
unrelated clocks (tb_clocking_zoo.py, clocking_model.py).

Matrix (width, memDepth): (8, 2) one byte lane and the smallest memory;
(16, 12) the defaults, partial address space; (72, 32) nine lanes, power-of-two
depth; (128, 5) sixteen lanes, wider than Verilator's 64-bit words.
"""

from __future__ import annotations

import pytest

from common import generate, run_cocotb

CASES = [(8, 2), (16, 12), (72, 32), (128, 5)]


@pytest.mark.parametrize("width,depth", CASES, ids=[f"w{w}-d{d}" for w, d in CASES])
def test_clocking_zoo(width, depth):
    design = generate("clocking_zoo", {"width": width, "memDepth": depth})
    run_cocotb(
        design,
        "tb_clocking_zoo",
        extra_env={"CZ_DEPTH": str(depth), "CZ_CYCLES": "2000", "CZ_SEED": str(width * 31 + depth)},
    )
