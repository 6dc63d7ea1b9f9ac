# SPDX-License-Identifier: Apache-2.0
"""StreamFork over outputs x data width x mode; each run has idle and backpressure variants."""

import pytest

from common import generate, run_cocotb

CONFIGS = [(1, 8, False), (2, 32, True), (3, 32, False), (4, 64, True), (5, 16, False)]


@pytest.mark.parametrize("outputs,width,synchronous", CONFIGS,
                         ids=[f"n{n}-w{w}-{'sync' if s else 'async'}" for n, w, s in CONFIGS])
def test_stream_fork(outputs, width, synchronous):
    design = generate("stream_fork", {"outputs": outputs, "dataWidth": width, "synchronous": synchronous})
    run_cocotb(design, "tb_stream_fork", extra_env={"TB_SYNCHRONOUS": str(int(synchronous))})
