# SPDX-License-Identifier: Apache-2.0
"""StreamDemux over outputs x data width; each run has idle insertion and backpressure variants."""

import pytest

from common import generate, run_cocotb

CONFIGS = [(1, 8), (2, 32), (3, 64), (4, 16)]  # (outputs, dataWidth)


@pytest.mark.parametrize("outputs,width", CONFIGS, ids=[f"n{n}-w{w}" for n, w in CONFIGS])
def test_stream_demux(outputs, width):
    run_cocotb(generate("stream_demux", {"outputs": outputs, "dataWidth": width}), "tb_stream_demux")
