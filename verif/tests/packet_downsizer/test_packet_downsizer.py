# SPDX-License-Identifier: Apache-2.0
"""PacketDownsizer over input width x ratio; each run has idle insertion and backpressure variants."""

import pytest

from common import generate, run_cocotb

CONFIGS = [(8, 1), (16, 2), (48, 3), (128, 4), (512, 8)]  # (inputWidth, ratio)


@pytest.mark.parametrize("width,ratio", CONFIGS, ids=[f"w{w}-r{r}" for w, r in CONFIGS])
def test_packet_downsizer(width, ratio):
    run_cocotb(generate("packet_downsizer", {"inputWidth": width, "ratio": ratio}), "tb_packet_downsizer")
