# SPDX-License-Identifier: Apache-2.0
"""StreamFilterDemo (Stream.throwWhen, haltWhen, map) over width x filter order.

Each run has idle x backpressure variants (tb_stream_filter_demo.py); width 1
makes every payload odd or even with probability 1/2 and wraps the map's +1.
"""

import pytest

from common import generate, run_cocotb

CONFIGS = [(1, True), (16, False), (33, True), (64, False)]


@pytest.mark.parametrize("width,halt_first", CONFIGS,
                         ids=[f"w{w}-{'halt_first' if h else 'throw_first'}" for w, h in CONFIGS])
def test_stream_filter_demo(width, halt_first):
    design = generate("stream_filter_demo", {"width": width, "haltFirst": halt_first})
    run_cocotb(design, "tb_stream_filter_demo", extra_env={"TB_HALT_FIRST": str(int(halt_first))})
