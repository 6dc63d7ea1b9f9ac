# SPDX-License-Identifier: Apache-2.0
"""End-to-end proof of the chain: DemoAccumulator in Java -> sue-gen -> SystemVerilog
-> Verilator -> cocotb, checked every cycle against a Python model of its
documented behaviour (tb_demo_accumulator.py).

Matrix: width 1 (1-bit datapath, 2-entry RAM), 8 (the generator's defaults),
13 (odd width), 64 (widest allowed, 1024-entry RAM).
"""

from __future__ import annotations

import pytest

from common import generate, run_cocotb

CASES = [(1, 2), (8, 16), (13, 8), (64, 1024)]


@pytest.mark.parametrize("width,depth", CASES, ids=[f"w{w}-d{d}" for w, d in CASES])
def test_demo_accumulator(width, depth):
    design = generate("demo_accumulator", {"width": width, "historyDepth": depth})
    run_cocotb(design, "tb_demo_accumulator", extra_env={"DEMO_CYCLES": "3000", "DEMO_SEED": str(width * 7919 + depth)})


def test_unchanged_design_is_a_cache_hit():
    """Generating and building an unchanged design again reuses both caches."""
    first = generate("demo_accumulator", {"width": 8, "historyDepth": 16})
    again = generate("demo_accumulator", {"width": 8, "historyDepth": 16})
    assert again.dir == first.dir, "generate() must reuse the design for the same (top, params, jar)"
    env = {"DEMO_CYCLES": "200"}
    r1 = run_cocotb(first, "tb_demo_accumulator", extra_env=env)  # built now or by an earlier test
    r2 = run_cocotb(again, "tb_demo_accumulator", extra_env=env)
    assert r2.cache_hit, "the second build of an unchanged design must be a cache hit"
    assert r2.build_dir == r1.build_dir
    assert r1.passed and r2.passed
