# SPDX-License-Identifier: Apache-2.0
"""StreamMux over inputs x data width; each run has idle insertion and backpressure variants."""

import pytest

from common import generate, run_cocotb

CONFIGS = [(1, 8), (3, 32), (4, 64), (5, 16)]  # (inputs, dataWidth)


@pytest.mark.parametrize("inputs,width", CONFIGS, ids=[f"n{n}-w{w}" for n, w in CONFIGS])
def test_stream_mux(inputs, width):
    run_cocotb(generate("stream_mux", {"inputs": inputs, "dataWidth": width}), "tb_stream_mux")
