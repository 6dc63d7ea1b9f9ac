# SPDX-License-Identifier: Apache-2.0
"""StreamJoin over inputs x data width; each run has idle insertion and backpressure variants."""

import pytest

from common import generate, run_cocotb

CONFIGS = [(1, 8), (2, 16), (3, 32), (4, 64)]  # (inputs, dataWidth)


@pytest.mark.parametrize("inputs,width", CONFIGS, ids=[f"n{n}-w{w}" for n, w in CONFIGS])
def test_stream_join(inputs, width):
    run_cocotb(generate("stream_join", {"inputs": inputs, "dataWidth": width}), "tb_stream_join")
