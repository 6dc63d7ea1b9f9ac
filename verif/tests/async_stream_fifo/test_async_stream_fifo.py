# SPDX-License-Identifier: Apache-2.0
"""async_stream_fifo: depths 2..64, widths 1..64, 2 and 3 synchroniser stages, both clock
ratios (10 ns / 13.7 ns and 13.7 ns / 10 ns) plus a 1:3.7 ratio for a packet payload."""

import pytest

from common import generate, run_cocotb

# (depth, width, stages, packet, s period ns, m period ns)
CONFIGS = [
    (2, 8, 2, False, 10.0, 13.7),
    (2, 8, 2, False, 13.7, 10.0),
    (4, 1, 2, False, 10.0, 13.7),
    (4, 1, 2, False, 13.7, 10.0),
    (16, 32, 2, False, 10.0, 13.7),
    (16, 32, 2, False, 13.7, 10.0),
    (64, 8, 3, False, 10.0, 13.7),
    (64, 8, 3, False, 13.7, 10.0),
    (8, 64, 2, True, 10.0, 37.0),
    (8, 64, 2, True, 37.0, 10.0),
]


@pytest.mark.parametrize(
    "depth,width,stages,packet,s_period,m_period",
    CONFIGS,
    ids=[f"d{d}-w{w}-st{st}{'-packet' if p else ''}-s{s}-m{m}" for d, w, st, p, s, m in CONFIGS],
)
def test_async_stream_fifo(depth, width, stages, packet, s_period, m_period):
    design = generate("async_stream_fifo", {"depth": depth, "width": width, "syncStages": stages, "packet": packet})
    env = {"DEPTH": str(depth), "STAGES": str(stages), "S_PERIOD": str(s_period), "M_PERIOD": str(m_period),
           "PACKET": "1" if packet else "0"}
    run_cocotb(design, "tb_async_stream_fifo", extra_env=env, seed=1)
