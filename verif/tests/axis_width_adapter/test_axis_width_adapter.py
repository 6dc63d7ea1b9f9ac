# SPDX-License-Identifier: Apache-2.0
"""AxiStreamWidthAdapter (top ``axis_width_adapter``) over a matrix of widths, down and up, with and
without tuser; each run has idle-cycle and back-pressure variants (tb_axis_width_adapter.py).
The generator's refusal of widths that are not a power-of-two ratio apart."""

from __future__ import annotations

import subprocess

import pytest

from common import generate, run_cocotb
from common.lint import assert_lints_clean
from common.paths import JAR

# (inWidth, outWidth, userWidth)
CONFIGS = [
    (512, 128, 1),
    (128, 512, 1),
    (1024, 256, 3),
    (256, 1024, 0),
    (64, 8, 2),
    (16, 128, 1),
    (256, 256, 1),
    # ratio 2 at the endpoint's narrow-port widths (test_sue_endpoint_port_widths ran it there)
    (256, 128, 1),
    (128, 256, 1),
]


@pytest.mark.parametrize("win,wout,user", CONFIGS, ids=[f"{a}to{b}-u{u}" for a, b, u in CONFIGS])
def test_axis_width_adapter(win, wout, user):
    run_cocotb(generate("axis_width_adapter", {"inWidth": win, "outWidth": wout, "userWidth": user}),
               "tb_axis_width_adapter")


@pytest.mark.parametrize("win,wout", [(768, 256), (256, 768), (512, 8192 // 2 + 8), (4096, 32), (100, 50)])
def test_generator_refuses_bad_ratios(tmp_path, win, wout):
    r = subprocess.run(["java", "-jar", str(JAR), "axis_width_adapter", "-p", f"inWidth={win}", "-p",
                        f"outWidth={wout}", "--out-dir", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    assert "inWidth" in r.stderr or "outWidth" in r.stderr, r.stderr


LINT_CONFIGS = [(1024, 16, 0), (16, 1024, 1), (64, 32, 1), (32, 64, 0), (128, 128, 0)]


@pytest.mark.parametrize("win,wout,user", LINT_CONFIGS, ids=[f"{a}to{b}-u{u}" for a, b, u in LINT_CONFIGS])
def test_lint_clean(win, wout, user):
    """Ratio 64 both ways, ratio 2 (a 1-bit lane register), equal widths, without tuser: verilator
    -Wall, Icarus and Yosys as make lint runs them (make lint covers the default top)."""
    assert_lints_clean("axis_width_adapter", {"inWidth": win, "outWidth": wout, "userWidth": user})
