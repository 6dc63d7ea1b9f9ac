# SPDX-License-Identifier: Apache-2.0
"""Lint the stream library tops at non-default parameters (make lint covers the defaults).

Edge values (one port, ratio 1, capacity 1, widths that are not powers of two,
per-cycle limits equal to the capacity) are where constant comparisons, empty
selects and unused bits hide; every configuration must pass verilator -Wall
with no waivers, Icarus and Yosys, exactly as verif/tools/lint_all.py runs them.
"""


import pytest

from common.lint import assert_lints_clean


CONFIGS = [
    ("arbiter", {"requesters": 1}),
    ("arbiter", {"requesters": 7, "roundRobin": False}),
    ("stream_arbiter", {"inputs": 1, "dataWidth": 8, "lockUntilLast": False}),
    ("stream_arbiter", {"inputs": 16, "dataWidth": 512, "roundRobin": False}),
    ("stream_mux", {"inputs": 1, "dataWidth": 8}),
    ("stream_mux", {"inputs": 7, "dataWidth": 128}),
    ("stream_demux", {"outputs": 1, "dataWidth": 8}),
    ("stream_demux", {"outputs": 6, "dataWidth": 256}),
    ("stream_fork", {"outputs": 1, "synchronous": True}),
    ("stream_fork", {"outputs": 9, "dataWidth": 8}),
    ("stream_join", {"inputs": 1}),
    ("stream_join", {"inputs": 5, "dataWidth": 1024}),
    ("packet_upsizer", {"inputWidth": 8, "ratio": 1}),
    ("packet_upsizer", {"inputWidth": 24, "ratio": 5}),
    ("packet_upsizer", {"inputWidth": 512, "ratio": 2}),
    ("packet_downsizer", {"inputWidth": 8, "ratio": 1}),
    ("packet_downsizer", {"inputWidth": 120, "ratio": 5}),
    ("packet_downsizer", {"inputWidth": 1024, "ratio": 16}),
    ("credit_sender", {"capacity": 1, "initialCredits": 0, "maxReturnPerCycle": 1}),
    ("credit_sender", {"capacity": 1000, "initialCredits": 1000, "maxReturnPerCycle": 24}),
    ("credit_receiver", {"capacity": 1, "maxFreePerCycle": 1, "maxReturnPerCycle": 1}),
    ("credit_receiver", {"capacity": 15, "maxFreePerCycle": 15, "maxReturnPerCycle": 15, "advertisedAtReset": 15}),
    ("credit_receiver", {"capacity": 100, "maxFreePerCycle": 3, "maxReturnPerCycle": 7, "advertisedAtReset": 40}),
    ("credit_link", {"capacity": 1, "initialCredits": 1, "maxReturnPerCycle": 1, "maxFreePerCycle": 1}),
]


def config_id(c):
    top, params = c
    return top + "-" + "-".join(f"{k}{int(v) if isinstance(v, bool) else v}" for k, v in params.items())


@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_lint_clean(config):
    top, params = config
    assert_lints_clean(top, params)
