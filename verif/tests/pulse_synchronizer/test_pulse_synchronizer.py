# SPDX-License-Identifier: Apache-2.0
"""pulse_synchronizer: both clock ratios (10 ns / 13.7 ns and back), a 1:3.7 ratio, 2 and 3 stages."""

import pytest

from common import generate, run_cocotb

CONFIGS = [(2, 10.0, 13.7), (2, 13.7, 10.0), (3, 10.0, 37.0), (3, 37.0, 10.0)]


@pytest.mark.parametrize("stages,src_period,dst_period", CONFIGS, ids=[f"st{s}-src{a}-dst{b}" for s, a, b in CONFIGS])
def test_pulse_synchronizer(stages, src_period, dst_period):
    design = generate("pulse_synchronizer", {"stages": stages})
    env = {"STAGES": str(stages), "SRC_PERIOD": str(src_period), "DST_PERIOD": str(dst_period)}
    run_cocotb(design, "tb_pulse_synchronizer", extra_env=env, seed=1)
