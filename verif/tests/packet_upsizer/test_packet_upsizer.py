# SPDX-License-Identifier: Apache-2.0
"""PacketUpsizer over input width x ratio; each run has idle insertion and backpressure variants."""

import pytest

from common import generate, run_cocotb

CONFIGS = [(8, 1), (8, 2), (16, 3), (32, 4), (64, 8)]  # (inputWidth, ratio)


@pytest.mark.parametrize("width,ratio", CONFIGS, ids=[f"w{w}-r{r}" for w, r in CONFIGS])
def test_packet_upsizer(width, ratio):
    run_cocotb(generate("packet_upsizer", {"inputWidth": width, "ratio": ratio}), "tb_packet_upsizer")
