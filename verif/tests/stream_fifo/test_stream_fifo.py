# SPDX-License-Identifier: Apache-2.0
"""stream_fifo: register, LUT RAM and RAM storage, depths 1, 2, 3, 5, 7, 8, 16, 64, widths 1..577,
leaf and packet payloads, almost-full thresholds at 1, the middle and the depth."""

import pytest

from common import generate, run_cocotb

# (storage, depth, width, packet, almost-full threshold)
CONFIGS = [
    ("regs", 1, 8, False, 1),
    ("regs", 2, 8, False, 2),
    ("regs", 3, 8, False, 2),
    ("regs", 5, 1, False, 3),
    ("regs", 16, 8, False, 15),
    ("regs", 4, 64, True, 1),
    ("regs", 64, 32, False, 64),
    ("lutram", 1, 8, False, 1),
    ("lutram", 2, 8, False, 2),
    ("lutram", 5, 13, False, 3),
    ("lutram", 8, 512, True, 8),
    ("lutram", 64, 32, False, 60),
    ("ram", 1, 8, False, 1),
    ("ram", 2, 8, False, 1),
    ("ram", 3, 8, False, 3),
    ("ram", 5, 8, False, 4),
    ("ram", 7, 32, True, 6),
    ("ram", 16, 37, False, 9),
    ("ram", 64, 512, False, 60),
]


@pytest.mark.parametrize(
    "storage,depth,width,packet,threshold",
    CONFIGS,
    ids=[f"{s}-d{d}-w{w}{'-packet' if p else ''}-af{t}" for s, d, w, p, t in CONFIGS],
)
def test_stream_fifo(storage, depth, width, packet, threshold):
    params = {"width": width, "depth": depth, "ram": storage == "ram", "lutram": storage == "lutram", "packet": packet,
              "almostFullThreshold": threshold}
    design = generate("stream_fifo", params)
    env = {"DEPTH": str(depth), "RAM": "1" if storage == "ram" else "0", "THRESHOLD": str(threshold),
           "PACKET": "1" if packet else "0"}
    run_cocotb(design, "tb_stream_fifo", extra_env=env, seed=1)
