# SPDX-License-Identifier: Apache-2.0
"""Lint (Verilator -Wall, Icarus, Yosys; as `make lint`) stream-library tops with non-default
parameters, and check that the generator rejects invalid ones with a clear message."""

from __future__ import annotations

import re

import pytest

from common import GeneratorError, generate
from common.lint import assert_lints_clean


CONFIGS = [
    ("stream_fifo", {"width": 512, "depth": 64, "ram": True, "almostFullThreshold": 48}),  # synthesis benchmark size
    ("stream_fifo", {"width": 8, "depth": 5, "ram": True}),  # RAM rows that no address reaches
    ("stream_fifo", {"width": 1, "depth": 1, "ram": True}),
    ("stream_fifo", {"width": 1, "depth": 1}),
    ("stream_fifo", {"width": 16, "depth": 7, "packet": True, "almostFullThreshold": 1}),
    ("stream_fifo", {"width": 8, "depth": 1000, "ram": True}),
    ("async_stream_fifo", {"width": 1, "depth": 2}),
    ("async_stream_fifo", {"width": 64, "depth": 4096, "syncStages": 4, "packet": True}),
    ("stream_skid_buffer", {"width": 1}),
    ("stream_full_register", {"width": 8, "packet": True}),
    ("stream_half_register", {"width": 4096}),
    ("stream_forward_register", {"width": 24, "packet": True}),
    ("bit_synchronizer", {"stages": 8}),
    ("pulse_synchronizer", {"stages": 3}),
]


@pytest.mark.parametrize("top,params", CONFIGS, ids=[f"{t}-" + "-".join(f"{k}{v}" for k, v in p.items()) for t, p in CONFIGS])
def test_lints_clean(top, params):
    assert_lints_clean(top, params)


@pytest.mark.parametrize(
    "top,params,message",
    [
        ("stream_fifo", {"depth": 16, "almostFullThreshold": 17}, "almostFullThreshold must be 1..16"),
        ("stream_fifo", {"depth": 0}, "depth' = 0 is out of range"),
        ("stream_fifo", {"width": 12, "packet": True}, "multiple of 8"),
        ("async_stream_fifo", {"depth": 24}, "depth' = 24 is out of range; valid values: 2, 4, 8"),
        ("bit_synchronizer", {"stages": 1}, "stages' = 1 is out of range"),
    ],
)
def test_rejects_invalid_parameters(top, params, message):
    with pytest.raises(GeneratorError, match=re.escape(message)):
        generate(top, params)
